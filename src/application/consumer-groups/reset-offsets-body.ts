// Brook's body of POST /v3/clusters/{c}/consumer-groups/{g}/offsets:reset (kafka-consumer-groups --reset-offsets
// as REST), validated by the REST edge, and what it asks for: where to move the group's committed offsets, of which
// partitions (all those of the named topics, or of the listed partitions; every partition the group has committed
// when no topics are named), and whether only to show the plan (dry_run, the default).
import { timestampParam } from '../params.js';

export interface ResetOffsetsBody {
  to: 'earliest' | 'latest' | 'offset' | 'timestamp';
  /** When `to` is offset. */
  offset?: number | null;
  /** When `to` is timestamp: epoch milliseconds, or an RFC 3339 date-time. */
  timestamp?: number | string | null;
  topics?: Array<{ topic_name: string; partitions?: number[] | null }> | null;
  dry_run?: boolean | null;
}

export type ResetTarget =
  { to: 'earliest' } | { to: 'latest' } | { to: 'offset'; offset: number } | { to: 'timestamp'; timestampMs: number };

export function resetTarget(body: ResetOffsetsBody): ResetTarget {
  switch (body.to) {
    case 'offset':
      return { to: 'offset', offset: body.offset ?? 0 };
    case 'timestamp':
      return { to: 'timestamp', timestampMs: timestampParam(String(body.timestamp), 'timestamp') };
    default:
      return { to: body.to };
  }
}

export function resetTopics(body: ResetOffsetsBody): Array<{ topic: string; partitions: number[] | null }> | null {
  return body.topics?.map((entry) => ({ topic: entry.topic_name, partitions: entry.partitions ?? null })) ?? null;
}
