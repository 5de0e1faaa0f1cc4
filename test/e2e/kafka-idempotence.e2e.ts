// Idempotent Kafka producers against a real broker: InitProducerId hands out ids from the allocator REST's
// POST /v3/clusters/{c}/producers uses (so the two never hand out the same id), kcat with enable.idempotence=true
// (librdkafka: InitProducerId v4, up to five pipelined Produce requests) and kafkajs' idempotent producer write
// keyed records that are each stored exactly once, in batches stamped with the producer's id and epoch whose
// sequences follow each other per partition; a transactional id is refused (Brook has no transactions).
import { Kafka, logLevel } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { CompressionType } from '../../src/partition-log/compression.js';
import { batchesIn, compressionOf, decodeRecords } from '../../src/partition-log/record-batch.js';
import { kcat, kcatAvailable } from '../support/kafka/kcat.js';
import { brokerForSuite } from './support/broker-process.js';
import { call } from './support/http.js';
import { KafkaWire } from './support/kafka-wire.js';

const CODECS: Record<string, CompressionType> = {
  none: CompressionType.None,
  gzip: CompressionType.Gzip,
  snappy: CompressionType.Snappy,
  lz4: CompressionType.Lz4,
  zstd: CompressionType.Zstd,
};
const PARTITIONS = 3;
const valueOf = (i: number) => `value-${i}-`.padEnd(200, 'xyz');

interface StoredBatch {
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
  recordCount: number;
  compression: CompressionType;
  records: string[];
}

