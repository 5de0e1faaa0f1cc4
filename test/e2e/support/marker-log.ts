// A topic whose partitions hold idempotency-key markers (application/produce/partition-appends.ts: the empty batch
// a request with an Idempotency-Key appends to its key's home partition when none of its records go there) between
// ordinary records, written over REST v3 and v2, with a model of every partition's log: which offset is a record
// (and its value) and which a marker. Each request's answer is checked against the model as it is sent.
import { expect } from 'vitest';
import { keyProducer } from '../../../src/application/idempotence/idempotency-key.js';
import { homePartition } from '../../../src/application/produce/partition-appends.js';
import { call } from './http.js';

const BINARY_V2 = 'application/vnd.kafka.binary.v2+json';
/** The principal of every request when authentication is off (security/request-identity.ts). */
const ANONYMOUS = 'User:ANONYMOUS';

export type LogEntry = { offset: number; value: string } | { offset: number; marker: true };
export type RecordAt = { offset: number; value: string };

export class MarkerLog {
  /** Every partition's log as the requests wrote it. */
  readonly entries: LogEntry[][];
  private keysTried = 0;

  constructor(
    readonly url: string,
    readonly clusterId: string,
    readonly topic: string,
    readonly partitions: number,
  ) {
    this.entries = Array.from({ length: partitions }, () => []);
  }

  /** The log end offset of `partition`. */
  end(partition: number): number {
    return this.entries[partition].length;
  }

  records(partition: number): RecordAt[] {
    return this.entries[partition].filter((entry): entry is RecordAt => !('marker' in entry));
  }

  markers(partition: number): number[] {
    return this.entries[partition].filter((entry) => 'marker' in entry).map((entry) => entry.offset);
  }

  /** A fresh Idempotency-Key whose home partition on this topic is `home` (idempotency-key.ts, partition-appends.ts). */
  keyWithHome(home: number): string {
    for (;;) {
      const key = `marker-key-${this.keysTried++}`;
      const { producerId } = keyProducer({ principal: ANONYMOUS, topic: this.topic, key, position: null }, 0);
      if (homePartition(producerId, this.partitions) === home) return key;
    }
  }

  /** v3 records:batch of `values` by partition, with `key` (home `home`) or none. */
  async v3Batch(byPartition: Record<number, string[]>, home?: number): Promise<void> {
    const entries = Object.entries(byPartition).flatMap(([partition, values]) =>
      values.map((value) => ({ partition_id: Number(partition), value: { type: 'STRING', data: value } })),
    );
    const send = (key: string | undefined) =>
      call(this.url, 'POST', `/v3/clusters/${this.clusterId}/topics/${this.topic}/records:batch`, {
        body: { entries: entries.map((entry, i) => ({ id: String(i), ...entry })) },
        headers: key === undefined ? {} : { 'idempotency-key': key },
      });
    const offsets = await this.sent(home, entries.length, async (key) => {
      const answer = await send(key);
      expect(answer.status, answer.text).toBe(207);
      expect(answer.body.failures).toEqual([]);
      return (answer.body.successes as Array<{ id: string; partition_id: number; offset: number }>)
        .sort((a, b) => Number(a.id) - Number(b.id))
        .map(({ partition_id: partition, offset }) => ({ partition, offset }));
    });
    this.expectAppended(
      entries.map((entry) => entry.partition_id),
      entries.map((entry) => entry.value.data),
      offsets,
    );
  }

  /** One v3 record to `partition`. */
  async v3Single(partition: number, value: string, home?: number): Promise<void> {
    const offsets = await this.sent(home, 1, async (key) => {
      const answer = await call(this.url, 'POST', `/v3/clusters/${this.clusterId}/topics/${this.topic}/records`, {
        body: { partition_id: partition, value: { type: 'STRING', data: value } },
        headers: key === undefined ? {} : { 'idempotency-key': key },
      });
      expect(answer.status, answer.text).toBe(200);
      return [{ partition: answer.body.partition_id as number, offset: answer.body.offset as number }];
    });
    this.expectAppended([partition], [value], offsets);
  }

  /** v2 binary produce, to /topics/t/partitions/p when `partition` is a number, else to /topics/t with each record's. */
  async v2(records: Array<{ partition: number; value: string }>, byPartitionRoute: boolean, home?: number) {
    const path = byPartitionRoute
      ? `/topics/${this.topic}/partitions/${records[0].partition}`
      : `/topics/${this.topic}`;
    const body = {
      records: records.map(({ partition, value }) => ({
        value: Buffer.from(value).toString('base64'),
        ...(byPartitionRoute ? {} : { partition }),
      })),
    };
    const offsets = await this.sent(home, records.length, async (key) => {
      const answer = await call(this.url, 'POST', path, {
        body,
        contentType: BINARY_V2,
        headers: key === undefined ? {} : { 'idempotency-key': key },
      });
      expect(answer.status, answer.text).toBe(200);
      return (answer.body.offsets as Array<{ partition: number; offset: number }>).map(({ partition, offset }) => ({
        partition,
        offset,
      }));
    });
    this.expectAppended(
      records.map((record) => record.partition),
      records.map((record) => record.value),
      offsets,
    );
  }

  /**
   * Sends a request (with a fresh key of home `home`, or without a key), and with a key once more: the retry is
   * replayed with the same offsets and appends nothing (no second marker). The home's marker enters the model
   * first, when none of the `count` records went home.
   */
  private async sent(
    home: number | undefined,
    count: number,
    send: (key: string | undefined) => Promise<Array<{ partition: number; offset: number }>>,
  ): Promise<Array<{ partition: number; offset: number }>> {
    const key = home === undefined ? undefined : this.keyWithHome(home);
    const offsets = await send(key);
    expect(offsets).toHaveLength(count);
    if (key !== undefined) {
      expect(await send(key)).toEqual(offsets);
      if (offsets.every(({ partition }) => partition !== home)) {
        this.entries[home!].push({ offset: this.end(home!), marker: true });
      }
    }
    return offsets;
  }

  private expectAppended(
    partitions: number[],
    values: string[],
    offsets: Array<{ partition: number; offset: number }>,
  ): void {
    partitions.forEach((partition, i) => {
      const offset = this.end(partition);
      expect(offsets[i], `${values[i]}'s place`).toEqual({ partition, offset });
      this.entries[partition].push({ offset, value: values[i] });
    });
  }
}
