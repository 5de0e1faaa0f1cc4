// Running one piece of work per item with at most `limit` of them in flight: the start-up and metadata paths that
// touch every partition (opening logs, role changes, partition-state writes) overlap their file and store waits
// this way instead of paying them one after another, without opening thousands of files at once.

/**
 * Runs `work` on every item, at most `limit` at a time, starting them in item order. Resolves once all have
 * settled; when some failed, rejects with the first failure (the others still ran to the end).
 */
export async function forEachBounded<T>(
  items: Iterable<T>,
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer: ${limit}`);
  const iterator = items[Symbol.iterator]();
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    for (let next = iterator.next(); next.done !== true; next = iterator.next()) {
      try {
        await work(next.value);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  // an array's length bounds the workers worth starting (a large limit for a pass of a few items)
  const workers = Array.isArray(items) ? Math.min(limit, items.length) : limit;
  await Promise.all(Array.from({ length: workers }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
