// kafkajs 2.2.4 end to end against a broker's Kafka listener (`npm run bench -- kjs`, BROOK_BENCH_KAFKAJS_RECORDS,
// default 300,000): a producer sends batches of 1,000 records of 100 bytes, acks=1, KJS_IN_FLIGHT sends at a
// time; then a consumer group member reads them all from the beginning. Printed: records/s produced, and
// records/s consumed from the first batch delivered to the last (the group join before it is printed apart).
// No baseline: this is what a stock JavaScript client gets, beside K1 and K6's raw frames.
import { Kafka, logLevel } from 'kafkajs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callJson, rssBytes, startBroker, stop, type Server } from './bench-processes.js';
import { formatMeasurement, type Measurement } from './measure.js';

const RECORD_BYTES = 100;
const RECORDS_PER_SEND = 1000;
const KJS_IN_FLIGHT = 4;
const TOPIC = 'kafkajs-bench';

export async function runKafkajs(records: number): Promise<Measurement[]> {
  const dir = await mkdtemp(join(tmpdir(), 'brook-bench-kjs-'));
  let broker: Server | undefined;
  try {
    broker = await startBroker(join(dir, 'broker'));
    const clusters = (await callJson(broker, 'GET', '/v3/clusters')).data as Array<{ cluster_id: string }>;
    await callJson(broker, 'POST', `/v3/clusters/${clusters[0].cluster_id}/topics`, {
      topic_name: TOPIC,
      partitions_count: 1,
    });
    const kafka = new Kafka({
      clientId: 'brook-bench',
      brokers: [`127.0.0.1:${broker.kafkaPort}`],
      logLevel: logLevel.NOTHING,
    });

    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    const value = Buffer.alloc(RECORD_BYTES, 'x');
    const messages = Array.from({ length: RECORDS_PER_SEND }, () => ({ value }));
    const sends = Math.ceil(records / RECORDS_PER_SEND);
    let sent = 0;
    const produceStarted = performance.now();
    await Promise.all(
      Array.from({ length: KJS_IN_FLIGHT }, async () => {
        while (sent < sends) {
          sent++;
          await producer.send({ topic: TOPIC, acks: 1, messages });
        }
      }),
    );
    const produceSeconds = (performance.now() - produceStarted) / 1000;
    await producer.disconnect();
    const total = sends * RECORDS_PER_SEND;

    const consumer = kafka.consumer({ groupId: 'brook-bench', maxBytesPerPartition: 1024 * 1024 });
    await consumer.connect();
    await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
    let consumed = 0;
    let firstAt = 0;
    const consumeStarted = performance.now();
    const done = new Promise<number>((resolve) => {
      void consumer.run({
        eachBatchAutoResolve: true,
        eachBatch: async ({ batch }) => {
          if (firstAt === 0) firstAt = performance.now();
          consumed += batch.messages.length;
          if (consumed >= total) resolve(performance.now());
        },
      });
    });
    const lastAt = await done;
    await consumer.disconnect();

    const produced: Measurement = {
      name: `kafkajs: produce, ${KJS_IN_FLIGHT} sends of 1000 in flight`,
      records: total,
      bytes: total * RECORD_BYTES,
      seconds: produceSeconds,
    };
    const read: Measurement = {
      name: 'kafkajs: consume (eachBatch), 1 member',
      records: consumed,
      bytes: consumed * RECORD_BYTES,
      seconds: (lastAt - firstAt) / 1000,
      rssBytes: rssBytes(broker.child.pid),
    };
    console.log(
      `${total.toLocaleString('en-US')} records of ${RECORD_BYTES} B, acks=1, one partition; MB/s of record payload; ` +
        `the consumer's group join and first fetch took ${((firstAt - consumeStarted) / 1000).toFixed(1)} s (not in its row)`,
    );
    console.log(formatMeasurement(produced));
    console.log(formatMeasurement(read));
    return [produced, read];
  } finally {
    if (broker !== undefined) await stop(broker);
    await rm(dir, { recursive: true, force: true });
  }
}
