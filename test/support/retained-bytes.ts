// The heap a batch of objects keeps alive, measured between full collections: specs of the footprint of structures
// a broker holds per partition (thousands of them on an idle broker). The collection is reached through a context
// created while --expose-gc is set, the flag cleared right after (the worker gets no `gc` global). Two collections
// each time: a full collection leaves its sweeping to run concurrently, and garbage on a page not yet swept still
// counts as used (a loaded machine's sweeper threads run late); the second one finishes the first's sweeping first.
// The objects' hidden classes, feedback and compiled code are made by a warm-up before the first reading, so the
// figure is what each object keeps alive, not what the first one costs.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/** Objects made and dropped before the first reading. */
const WARM_UP_OBJECTS = 50;

/** Two full collections (see the header). */
export function collectGarbage(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
  }
  collect();
  collect();
}

/** Heap bytes each of `count` objects made by `make` keeps alive (the array holding them included: 8 bytes each). */
export function retainedBytesEach(count: number, make: (index: number) => unknown): number {
  const warmUp = Array.from({ length: WARM_UP_OBJECTS }, (_, index) => make(index));
  if (warmUp.length !== WARM_UP_OBJECTS) throw new Error('unreachable');
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const kept = Array.from({ length: count }, (_, index) => make(index));
  collectGarbage();
  const after = process.memoryUsage().heapUsed;
  if (kept.length !== count) throw new Error('unreachable: keeps the objects alive until measured');
  return (after - before) / count;
}
