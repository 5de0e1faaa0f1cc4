// Where the console consumer's records come from. Without a group: Brook's stateless read route, every
// partition (or one) read concurrently with long polls; the first answer with records ends the round and the
// other polls are aborted (a read has no side effect, and a position only advances on an answer that is used).
// Partitions added to the topic meanwhile are found every PARTITION_REFRESH_MS and read from their start.
// With a group: a v2 consumer instance (group-source.ts). In a schema format (`--format avro|jsonschema|protobuf`)
// the broker decodes keys and values with the registry's schemas; they are printed as compact JSON text, and a key
// or value the broker could not decode carries its error (the record is then reported, not printed).
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

/** How the console consumer reads: raw bytes, or decoded with the registry's schemas. */
export type ConsumeFormat = 'binary' | 'avro' | 'jsonschema' | 'protobuf';

type WireRecord = components['schemas']['ConsumedRecord'];

export function decodeRecord(topic: string, record: WireRecord, format: ConsumeFormat = 'binary'): ConsumedRecord {
  const headers = record.headers.map((header) => ({ name: header.name, value: base64OrNull(header.value) }));
  const base = { topic, partition: record.partition, offset: record.offset, timestamp: record.timestamp, headers };
  if (format === 'binary') return { ...base, key: base64OrNull(record.key), value: base64OrNull(record.value) };
  const errors = [
    ...(record.key_error === undefined
      ? []
      : [`key: ${record.key_error.message} (error ${record.key_error.error_code})`]),
    ...(record.value_error === undefined
      ? []
      : [`value: ${record.value_error.message} (error ${record.value_error.error_code})`]),
  ];
  return {
    ...base,
    key: jsonOrNull(record.key, record.key_error !== undefined),
    value: jsonOrNull(record.value, record.value_error !== undefined),
    keySchemaId: record.key_schema_id ?? null,
    valueSchemaId: record.value_schema_id ?? null,
    ...(errors.length === 0 ? {} : { errors }),
  };
}

/** A decoded key or value as compact JSON text (null stays null, as does one that failed to decode). */
function jsonOrNull(value: unknown, failed: boolean): Buffer | null {
  if (failed || value === null || value === undefined) return null;
  return Buffer.from(JSON.stringify(value), 'utf8');
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
    private readonly format: ConsumeFormat = 'binary',
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
          query: { ...position, wait_ms: POLL_WAIT_MS, max_bytes: READ_BYTES_MAX, format: this.format },
        },
        signal,
      }),
    );
    this.positions.set(partition, { offset: answer.next_offset });
    return answer.records.map((record) => decodeRecord(this.topic, record, this.format));
  }
}
