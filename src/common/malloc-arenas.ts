// Bounds glibc's malloc arenas: main.ts calls it before it loads the broker's modules, whose compilation and
// evaluation already run on other threads that allocate (V8's background compile and GC tasks, libuv's pool).
// glibc gives each thread that allocates under contention an arena of its own, up to 8 a core; freed memory in each
// stays resident apart from the others' (an idle broker kept four thread arenas of 3-5 MB each after malloc_trim).
// BROOK_MALLOC_ARENA_MAX (default 2; 0 leaves glibc's own bound; an environment variable only, since the flags are
// read later; a bad value stops start-up with a message naming it) is passed to mallopt(M_ARENA_MAX) through native/memory-reducer.cc; without the addon, or with
// BROOK_NATIVE_MEMORY_REDUCER=false, nothing changes (the environment's MALLOC_ARENA_MAX still works).
import { loadAddonFunction } from './native-addon.js';

export const MALLOC_ARENA_MAX_DEFAULT = 2;

/** Largest bound taken (glibc's own is 8 a core). */
export const MALLOC_ARENA_MAX_LIMIT = 1024;

/**
 * The bound asked for by `env`: the default when unset or blank, a whole number from 0 (glibc's own) to
 * MALLOC_ARENA_MAX_LIMIT, anything else refused with the message start-up prints (as the configuration's settings).
 */
export function mallocArenaMax(env: NodeJS.ProcessEnv): number {
  const raw = env.BROOK_MALLOC_ARENA_MAX;
  const text = raw?.trim() ?? '';
  if (text === '') return MALLOC_ARENA_MAX_DEFAULT;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > MALLOC_ARENA_MAX_LIMIT)
    throw new Error(
      `BROOK_MALLOC_ARENA_MAX=${raw} is invalid: expected an integer from 0 to ${MALLOC_ARENA_MAX_LIMIT}`,
    );
  return value;
}

/** Sets the bound; true when glibc took it. */
export function limitMallocArenas(count: number): boolean {
  if (count <= 0) return false;
  const limit = loadAddonFunction<(count: number) => boolean>(
    'memory-reducer',
    'limitMallocArenas',
    'BROOK_NATIVE_MEMORY_REDUCER',
  );
  return limit?.(count) ?? false;
}
