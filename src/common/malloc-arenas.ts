// Bounds glibc's malloc arenas: main.ts calls it before it loads the broker's modules, whose compilation and
// evaluation already run on other threads that allocate (V8's background compile and GC tasks, libuv's pool).
// glibc gives each thread that allocates under contention an arena of its own, up to 8 a core; freed memory in each
// stays resident apart from the others' (an idle broker kept four thread arenas of 3-5 MB each after malloc_trim).
// BROOK_MALLOC_ARENA_MAX (default 2; 0 leaves glibc's own bound; an environment variable only, since the flags are
// read later) is passed to mallopt(M_ARENA_MAX) through native/memory-reducer.cc; without the addon, or with
// BROOK_NATIVE_MEMORY_REDUCER=false, nothing changes (the environment's MALLOC_ARENA_MAX still works).
import { loadAddonFunction } from './native-addon.js';

export const MALLOC_ARENA_MAX_DEFAULT = 2;

/** The bound asked for by `env`: a whole number >= 0 (0: glibc's own), else the default. */
export function mallocArenaMax(env: NodeJS.ProcessEnv): number {
  const text = env.BROOK_MALLOC_ARENA_MAX?.trim() ?? '';
  if (!/^\d{1,3}$/.test(text)) return MALLOC_ARENA_MAX_DEFAULT;
  return Number(text);
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
