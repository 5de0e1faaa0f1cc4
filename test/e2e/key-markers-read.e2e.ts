// Idempotency-key markers (the empty batches a request with an Idempotency-Key appends to its key's home partition
// when none of its records go there: application/produce/partition-appends.ts) read by clients nobody here wrote and
// by Brook's own readers. Four partitions get markers between ordinary records over REST v3 and v2: one at offset 0,
// two in a row, and as the last batch of three partitions. kafkajs 2.2.4 (a group, eachBatch), @platformatic/kafka
// 1.35.0 (a group), kcat (librdkafka: -C -e, and a -G group), the REST stateless read (one record at a time, and
// from each marker's offset), a v2 consumer instance, an SSE group stream and a WebSocket subscription each get
// every record once, in order, at its offset, and reach the log end. The groups that commit their position
// (@platformatic/kafka, the v2 instance, the SSE stream) commit the log end, past a trailing marker (lag 0); kafkajs
// and librdkafka commit after their last record, as they do against Kafka, and kafkajs, which fetches the trailing
// marker again and again, does not spin (kafka/handlers/fetch.ts). The WebSocket subscription then delivers a
// record appended after each trailing marker.
import { Consumer as PlatformaticConsumer, stringDeserializers } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import { batchesIn } from '../../src/partition-log/record-batch.js';
import { kcat, kcatAvailable } from '../support/kafka/kcat.js';
import { brokerForSuite } from './support/broker-process.js';
import { call } from './support/http.js';
import { GROUP_ENV, createTopic, eventually, kafkaClient, restLags } from './support/kafka-groups.js';
import { MarkerLog, type RecordAt } from './support/marker-log.js';
import { V2Consumer } from './support/v2-consumer.js';
import { WsClient, type Frame } from './support/ws-client.js';

const TOPIC = 'marked';
const PARTITIONS = 4;
const ALL = Array.from({ length: PARTITIONS }, (_, p) => p);

