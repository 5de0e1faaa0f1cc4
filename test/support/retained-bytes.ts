// The heap a batch of objects keeps alive, measured between full collections: specs of the footprint of structures
// a broker holds per partition (thousands of them on an idle broker). The collection is reached through a context
// created while --expose-gc is set, the flag cleared right after (the worker gets no `gc` global).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

function collectGarbage(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
  }
  collect();
}

/** Heap bytes each of `count` objects made by `make` keeps alive (the array holding them included: 8 bytes each). */
export function retainedBytesEach(count: number, make: (index: number) => unknown): number {
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const kept = Array.from({ length: count }, (_, index) => make(index));
  collectGarbage();
  const after = process.memoryUsage().heapUsed;
  if (kept.length !== count) throw new Error('unreachable: keeps the objects alive until measured');
  return (after - before) / count;
}
