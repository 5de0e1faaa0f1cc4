// Where a streamed partition starts when no offset is given (a WebSocket `subscribe`'s `from`, an SSE stream's
// `from`, a group member's partition without a usable committed offset).
import type { PartitionRouter } from '../../replication/partition-router.service.js';

export type StartFrom = 'earliest' | 'latest' | 'timestamp';

/** The log start, the high watermark, or the first offset at or after a timestamp. */
export async function startOffsetFor(
  replicas: PartitionRouter,
  topic: string,
  partition: number,
  from: StartFrom,
  timestampMs: number | null,
): Promise<number> {
  const { earliest, latest } = await replicas.offsets(topic, partition);
  if (from === 'earliest') return earliest;
  if (from === 'latest') return latest;
  return replicas.offsetForTimestamp(topic, partition, timestampMs!);
}
