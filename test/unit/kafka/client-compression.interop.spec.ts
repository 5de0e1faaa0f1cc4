// Compressed record batches written by clients nobody here wrote decompress, with Brook's codecs, to the records
// they hold; and batches Brook compresses are read back by those clients. Sources: librdkafka 2.0 (kcat -z, its
// own gzip, snappy, lz4 and zstd), @platformatic/kafka 1.35.0 (gzip from zlib, snappy and lz4 from its
// WebAssembly build; its zstd needs Node 22) and kafkajs 2.2.4 (gzip; snappy through the kafkajs-snappy plugin,
// which uses snappyjs). kafkajs's lz4 and zstd plugins need native builds that cannot be installed here, and no
// Java client can run here: the xerial framing of Java's snappy is tested in src/partition-log/compression.spec.ts.
import {
  type CompressionAlgorithmValue,
  Consumer,
  type Message,
  Producer,
  stringDeserializers,
  stringSerializers,
} from '@platformatic/kafka';
import { CompressionCodecs, CompressionTypes, Kafka, logLevel } from 'kafkajs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompressionType } from '../../../src/partition-log/compression.js';
import { compressionOf, decodeRecords, encodeBatch, readBatchHeader } from '../../../src/partition-log/record-batch.js';
import { CaptureBroker } from '../../support/kafka/capture-broker.js';
import { kcat, kcatAvailable } from '../../support/kafka/kcat.js';

// kafkajs-snappy is CommonJS without types: a factory of kafkajs's codec shape
const SnappyCodec = createRequire(import.meta.url)(
  'kafkajs-snappy',
) as (typeof CompressionCodecs)[CompressionTypes.Snappy];

const T0 = 1_700_000_000_000;
const VALUE_BYTES = 300;
/** Compressible values, so that every client really compresses (librdkafka keeps a batch plain otherwise). */
const valueOf = (i: number) => `value-${i}-`.padEnd(VALUE_BYTES, 'abcabc');
const CODEC_IDS: Record<string, CompressionType> = {
  gzip: CompressionType.Gzip,
  snappy: CompressionType.Snappy,
  lz4: CompressionType.Lz4,
  zstd: CompressionType.Zstd,
};

/** The records of every batch the captured Produce requests carried for `topic`, checking each batch's codec. */
function producedRecords(broker: CaptureBroker, topic: string, codec: string): string[] {
  return broker.of('Produce').flatMap((request) => {
    if (request.apiName !== 'Produce') return [];
    return request.body.topicData
      .filter((data) => data.name === topic)
      .flatMap((data) =>
        data.partitionData.flatMap((partition) => {
          const batch = partition.records as Buffer;
          expect(compressionOf(readBatchHeader(batch))).toBe(CODEC_IDS[codec]);
          return decodeRecords(batch).map((record) => `${String(record.key)}=${String(record.value)}`);
        }),
      );
  });
}

const expected = (count: number) => Array.from({ length: count }, (_, i) => `k${i}=${valueOf(i)}`);

