// The console consumer's --group source: a REST Proxy v2 consumer instance (binary format, or the schema format
// of --format; no auto-commit)
// subscribed to the topic. The CLI commits explicitly what it printed (Confluent's semantics: the offset of the
// last processed record, stored as that + 1): every AUTO_COMMIT_INTERVAL_MS while polling, and on close, before
// the instance is deleted so the group rebalances at once. Records fetched but not printed (--max-messages
// reached, Ctrl-C) are not committed, so the group's next member reads them.
import { unwrap, type Connection } from './client.js';
import type { ConsumedRecord } from './record-printer.js';
import { decodeRecord, POLL_WAIT_MS, READ_BYTES_MAX, type ConsumeFormat, type RecordSource } from './record-source.js';

/** Kafka's auto.commit.interval.ms default. */
export const AUTO_COMMIT_INTERVAL_MS = 5_000;

export async function openGroupSource(
  connection: Connection,
  group: string,
  topic: string,
  fromBeginning: boolean,
  format: ConsumeFormat = 'binary',
): Promise<RecordSource> {
  const created = unwrap(
    await connection.api.POST('/consumers/{group_name}', {
      params: { path: { group_name: group } },
      body: {
        format,
        'auto.offset.reset': fromBeginning ? 'earliest' : 'latest',
        'auto.commit.enable': 'false',
      },
    }),
  );
  const source = new GroupSource(connection, group, created.instance_id, format);
  try {
    unwrap(
      await connection.api.POST('/consumers/{group_name}/instances/{instance}/subscription', {
        params: { path: source.path },
        body: { topics: [topic] },
      }),
    );
  } catch (error) {
    await source.close().catch(() => undefined);
    throw error;
  }
  return source;
}

class GroupSource implements RecordSource {
  readonly path: { group_name: string; instance: string };
  /** Last printed offset per `topic\0partition`, not yet committed. */
  private readonly pending = new Map<string, { topic: string; partition: number; offset: number }>();
  private committedAt = Date.now();

  constructor(
    private readonly connection: Connection,
    group: string,
    instance: string,
    private readonly format: ConsumeFormat,
  ) {
    this.path = { group_name: group, instance };
  }

  async poll(signal: AbortSignal): Promise<ConsumedRecord[]> {
    if (Date.now() - this.committedAt >= AUTO_COMMIT_INTERVAL_MS) await this.commit();
    if (signal.aborted) return [];
    try {
      const records = unwrap(
        await this.connection.api.GET('/consumers/{group_name}/instances/{instance}/records', {
          params: { path: this.path, query: { timeout: POLL_WAIT_MS, max_bytes: READ_BYTES_MAX } },
          signal,
        }),
      );
      return records.map((record) => decodeRecord(record.topic, record, this.format));
    } catch (error) {
      if (signal.aborted) return [];
      throw error;
    }
  }

  processed(record: ConsumedRecord): void {
    this.pending.set(`${record.topic}\0${record.partition}`, {
      topic: record.topic,
      partition: record.partition,
      offset: record.offset,
    });
  }

  async close(): Promise<void> {
    try {
      await this.commit();
    } finally {
      unwrap(
        await this.connection.api.DELETE('/consumers/{group_name}/instances/{instance}', {
          params: { path: this.path },
        }),
      );
    }
  }

  private async commit(): Promise<void> {
    this.committedAt = Date.now();
    if (this.pending.size === 0) return;
    const offsets = [...this.pending.values()];
    unwrap(
      await this.connection.api.POST('/consumers/{group_name}/instances/{instance}/offsets', {
        params: { path: this.path },
        body: { offsets },
      }),
    );
    for (const { topic, partition, offset } of offsets) {
      const key = `${topic}\0${partition}`;
      if (this.pending.get(key)?.offset === offset) this.pending.delete(key);
    }
  }
}
