// Where the console consumer's records come from. Without a group: Brook's stateless read route, every
// partition (or one) read concurrently with long polls; the first answer with records ends the round and the
// other polls are aborted (a read has no side effect, and a position only advances on an answer that is used).
// Partitions added to the topic meanwhile are found every PARTITION_REFRESH_MS and read from their start.
// With a group: a v2 consumer instance (group-source.ts).
import { unwrap, type Connection } from './client.js';
import { InterruptedError } from './errors.js';
import type { components } from './generated/brook-api.js';
import type { ConsumedRecord } from './record-printer.js';

/** How often a consumer of every partition looks for partitions added to the topic (read from their start). */
export const PARTITION_REFRESH_MS = 5_000;
/** How long one read waits on the broker for new records. */
export const POLL_WAIT_MS = 1_000;
/** Bytes one read may return. */
export const READ_BYTES_MAX = 1024 * 1024;

export interface RecordSource {
  /** Waits up to about POLL_WAIT_MS; returns the records that arrived (possibly none, and none once `signal` is aborted). */
  poll(signal: AbortSignal): Promise<ConsumedRecord[]>;
  /** Everything up to and including `record` has been handled (printed). */
  processed(record: ConsumedRecord): void;
  /** Ends consumption (a group commits what was processed and leaves). */
  close(): Promise<void>;
}

export type StartPosition = { from: 'earliest' | 'latest' } | { offset: number };

type WireRecord = components['schemas']['ConsumedRecord'];

export function decodeRecord(topic: string, record: WireRecord): ConsumedRecord {
  return {
    topic,
    partition: record.partition,
    offset: record.offset,
    timestamp: record.timestamp,
    key: base64OrNull(record.key),
    value: base64OrNull(record.value),
    headers: record.headers.map((header) => ({ name: header.name, value: base64OrNull(header.value) })),
  };
}

function base64OrNull(value: unknown): Buffer | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new Error(`expected a base64 string from the broker, got ${typeof value}`);
  return Buffer.from(value, 'base64');
}

export class PartitionReader implements RecordSource {
  private readonly positions: Map<number, StartPosition>;
  private refreshedAt = Date.now();

  /** `listPartitions`, when given, is called every PARTITION_REFRESH_MS to pick up partitions added since. */
  constructor(
    private readonly connection: Connection,
    private readonly topic: string,
    partitions: readonly number[],
    start: StartPosition,
    private readonly listPartitions: (() => Promise<number[]>) | null,
  ) {
    this.positions = new Map(partitions.map((partition) => [partition, start]));
  }

  async poll(signal: AbortSignal): Promise<ConsumedRecord[]> {
    if (this.listPartitions !== null && Date.now() - this.refreshedAt >= PARTITION_REFRESH_MS) {
      this.refreshedAt = Date.now();
      for (const partition of await this.listPartitions()) {
        if (!this.positions.has(partition)) this.positions.set(partition, { from: 'earliest' });
      }
    }
    const round = new AbortController();
    const stop = (): void => round.abort();
    signal.addEventListener('abort', stop, { once: true });
    try {
      const reads = [...this.positions.keys()].map(async (partition) => {
        const records = await this.read(partition, round.signal);
        if (records.length > 0) round.abort();
        return records;
      });
      const results = await Promise.allSettled(reads);
      for (const result of results) {
        if (result.status === 'rejected' && !(round.signal.aborted && result.reason instanceof InterruptedError)) {
          throw result.reason;
        }
      }
      return results.flatMap((result) => (result.status === 'fulfilled' ? result.value : []));
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  processed(): void {}

  async close(): Promise<void> {}

  private async read(partition: number, signal: AbortSignal): Promise<ConsumedRecord[]> {
    const position = this.positions.get(partition) as StartPosition;
    const { api, clusterId } = this.connection;
    const answer = unwrap(
      await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}/records', {
        params: {
          path: { cluster_id: clusterId, topic_name: this.topic, partition_id: partition },
          query: { ...position, wait_ms: POLL_WAIT_MS, max_bytes: READ_BYTES_MAX, format: 'binary' },
        },
        signal,
      }),
    );
    this.positions.set(partition, { offset: answer.next_offset });
    return answer.records.map((record) => decodeRecord(this.topic, record));
  }
}