describe('compressed batches from and to Kafka clients', () => {
  const broker = new CaptureBroker();
  const codecs = Object.keys(CODEC_IDS);

  beforeAll(async () => {
    const clients = ['kcat', 'platformatic', 'kafkajs'];
    const topics = Object.fromEntries(clients.flatMap((client) => codecs.map((codec) => [`${client}-${codec}`, 1])));
    await broker.start({ ...topics, ...Object.fromEntries(codecs.map((codec) => [`brook-${codec}`, 1])) });
    // for each codec a topic holding three records Brook compressed
    for (const codec of codecs) {
      const records = [0, 1, 2].map((i) => ({
        key: Buffer.from(`k${i}`),
        value: Buffer.from(valueOf(i)),
        timestamp: T0 + i,
      }));
      broker.state?.append(`brook-${codec}`, 0, encodeBatch(records, { compression: CODEC_IDS[codec] }));
    }
  });
  afterAll(() => broker.stop());

  describe.runIf(kcatAvailable).each(codecs)('librdkafka (kcat -z %s)', (codec) => {
    it('writes batches that decompress to its records', async () => {
      const topic = `kcat-${codec}`;
      const input = expected(20)
        .map((line) => line.replace('=', ':'))
        .join('\n');
      const result = await kcat(
        ['-b', broker.bootstrap, '-P', '-t', topic, '-p', '0', '-K', ':', '-z', codec],
        `${input}\n`,
      );
      expect(result.code).toBe(0);
      expect(producedRecords(broker, topic, codec)).toEqual(expected(20));
    });

    it('reads the batches Brook compressed', async () => {
      const args = ['-b', broker.bootstrap, '-C', '-t', `brook-${codec}`, '-p', '0', '-o', 'beginning', '-e'];
      const result = await kcat([...args, '-f', '%k=%s\\n']);
      expect(result.code).toBe(0);
      expect(result.stderr).not.toMatch(/error|fail/i);
      expect(result.stdout.trim().split('\n')).toEqual(expected(3));
    });
  });

  describe.each(['gzip', 'snappy', 'lz4'])('@platformatic/kafka (%s)', (codec) => {
    const options = () => ({ clientId: 'platformatic-compression', bootstrapBrokers: [broker.bootstrap], retries: 1 });

    it('writes batches that decompress to its records', async () => {
      const topic = `platformatic-${codec}`;
      const producer = new Producer({
        ...options(),
        serializers: stringSerializers,
        compression: codec as CompressionAlgorithmValue,
      });
      await producer.send({
        messages: expected(20).map((line) => ({
          topic,
          partition: 0,
          key: line.split('=')[0],
          value: line.split('=')[1],
        })),
      });
      await producer.close();
      expect(producedRecords(broker, topic, codec)).toEqual(expected(20));
    });

    it('reads the batches Brook compressed', async () => {
      const consumer = new Consumer({
        ...options(),
        groupId: `platformatic-${codec}`,
        deserializers: stringDeserializers,
      });
      const stream = await consumer.consume({
        topics: [`brook-${codec}`],
        mode: 'earliest',
        autocommit: false,
        maxWaitTime: 200,
      });
      const received: string[] = [];
      stream.on('data', (message: Message<string, string, string, string>) => {
        received.push(`${message.key}=${message.value}`);
      });
      await broker.waitFor(() => received.length >= 3, `three ${codec} records`);
      await stream.close();
      await consumer.close();
      expect(received).toEqual(expected(3));
    });
  });

  describe.each([
    ['gzip', CompressionTypes.GZIP],
    ['snappy', CompressionTypes.Snappy],
  ] as const)('kafkajs (%s)', (codec, type) => {
    beforeAll(() => {
      CompressionCodecs[CompressionTypes.Snappy] = SnappyCodec;
    });

    it('writes batches that decompress to its records, and reads the batches Brook compressed', async () => {
      const kafka = new Kafka({
        clientId: 'kafkajs-compression',
        brokers: [broker.bootstrap],
        logLevel: logLevel.NOTHING,
      });
      const topic = `kafkajs-${codec}`;
      const producer = kafka.producer();
      await producer.connect();
      const messages = expected(20).map((line) => ({
        key: line.split('=')[0],
        value: line.split('=')[1],
        partition: 0,
      }));
      await producer.send({ topic, compression: type, messages });
      await producer.disconnect();
      expect(producedRecords(broker, topic, codec)).toEqual(expected(20));

      const consumer = kafka.consumer({ groupId: `kafkajs-${codec}` });
      const received: string[] = [];
      await consumer.connect();
      await consumer.subscribe({ topic: `brook-${codec}`, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          received.push(`${String(message.key)}=${String(message.value)}`);
        },
      });
      await broker.waitFor(() => received.length >= 3, `three ${codec} records`);
      await consumer.disconnect();
      expect(received).toEqual(expected(3));
    });
  });

  it('decoded every request', () => {
    expect(broker.decodeErrors).toEqual([]);
    expect(broker.answerErrors.map((error) => error.message)).toEqual([]);
  });
});
