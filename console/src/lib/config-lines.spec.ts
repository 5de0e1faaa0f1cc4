import { describe, expect, it } from 'vitest';
import { parseConfigLines } from './config-lines';

describe('parseConfigLines', () => {
  it('reads name=value lines and skips blank ones', () => {
    expect(parseConfigLines('retention.ms=1000\n\n cleanup.policy = compact ')).toEqual({
      configs: [
        { name: 'retention.ms', value: '1000' },
        { name: 'cleanup.policy', value: 'compact' },
      ],
      error: null,
    });
  });

  it('names the line that is no name=value', () => {
    expect(parseConfigLines('a=1\nbroken').error).toBe('line 2: expected name=value, got "broken"');
    expect(parseConfigLines('=1').error).toMatch(/line 1/);
  });
});
