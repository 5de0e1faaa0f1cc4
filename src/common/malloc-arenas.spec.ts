import { describe, expect, it } from 'vitest';
import { MALLOC_ARENA_MAX_DEFAULT, mallocArenaMax } from './malloc-arenas.js';

describe('mallocArenaMax', () => {
  it('is the default when unset, blank or not a whole number', () => {
    for (const value of [undefined, '', '  ', '-1', '2.5', 'two', '1234'])
      expect(mallocArenaMax({ BROOK_MALLOC_ARENA_MAX: value })).toBe(MALLOC_ARENA_MAX_DEFAULT);
  });

  it('takes a whole number, 0 included (glibc keeps its own bound)', () => {
    expect(mallocArenaMax({ BROOK_MALLOC_ARENA_MAX: ' 4 ' })).toBe(4);
    expect(mallocArenaMax({ BROOK_MALLOC_ARENA_MAX: '0' })).toBe(0);
  });
});
