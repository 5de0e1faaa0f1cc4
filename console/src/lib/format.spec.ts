import { describe, expect, it } from 'vitest';
import { formatBytes, formatRate } from './format';

describe('formatBytes', () => {
  it('shows bytes below 1 KiB as they are and larger sizes in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MiB');
    expect(formatBytes(null)).toBe('—');
  });
});

describe('formatRate', () => {
  it('rounds to one decimal below 100 and to units above', () => {
    expect(formatRate(0.75)).toBe('0.8');
    expect(formatRate(12)).toBe('12');
    expect(formatRate(1234.5)).toBe('1235');
    expect(formatRate(undefined)).toBe('—');
  });
});