describe('idempotency-key markers read by every client', () => {
  const suite = brokerForSuite({ env: { ...GROUP_ENV, BROOK_SSE_AUTO_COMMIT_INTERVAL_MS: '100' } });
  let log: MarkerLog;

  /** The records each partition got, in the order received, beside the model's. */
  function expectEveryRecordOnce(received: Map<number, RecordAt[]>, who: string): void {
    for (const p of ALL) expect(received.get(p) ?? [], `${who}, partition ${p}`).toEqual(log.records(p));
  }

  /** Waits until REST v3 shows `group` committed at `at(p)` on every partition p (by default the log end: lag 0). */
  async function expectCommittedToEnd(group: string, at = (p: number) => log.end(p)): Promise<void> {
    const wanted = ALL.map((p) => `${p}@${at(p)}:${log.end(p) - at(p)}`);
    let last: string[] = [];
    await eventually(
      `${group} committed`,
      async () => {
        const lags = await restLags(suite.url, suite.clusterId, group);
        last = lags.map((lag) => `${lag.partition_id}@${lag.current_offset}:${lag.lag}`);
        return last.join() === wanted.join() ? true : undefined;
      },
      15_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}: partition@committed:lag ${last.join()}, wanted ${wanted.join()}`);
    });
  }

  /**
   * Where kafkajs and librdkafka commit: after the last record they delivered (they commit a record's offset + 1,
   * not their fetch position), so a partition whose last batch is a marker keeps a lag of 1 until its next record,
   * as against Kafka on a compacted partition whose last offsets hold no record (fede1024/rust-rdkafka#227).
   */
  const afterLastRecord = (p: number) => log.records(p).at(-1)!.offset + 1;

  it('writes markers on the keys’ home partitions, between records and last, as stored batches show', async () => {
    await createTopic(suite.url, suite.clusterId, TOPIC, PARTITIONS);
    log = new MarkerLog(suite.url, suite.clusterId, TOPIC, PARTITIONS);
    await log.v3Single(1, 'a', 0); // partition 0 starts with a marker
    await log.v3Batch({ 0: ['b', 'c'], 1: ['d'] });
    await log.v2(
      [
        { partition: 2, value: 'e' },
        { partition: 2, value: 'f' },
      ],
      true,
      1,
    );
    await log.v2([{ partition: 2, value: 'g' }], true, 1); // two markers in a row on partition 1
    await log.v3Single(1, 'h');
    await log.v2(
      [
        { partition: 0, value: 'i' },
        { partition: 3, value: 'j' },
      ],
      false,
      2,
    );
    await log.v3Single(2, 'k', 3);
    await log.v3Batch({ 3: ['l'] });
    // the last batch of partitions 0, 1 and 2 is a marker
    await log.v3Batch({ 3: ['m'] }, 0);
    await log.v2([{ partition: 3, value: 'n' }], false, 1);
    await log.v3Single(3, 'o', 2);

    expect(ALL.map((p) => log.markers(p))).toEqual([[0, 4], [2, 3, 5], [3, 5], [1]]);
    for (const p of ALL) {
      const stored = await call(
        suite.url,
        'GET',
        `/v3/clusters/${suite.clusterId}/topics/${TOPIC}/partitions/${p}/records?offset=0`,
        { accept: 'application/vnd.brook.batches' },
      );
      expect(stored.status, stored.text).toBe(200);
      const empty = [...batchesIn(stored.raw)].filter(({ header }) => header.recordCount === 0);
      expect(
        empty.map(({ header }) => header.baseOffset),
        `partition ${p}`,
      ).toEqual(log.markers(p));
      expect(Number(stored.headers.get('x-brook-next-offset'))).toBe(log.end(p));
    }
  });

  it('REST stateless read: one record at a time to the log end, and from each marker’s offset', async () => {
    const read = async (p: number, offset: number, maxRecords: number) => {
      const answer = await call(
        suite.url,
        'GET',
        `/v3/clusters/${suite.clusterId}/topics/${TOPIC}/partitions/${p}/records` +
          `?offset=${offset}&max_records=${maxRecords}&format=string`,
        { spec: '/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}/records' },
      );
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.high_watermark).toBe(log.end(p));
      return answer.body as { records: Array<{ offset: number; value: string }>; next_offset: number };
    };
    const received = new Map<number, RecordAt[]>();
    for (const p of ALL) {
      const mine: RecordAt[] = [];
      let offset = 0;
      for (let round = 0; offset < log.end(p); round++) {
        expect(round, `partition ${p} reads past ${offset}`).toBeLessThan(log.end(p));
        const { records, next_offset: next } = await read(p, offset, 1);
        mine.push(...records.map(({ offset: at, value }) => ({ offset: at, value })));
        expect(next).toBeGreaterThan(offset);
        offset = next;
      }
      expect(offset).toBe(log.end(p));
      received.set(p, mine);
      for (const marker of log.markers(p)) {
        const after = log.records(p).filter((record) => record.offset > marker);
        const { records, next_offset: next } = await read(p, marker, 100);
        expect(records.map(({ offset: at, value }) => ({ offset: at, value }))).toEqual(after);
        expect(next, `next_offset from the marker at ${p}/${marker}`).toBe(log.end(p));
      }
    }
    expectEveryRecordOnce(received, 'REST read');
  });

  it('kafkajs 2.2.4: a group reading with eachBatch gets every record once, commits it, and does not spin', async () => {
    const group = 'marked-kafkajs';
    const consumer = kafkaClient(suite.broker.kafkaBootstrap, 'marked-kafkajs').consumer({
      groupId: group,
      maxWaitTimeInMs: 200,
      heartbeatInterval: 300,
    });
    const received = new Map<number, RecordAt[]>();
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
      await consumer.run({
        eachBatch: async ({ batch }) => {
          const mine = received.get(batch.partition) ?? [];
          for (const message of batch.messages)
            mine.push({ offset: Number(message.offset), value: String(message.value) });
          received.set(batch.partition, mine);
        },
      });
      await eventually('kafkajs received every record', async () =>
        ALL.every((p) => (received.get(p)?.length ?? 0) >= log.records(p).length) ? true : undefined,
      );
      expectEveryRecordOnce(received, 'kafkajs');
      let fetches = 0;
      consumer.on(consumer.events.REQUEST, ({ payload }) => {
        if (payload.apiName === 'Fetch') fetches++;
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // kafkajs fetches again from the trailing markers: each Fetch waits its 200 ms for records (fetch.ts), it
      // does not spin (without the wait it sent hundreds a second)
      expect(fetches).toBeLessThan(20);
      await expectCommittedToEnd(group, afterLastRecord);
    } finally {
      await consumer.disconnect();
    }
  });

  it('@platformatic/kafka 1.35.0: a group gets every record once and commits to the log end', async () => {
    const group = 'marked-platformatic';
    const consumer = new PlatformaticConsumer({
      clientId: 'marked-platformatic',
      groupId: group,
      bootstrapBrokers: [suite.broker.kafkaBootstrap],
      deserializers: stringDeserializers,
      sessionTimeout: 6_000,
      heartbeatInterval: 500,
    });
    const received = new Map<number, RecordAt[]>();
    try {
      const stream = await consumer.consume({
        topics: [TOPIC],
        mode: 'earliest',
        autocommit: 100,
        maxWaitTime: 200,
      });
      stream.on('data', (message) => {
        const mine = received.get(message.partition) ?? [];
        mine.push({ offset: Number(message.offset), value: message.value });
        received.set(message.partition, mine);
      });
      await eventually('@platformatic/kafka received every record', async () =>
        ALL.every((p) => (received.get(p)?.length ?? 0) >= log.records(p).length) ? true : undefined,
      );
      expectEveryRecordOnce(received, '@platformatic/kafka');
      await expectCommittedToEnd(group);
    } finally {
      await consumer.close(true);
    }
  });

  it.runIf(kcatAvailable)('kcat: -C -e reads every partition to its end; a -G group commits every record', async () => {
    const parse = (stdout: string) => {
      const received = new Map<number, RecordAt[]>();
      for (const line of stdout.trim().split('\n')) {
        const [p, offset, value] = line.split('|');
        received.set(Number(p), [...(received.get(Number(p)) ?? []), { offset: Number(offset), value }]);
      }
      return received;
    };
    const format = ['-f', '%p|%o|%s\\n'];
    const consumed = await kcat([
      '-b',
      suite.broker.kafkaBootstrap,
      '-C',
      '-t',
      TOPIC,
      '-o',
      'beginning',
      '-e',
      ...format,
    ]);
    expect(consumed.code, consumed.stderr).toBe(0);
    expectEveryRecordOnce(parse(consumed.stdout), 'kcat -C');
    const group = 'marked-kcat';
    const grouped = await kcat([
      '-b',
      suite.broker.kafkaBootstrap,
      '-G',
      group,
      '-X',
      'auto.offset.reset=earliest',
      '-e',
      ...format,
      TOPIC,
    ]);
    expect(grouped.code, grouped.stderr).toBe(0);
    expectEveryRecordOnce(parse(grouped.stdout), 'kcat -G');
    await expectCommittedToEnd(group, afterLastRecord);
  });

  it('a v2 consumer instance polls every record once and commits what it returned: the log end', async () => {
    const group = 'marked-v2';
    const consumer = await V2Consumer.create(suite.url, group, 'reader', {
      format: 'binary',
      'auto.offset.reset': 'earliest',
      'auto.commit.enable': 'false',
    });
    try {
      await consumer.subscribe([TOPIC]);
      const received = new Map<number, RecordAt[]>();
      await eventually('the v2 instance polled every record', async () => {
        for (const record of await consumer.poll(200)) {
          const mine = received.get(record.partition) ?? [];
          mine.push({ offset: record.offset, value: Buffer.from(record.value as string, 'base64').toString() });
          received.set(record.partition, mine);
        }
        return ALL.every((p) => (received.get(p)?.length ?? 0) >= log.records(p).length) ? true : undefined;
      });
      expectEveryRecordOnce(received, 'v2 consumer instance');
      // one more poll: the instance's position passes a trailing marker even when it returns nothing
      expect(await consumer.poll(200)).toEqual([]);
      const committed = await consumer.commitReturned();
      expect(committed.status, committed.text).toBe(200);
      await expectCommittedToEnd(group);
    } finally {
      await consumer.delete();
    }
  });

  it('an SSE group stream gets every record once and the broker commits to the log end', async () => {
    const group = 'marked-sse';
    const controller = new AbortController();
    const response = await fetch(
      `${suite.url}/v3/clusters/${suite.clusterId}/topics/${TOPIC}/records:stream` +
        `?group=${group}&from=earliest&format=string`,
      { signal: controller.signal },
    );
    expect(response.status).toBe(200);
    const received = new Map<number, RecordAt[]>();
    const reading = (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const lines = buffer.slice(0, end).split('\n');
          buffer = buffer.slice(end + 2);
          if (!lines.some((line) => line.startsWith('id:'))) continue;
          const data = JSON.parse(lines.find((line) => line.startsWith('data:'))!.slice(5)) as RecordAt & {
            partition: number;
          };
          received.set(data.partition, [
            ...(received.get(data.partition) ?? []),
            { offset: data.offset, value: data.value },
          ]);
        }
      }
    })().catch(() => undefined);
    try {
      await eventually('the SSE stream sent every record', async () =>
        ALL.every((p) => (received.get(p)?.length ?? 0) >= log.records(p).length) ? true : undefined,
      );
      expectEveryRecordOnce(received, 'SSE');
      await expectCommittedToEnd(group);
    } finally {
      controller.abort();
      await reading;
    }
  });

  it('a WebSocket subscription gets every record once, then a record appended after each trailing marker', async () => {
    const ws = await WsClient.connect(suite.url);
    try {
      const subscribed = await ws.request({
        op: 'subscribe',
        id: 'all',
        assign: ALL.map((partition) => ({ topic: TOPIC, partition })),
        from: 'earliest',
        format: 'string',
        credits: 1_000,
      });
      expect(subscribed.op, JSON.stringify(subscribed)).toBe('subscribed');
      const total = ALL.reduce((sum, p) => sum + log.records(p).length, 0);
      const byPartition = (frames: Frame[]) => {
        const received = new Map<number, RecordAt[]>();
        for (const { partition, offset, value } of frames) {
          received.set(partition as number, [...(received.get(partition as number) ?? []), { offset, value }]);
        }
        return received;
      };
      expectEveryRecordOnce(byPartition(await ws.waitForRecords('all', total)), 'WebSocket');
      // the partitions that end with a marker get one more record each, over REST: the subscription delivers it
      for (const p of [0, 1, 2]) await log.v3Single(p, `after-${p}`);
      expectEveryRecordOnce(byPartition(await ws.waitForRecords('all', total + 3)), 'WebSocket after the tail');
    } finally {
      ws.close();
    }
  });
});
