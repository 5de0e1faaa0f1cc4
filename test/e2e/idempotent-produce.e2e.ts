// Idempotent produce with producer ids (Brook-Producer-* headers): every request is sent twice, and retried again
// after a kill -9 of the broker (one broker) or of the partition leader (three brokers, requests through a broker
// that does not lead): each retry is answered with the original offsets, and every record is in the log once.
// The producer-state refusals (out-of-order sequence, fenced epoch) and producer ids that never repeat across a
// restart are checked on the way. A Kafka client's idempotent batch (a producer id in its header, sent on the
// Kafka listener) meets the same producer state as the REST requests of that producer id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRequest } from '../../src/kafka/protocol/codec.js';
import { KafkaErrorCode } from '../../src/kafka/protocol/error-codes.js';
import { KEY_PRODUCER_ID_BASE } from '../../src/partition-log/producer-state.js';
import { encodeBatch } from '../../src/partition-log/record-batch.js';
import { BrokerProcess } from './support/broker-process.js';
import { TestCluster } from './support/cluster.js';
import { call, type ApiResponse } from './support/http.js';
import { KafkaWire } from './support/kafka-wire.js';
import { REPLICATION_ENV, ReplicatedTopic } from './support/replication.js';

const T = '/v3/clusters/{cluster_id}/topics/{topic_name}';
const PRODUCERS = '/v3/clusters/{cluster_id}/producers';

interface Producer {
  id: number;
  epoch: number;
}

function producerHeaders(producer: Producer, sequence: number): Record<string, string> {
  return {
    'brook-producer-id': String(producer.id),
    'brook-producer-epoch': String(producer.epoch),
    'brook-producer-sequence': String(sequence),
  };
}

async function newProducer(broker: BrokerProcess): Promise<Producer> {
  const cid = await broker.clusterId();
  const answer = await call(broker.url, 'POST', `/v3/clusters/${cid}/producers`, { body: {}, spec: PRODUCERS });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.producer_epoch).toBe(0);
  return { id: answer.body.producer_id as number, epoch: 0 };
}

/** One record to partition 0 with the producer's sequence; the answer's status and body. */
async function produceOne(broker: BrokerProcess, topic: string, producer: Producer, sequence: number, value: string) {
  const cid = await broker.clusterId();
  return call(broker.url, 'POST', `/v3/clusters/${cid}/topics/${topic}/records`, {
    body: { partition_id: 0, value: { type: 'STRING', data: value } },
    headers: producerHeaders(producer, sequence),
    spec: `${T}/records`,
  });
}

/** Every value of partitions 0..partitions-1, read to the high watermark. */
async function values(broker: BrokerProcess, topic: string, partitions: number): Promise<string[]> {
  const cid = await broker.clusterId();
  const out: string[] = [];
  for (let p = 0; p < partitions; p++) {
    let offset = 0;
    for (;;) {
      const answer = await call(
        broker.url,
        'GET',
        `/v3/clusters/${cid}/topics/${topic}/partitions/${p}/records?offset=${offset}&format=string`,
      );
      expect(answer.status, answer.text).toBe(200);
      for (const record of answer.body.records as Array<{ value: string }>) out.push(record.value);
      offset = answer.body.next_offset as number;
      if (offset >= (answer.body.high_watermark as number) || answer.body.records.length === 0) break;
    }
  }
  return out.sort();
}