describe('idempotent Kafka producers', () => {
  const suite = brokerForSuite();
  const v3 = (path: string) => `/v3/clusters/${suite.clusterId}${path}`;

  async function createTopic(name: string, partitions: number): Promise<void> {
    const response = await call(suite.url, 'POST', v3('/topics'), {
      body: { topic_name: name, partitions_count: partitions },
    });
    expect(response.status, response.text).toBe(201);
  }

  async function restProducerId(): Promise<number> {
    const response = await call(suite.url, 'POST', v3('/producers'), { body: {} });
    expect(response.status, response.text).toBe(200);
    return response.body.producer_id as number;
  }

  /** Every batch of one partition, fetched over the wire as stored. */
  async function storedBatches(topic: string, partition: number): Promise<StoredBatch[]> {
    const wire = await KafkaWire.open(suite.broker.kafkaPort);
    try {
      const body = await wire.call('Fetch', 11, {
        maxWaitMs: 0,
        minBytes: 0,
        topics: [{ topic, partitions: [{ partition, fetchOffset: 0, partitionMaxBytes: 8 << 20 }] }],
        forgottenTopicsData: [],
      });
      const records = body.responses[0].partitions[0].records as Buffer;
      return [...batchesIn(records)].map(({ header, position }) => {
        const batch = records.subarray(position, position + header.sizeBytes);
        return {
          producerId: header.producerId,
          producerEpoch: header.producerEpoch,
          baseSequence: header.baseSequence,
          recordCount: header.recordCount,
          compression: compressionOf(header),
          records: decodeRecords(batch).map((record) => `${String(record.key)}:${String(record.value)}`),
        };
      });
    } finally {
      wire.close();
    }
  }

  /** The records of every partition, after checking each partition's batches are one producer's, in sequence. */
  async function checkedRecords(topic: string, producerIds: Set<number>): Promise<StoredBatch[]> {
    const all: StoredBatch[] = [];
    for (let partition = 0; partition < PARTITIONS; partition++) {
      const batches = await storedBatches(topic, partition);
      let next = 0;
      for (const batch of batches) {
        expect(producerIds.has(batch.producerId), `producer id ${batch.producerId}`).toBe(true);
        expect(batch.producerEpoch).toBe(0);
        expect(batch.baseSequence).toBe(next);
        next += batch.recordCount;
      }
      all.push(...batches);
    }
    return all;
  }

  it('answers InitProducerId from the allocator REST uses: every id new, epoch 0, on every version', async () => {
    const wire = await KafkaWire.open(suite.broker.kafkaPort);
    try {
      const ids = [await restProducerId()];
      for (const version of [0, 1, 2, 3, 4]) {
        const answer = await wire.call('InitProducerId', version, {
          transactionalId: null,
          transactionTimeoutMs: 60_000,
          producerId: -1,
          producerEpoch: -1,
        });
        expect(answer).toMatchObject({ errorCode: 0, producerEpoch: 0 });
        ids.push(Number(answer.producerId));
      }
      // a v3+ producer naming its current id gets a new one (Kafka without a transactional id does the same)
      const again = await wire.call('InitProducerId', 4, {
        transactionalId: null,
        transactionTimeoutMs: 60_000,
        producerId: ids.at(-1)!,
        producerEpoch: 0,
      });
      ids.push(Number(again.producerId));
      ids.push(await restProducerId());
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    } finally {
      wire.close();
    }
  });

  it('refuses a transactional id with TRANSACTIONAL_ID_AUTHORIZATION_FAILED', async () => {
    const wire = await KafkaWire.open(suite.broker.kafkaPort);
    try {
      const answer = await wire.call('InitProducerId', 4, {
        transactionalId: 'tx-1',
        transactionTimeoutMs: 60_000,
        producerId: -1,
        producerEpoch: -1,
      });
      expect(answer).toMatchObject({ errorCode: 53, producerId: -1, producerEpoch: -1 });
    } finally {
      wire.close();
    }
  });

  describe.runIf(kcatAvailable).each(Object.keys(CODECS))('kcat -X enable.idempotence=true -z %s', (codec) => {
    it('stores each keyed record exactly once, in the producer id and sequences librdkafka sent', async () => {
      const topic = `idem-kcat-${codec}`;
      await createTopic(topic, PARTITIONS);
      const before = await restProducerId();
      const lines = Array.from({ length: 400 }, (_, i) => `k${i % 37}:${valueOf(i)}`);
      const produced = await kcat(
        [
          ...['-b', suite.broker.kafkaBootstrap, '-P', '-t', topic, '-K', ':', '-z', codec],
          ...['-X', 'enable.idempotence=true', '-X', 'acks=all', '-X', 'linger.ms=5', '-X', 'batch.num.messages=25'],
          ...['-X', 'topic.partitioner=murmur2_random'],
        ],
        `${lines.join('\n')}\n`,
      );
      expect(produced.code, produced.stderr).toBe(0);
      const after = await restProducerId();
      const idsBetween = new Set(Array.from({ length: after - before - 1 }, (_, i) => before + 1 + i));
      const batches = await checkedRecords(topic, idsBetween);
      expect(batches.length).toBeGreaterThan(PARTITIONS);
      expect(new Set(batches.map((batch) => batch.producerId)).size).toBe(1);
      if (codec !== 'none') expect(batches.every((batch) => batch.compression === CODECS[codec])).toBe(true);
      expect(batches.flatMap((batch) => batch.records).sort()).toEqual([...lines].sort());
    });
  });

  it('lets a kafkajs idempotent producer send keyed records exactly once, in sequence', async () => {
    const topic = 'idem-kafkajs';
    await createTopic(topic, PARTITIONS);
    const kafka = new Kafka({
      clientId: 'e2e-idempotence',
      brokers: [suite.broker.kafkaBootstrap],
      logLevel: logLevel.NOTHING,
    });
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    const before = await restProducerId();
    await producer.connect();
    const expected: string[] = [];
    try {
      for (let round = 0; round < 10; round++) {
        const messages = Array.from({ length: 20 }, (_, i) => ({
          key: `k${(round * 20 + i) % 11}`,
          value: `r${round}-${i}`,
        }));
        await producer.send({ topic, acks: -1, messages });
        expected.push(...messages.map((message) => `${message.key}:${message.value}`));
      }
    } finally {
      await producer.disconnect();
    }
    const after = await restProducerId();
    const idsBetween = new Set(Array.from({ length: after - before - 1 }, (_, i) => before + 1 + i));
    const batches = await checkedRecords(topic, idsBetween);
    expect(batches.length).toBeGreaterThanOrEqual(10);
    expect(batches.flatMap((batch) => batch.records).sort()).toEqual(expected.sort());
  });
});
