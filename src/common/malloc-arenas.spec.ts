import { describe, expect, it } from 'vitest';
import { MALLOC_ARENA_MAX_DEFAULT, MALLOC_ARENA_MAX_LIMIT, mallocArenaMax } from './malloc-arenas.js';

describe('mallocArenaMax', () => {
  it('is the default when unset or blank', () => {
    for (const value of [undefined, '', '  '])
      expect(mallocArenaMax({ BROOK_MALLOC_ARENA_MAX: value })).toBe(MALLOC_ARENA_MAX_DEFAULT);
  });

  it('refuses anything but a whole number from 0 to the limit, naming the setting', () => {
    for (const value of ['-1', '2.5', 'two', '1e3', String(MALLOC_ARENA_MAX_LIMIT + 1)])
      expect(() => mallocArenaMax({ BROOK_MALLOC_ARENA_MAX: value })).toThrow(
        `BROOK_MALLOC_ARENA_MAX=${value} is invalid: expected an integer from 0 to ${MALLOC_ARENA_MAX_LIMIT}`,
      );
  });

  it('takes a whole number, 0 included (glibc keeps its own bound)', () => {
    expect(mallocArenaMax({ BROOK_MALLOC_ARENA_MAX: ' 4 ' })).toBe(4);
    expect(mallocArenaMax({ BROOK_MALLOC_ARENA_MAX: '0' })).toBe(0);
  });
});