describe('idempotent produce on one broker', () => {
  let broker: BrokerProcess;

  beforeAll(async () => {
    broker = await BrokerProcess.start();
  });
  afterAll(async () => {
    await broker?.stop();
  });

  it('retries, before and after kill -9, are answered with the original offsets and append nothing', async () => {
    const cid = await broker.clusterId();
    for (const name of ['idem', 'idem-v2']) {
      const created = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics`, {
        body: { topic_name: name, partitions_count: 3 },
      });
      expect(created.status, created.text).toBe(201);
    }
    const producer = await newProducer(broker);
    const offsets: number[] = [];
    for (let sequence = 0; sequence < 20; sequence++) {
      const first = await produceOne(broker, 'idem', producer, sequence, `v${sequence}`);
      expect(first.status, first.text).toBe(200);
      const retry = await produceOne(broker, 'idem', producer, sequence, `v${sequence}`);
      expect(retry.status, retry.text).toBe(200);
      expect(retry.body.offset).toBe(first.body.offset);
      offsets.push(first.body.offset as number);
    }
    expect(offsets).toEqual(Array.from({ length: 20 }, (_, i) => i));

    // v2, keyed records spread over the three partitions, two records per request, each request sent twice
    const v2 = await newProducer(broker);
    const v2Request = (sequence: number) =>
      call(broker.url, 'POST', '/topics/idem-v2', {
        body: {
          records: [
            {
              key: Buffer.from(`k${sequence}`).toString('base64'),
              value: Buffer.from(`w${sequence}`).toString('base64'),
            },
            {
              key: Buffer.from(`j${sequence}`).toString('base64'),
              value: Buffer.from(`x${sequence}`).toString('base64'),
            },
          ],
        },
        contentType: 'application/vnd.kafka.binary.v2+json',
        headers: producerHeaders(v2, sequence),
      });
    const v2Answers = [];
    for (let sequence = 0; sequence < 20; sequence += 2) {
      const first = await v2Request(sequence);
      expect(first.status, first.text).toBe(200);
      const retry = await v2Request(sequence);
      expect(retry.body.offsets).toEqual(first.body.offsets);
      v2Answers.push(first.body.offsets);
    }

    await broker.restart('SIGKILL');

    // the last five requests of each producer retried after the crash: the producer state came back from the log
    for (let sequence = 15; sequence < 20; sequence++) {
      const retry = await produceOne(broker, 'idem', producer, sequence, `v${sequence}`);
      expect(retry.status, retry.text).toBe(200);
      expect(retry.body.offset).toBe(offsets[sequence]);
    }
    for (let sequence = 12; sequence < 20; sequence += 2) {
      const retry = await v2Request(sequence);
      expect(retry.body.offsets).toEqual(v2Answers[sequence / 2]);
    }
    // the producer goes on at the next sequence; a gap and a step back are refused and append nothing
    expect((await produceOne(broker, 'idem', producer, 20, 'v20')).body.offset).toBe(20);
    const gap = await produceOne(broker, 'idem', producer, 22, 'gap');
    expect(gap.status, gap.text).toBe(409);
    expect(gap.body.error_code).toBe(40908);
    // a new epoch starts at 0 and fences the old one
    const bumped = { ...producer, epoch: 1 };
    expect((await produceOne(broker, 'idem', bumped, 0, 'e1')).status).toBe(200);
    const fenced = await produceOne(broker, 'idem', producer, 21, 'fenced');
    expect(fenced.status, fenced.text).toBe(409);
    expect(fenced.body.error_code).toBe(40909);
    // a record without partition or key cannot be sequenced
    const unrouted = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics/idem/records`, {
      body: { value: { type: 'STRING', data: 'nowhere' } },
      headers: producerHeaders(await newProducer(broker), 0),
      spec: `${T}/records`,
    });
    expect(unrouted.status, unrouted.text).toBe(422);

    expect(await values(broker, 'idem', 3)).toEqual([...Array.from({ length: 21 }, (_, i) => `v${i}`), 'e1'].sort());
    const v2Values = Array.from({ length: 10 }, (_, i) => [`w${i * 2}`, `x${i * 2}`]).flat();
    expect(await values(broker, 'idem-v2', 3)).toEqual(v2Values.sort());
    // the keyed records did spread: the per-partition gaps were accepted
    expect(new Set(v2Answers.flat().map((entry: { partition: number }) => entry.partition)).size).toBeGreaterThan(1);

    // producer ids handed out after the restart are new
    const after = await newProducer(broker);
    expect([producer.id, v2.id]).not.toContain(after.id);
    expect(after.id).toBeGreaterThan(Math.max(producer.id, v2.id));
  });

  it("checks a Kafka client's idempotent batches against the same producer state as REST requests", async () => {
    const cid = await broker.clusterId();
    const created = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics`, {
      body: { topic_name: 'idem-kafka', partitions_count: 1 },
    });
    expect(created.status, created.text).toBe(201);
    const bodiless = await call(broker.url, 'POST', `/v3/clusters/${cid}/producers`, { spec: PRODUCERS });
    expect([bodiless.status, bodiless.body.error_code]).toEqual([422, 42206]);
    const unknownField = await call(broker.url, 'POST', `/v3/clusters/${cid}/producers`, {
      body: { transactional_id: 't' },
      spec: PRODUCERS,
    });
    expect([unknownField.status, unknownField.body.error_code]).toEqual([400, 40002]);
    const producer = await newProducer(broker);
    const wire = await KafkaWire.open(broker.kafkaPort);
    /** Produce v9 of one batch of `values` with the producer's fields: the partition's error code and base offset. */
    const send = async (producerId: number, epoch: number, sequence: number, values: string[]) => {
      const batch = encodeBatch(
        values.map((value) => ({ key: null, value: Buffer.from(value), timestamp: Date.now() })),
        { producerId, producerEpoch: epoch, baseSequence: sequence },
      );
      wire.writeRaw(
        Buffer.concat(
          encodeRequest('Produce', 9, sequence + 1, 'e2e', {
            transactionalId: null,
            acks: -1,
            timeoutMs: 10_000,
            topicData: [{ name: 'idem-kafka', partitionData: [{ index: 0, records: batch }] }],
          }),
        ),
      );
      const [answer] = (await wire.answer('Produce', 9)).body.responses[0].partitionResponses;
      return { errorCode: answer.errorCode, baseOffset: answer.baseOffset };
    };
    try {
      const ok = KafkaErrorCode.NONE;
      expect(await send(producer.id, 0, 0, ['k0', 'k1'])).toEqual({ errorCode: ok, baseOffset: 0 });
      // the client's retry of its batch: the original offsets, nothing appended
      expect(await send(producer.id, 0, 0, ['k0', 'k1'])).toEqual({ errorCode: ok, baseOffset: 0 });
      expect((await send(producer.id, 0, 5, ['gap'])).errorCode).toBe(KafkaErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
      // the same producer id over REST continues the sequence the Kafka batches left
      const rest = await produceOne(broker, 'idem-kafka', producer, 2, 'k2');
      expect(rest.status, rest.text).toBe(200);
      expect(rest.body.offset).toBe(2);
      expect(await send(producer.id, 0, 2, ['k2'])).toEqual({ errorCode: ok, baseOffset: 2 });
      expect(await send(producer.id, 1, 0, ['e1'])).toEqual({ errorCode: ok, baseOffset: 3 });
      expect((await send(producer.id, 0, 3, ['fenced'])).errorCode).toBe(KafkaErrorCode.INVALID_PRODUCER_EPOCH);
      // an idempotency key's producer id range is Brook's own, never a client's
      expect((await send(KEY_PRODUCER_ID_BASE, 0, 0, ['key'])).errorCode).toBe(KafkaErrorCode.UNKNOWN_PRODUCER_ID);
    } finally {
      wire.close();
    }
    expect(await values(broker, 'idem-kafka', 1)).toEqual(['e1', 'k0', 'k1', 'k2']);
  });
});

describe('idempotent produce across a leader change', () => {
  let cluster: TestCluster;

  beforeAll(async () => {
    cluster = await TestCluster.start(3, REPLICATION_ENV);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('retries through a broker that does not lead, after kill -9 of the leader, dedupe on the new leader', async () => {
    const topic = await ReplicatedTopic.create(cluster, cluster.broker(1), 'idem-replicated');
    const { leader } = (await topic.view(cluster.broker(1)))!;
    const through = cluster.brokers.find((_, index) => index + 1 !== leader)!;
    const producer = await newProducer(through);
    const offsets: number[] = [];
    for (let sequence = 0; sequence < 10; sequence++) {
      const first = await produceOne(through, topic.name, producer, sequence, `r${sequence}`);
      expect(first.status, first.text).toBe(200);
      const retry = await produceOne(through, topic.name, producer, sequence, `r${sequence}`);
      expect(retry.body.offset).toBe(first.body.offset);
      offsets.push(first.body.offset as number);
    }
    await cluster.broker(leader).kill('SIGKILL');
    await topic.waitForLeader(leader, 30_000, [through]);
    // acks=all answered: every replica in the ISR has the batches, and with them the producer state
    for (let sequence = 5; sequence < 10; sequence++) {
      const retried = await retryWhileLeaderMoves(() =>
        produceOne(through, topic.name, producer, sequence, `r${sequence}`),
      );
      expect(retried.status, retried.text).toBe(200);
      expect(retried.body.offset).toBe(offsets[sequence]);
    }
    const next = await retryWhileLeaderMoves(() => produceOne(through, topic.name, producer, 10, 'r10'));
    expect(next.status, next.text).toBe(200);
    expect(next.body.offset).toBe(10);
    expect(await values(through, topic.name, 1)).toEqual(Array.from({ length: 11 }, (_, i) => `r${i}`).sort());
  });
});

/** Retries while the answer says no leader is known yet (40404) or not enough replicas (50003): nothing appended. */
async function retryWhileLeaderMoves(send: () => Promise<ApiResponse>, timeoutMs = 30_000): Promise<ApiResponse> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const answer = await send();
    const retriable = answer.body?.error_code === 40404 || answer.body?.error_code === 50003;
    if (!retriable || performance.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
