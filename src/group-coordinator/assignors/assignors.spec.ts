import { describe, expect, it } from 'vitest';
import { ASSIGNOR_NAMES, DEFAULT_ASSIGNOR_NAME, assignorFor } from './assignors.js';

describe('assignor registry', () => {
  it('holds range, roundrobin and sticky, each under its own name', () => {
    expect(ASSIGNOR_NAMES).toEqual(['range', 'roundrobin', 'sticky']);
    for (const name of ASSIGNOR_NAMES) expect(assignorFor(name).name).toBe(name);
  });

  it('defaults to range, as Kafka does', () => {
    expect(DEFAULT_ASSIGNOR_NAME).toBe('range');
    expect(assignorFor().name).toBe('range');
  });
});
