// Bad input on a real broker's Kafka listener: truncated frames, wrong sizes, unknown API keys and versions, an
// advertised Produce version Brook refuses, garbage, a frame over BROOK_SOCKET_REQUEST_MAX_BYTES, a batch with a
// wrong CRC and a connection that stays silent past BROOK_CONNECTIONS_MAX_IDLE_MS. Each gets an error answer or a
// closed connection; after all of them the broker still answers on both protocols and what it stored is intact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRequest } from '../../src/kafka/protocol/codec.js';
import { KafkaErrorCode } from '../../src/kafka/protocol/error-codes.js';
import { encodeBatch } from '../../src/partition-log/record-batch.js';
import { brokerForSuite } from './support/broker-process.js';
import { call } from './support/http.js';
import { KafkaWire } from './support/kafka-wire.js';

const REQUEST_BYTES_MAX = 65_536;
const IDLE_MS = 1_000;
const TOPIC = 'bad-input';
const METADATA_BODY = {
  topics: [{ topicId: '00000000-0000-0000-0000-000000000000', name: TOPIC }],
  allowAutoTopicCreation: false,
  includeClusterAuthorizedOperations: false,
  includeTopicAuthorizedOperations: false,
};

describe('bad input on the Kafka listener', () => {
  // the default idle bound (10 minutes), far past how long a test waits for a close: every close seen here is the
  // broker's answer to the input, not the idle bound's
  const suite = brokerForSuite({ env: { BROOK_SOCKET_REQUEST_MAX_BYTES: String(REQUEST_BYTES_MAX) } });
  const wires: KafkaWire[] = [];
  const open = async () => {
    const wire = await KafkaWire.open(suite.broker.kafkaPort);
    wires.push(wire);
    return wire;
  };
  const records = async () => {
    const response = await call(
      suite.url,
      'GET',
      `/v3/clusters/${suite.clusterId}/topics/${TOPIC}/partitions/0/records?offset=0&format=string`,
    );
    expect(response.status, response.text).toBe(200);
    return response.body.records.map((record: { offset: number; value: string }) => [record.offset, record.value]);
  };
  const metadataFrame = () => Buffer.concat(encodeRequest('Metadata', 12, 1, 'e2e', METADATA_BODY));
  const withSize = (frame: Buffer, size: number) => {
    const copy = Buffer.from(frame);
    copy.writeInt32BE(size, 0);
    return copy;
  };
  const produceBatch = (batch: Buffer) =>
    Buffer.concat(
      encodeRequest('Produce', 9, 9, 'e2e', {
        transactionalId: null,
        acks: -1,
        timeoutMs: 10_000,
        topicData: [{ name: TOPIC, partitionData: [{ index: 0, records: batch }] }],
      }),
    );

  beforeAll(async () => {
    const created = await call(suite.url, 'POST', `/v3/clusters/${suite.clusterId}/topics`, {
      body: { topic_name: TOPIC, partitions_count: 1 },
    });
    expect(created.status, created.text).toBe(201);
    for (const value of ['first', 'second']) {
      const produced = await call(suite.url, 'POST', `/v3/clusters/${suite.clusterId}/topics/${TOPIC}/records`, {
        body: { value: { type: 'STRING', data: value } },
      });
      expect(produced.status, produced.text).toBe(200);
    }
  });
  afterAll(() => {
    for (const wire of wires.splice(0)) wire.close();
  });

  it.each([
    ['a negative frame size', () => withSize(metadataFrame(), -1)],
    ['a frame smaller than a request header', () => Buffer.from([0, 0, 0, 2, 0, 3])],
    ['a frame cut short inside its body', () => withSize(metadataFrame().subarray(0, -6), metadataFrame().length - 10)],
    [
      'a frame longer than its body',
      () => withSize(Buffer.concat([metadataFrame(), Buffer.alloc(5)]), metadataFrame().length + 1),
    ],
    [
      'an unknown API key',
      () => {
        const frame = metadataFrame();
        frame.writeInt16BE(999, 4);
        return frame;
      },
    ],
    [
      'a version no codec has (Metadata v99)',
      () => {
        const frame = metadataFrame();
        frame.writeInt16BE(99, 6);
        return frame;
      },
    ],
    ['garbage', () => Buffer.from('GET / HTTP/1.1\r\nHost: brook\r\n\r\n')],
    [
      'a frame over BROOK_SOCKET_REQUEST_MAX_BYTES, before its bytes arrive',
      () => withSize(Buffer.alloc(64), REQUEST_BYTES_MAX + 1),
    ],
  ])('closes the connection on %s', async (_, bytes) => {
    const wire = await open();
    wire.writeRaw(bytes());
    expect(await wire.closedByBroker()).toBe(true);
  });

  it('closes the connection on Produce v2, advertised for librdkafka but refused', async () => {
    const wire = await open();
    const frame = produceBatch(encodeBatch([{ key: null, value: Buffer.from('v2'), timestamp: Date.now() }]));
    frame.writeInt16BE(2, 6);
    wire.writeRaw(frame);
    expect(await wire.closedByBroker()).toBe(true);
  });

  it('answers a batch whose CRC is wrong with CORRUPT_MESSAGE and stores nothing', async () => {
    const batch = encodeBatch([{ key: null, value: Buffer.from('tampered'), timestamp: Date.now() }]);
    batch[batch.length - 1] ^= 0xff;
    const wire = await open();
    wire.writeRaw(produceBatch(batch));
    const { body } = await wire.answer('Produce', 9);
    expect(body.responses[0].partitionResponses[0].errorCode).toBe(KafkaErrorCode.CORRUPT_MESSAGE);
    expect(await records()).toEqual([
      [0, 'first'],
      [1, 'second'],
    ]);
  });

  it('closes the connection on Metadata v11 naming a topic by id only (a null name, which needs v12)', async () => {
    const wire = await open();
    wire.send('Metadata', 11, { ...METADATA_BODY, topics: [{ topicId: METADATA_BODY.topics[0].topicId, name: null }] });
    expect(await wire.closedByBroker()).toBe(true);
    expect(suite.broker.stdout + suite.broker.stderr).not.toMatch(/Metadata v11 from \S+ failed/);
  });

  it.each([
    ['no partition at all', []],
    [
      'partitions whose records it cannot take (partition_max_bytes 0)',
      [{ topic: TOPIC, partitions: [{ partition: 0, fetchOffset: 0, logStartOffset: -1, partitionMaxBytes: 0 }] }],
    ],
  ])('waits out max_wait_ms on a Fetch of %s without stalling the broker', async (_, topics) => {
    const WAIT_MS = 1_500;
    const fetching = await open();
    const started = performance.now();
    fetching.send('Fetch', 11, {
      replicaId: -1,
      maxWaitMs: WAIT_MS,
      minBytes: 1,
      maxBytes: 1_048_576,
      isolationLevel: 0,
      sessionId: 0,
      sessionEpoch: -1,
      topics,
      forgottenTopicsData: [],
      rackId: '',
    });
    // meanwhile the broker answers others at once: the long poll waits, it does not spin
    const other = await open();
    const asked = performance.now();
    expect((await other.call('Metadata', 12, METADATA_BODY)).topics).toHaveLength(1);
    expect(performance.now() - asked).toBeLessThan(WAIT_MS / 2);
    const { body } = await fetching.answer('Fetch', 11);
    expect(body.errorCode).toBe(0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(WAIT_MS - 50);
  });

  it('goes on serving both protocols, with what it stored intact', async () => {
    const wire = await open();
    const metadata = await wire.call('Metadata', 12, METADATA_BODY);
    expect(metadata.topics.map((topic) => [topic.name, topic.errorCode, topic.partitions.length])).toEqual([
      [TOPIC, 0, 1],
    ]);
    expect(await records()).toEqual([
      [0, 'first'],
      [1, 'second'],
    ]);
  });
});

describe('an idle Kafka connection', () => {
  const suite = brokerForSuite({ env: { BROOK_CONNECTIONS_MAX_IDLE_MS: String(IDLE_MS) } });

  it('is closed once it has sent nothing for BROOK_CONNECTIONS_MAX_IDLE_MS, and others are served', async () => {
    const idle = await KafkaWire.open(suite.broker.kafkaPort);
    expect(await idle.closedByBroker(IDLE_MS * 10)).toBe(true);
    const fresh = await KafkaWire.open(suite.broker.kafkaPort);
    try {
      expect((await fresh.call('Metadata', 12, METADATA_BODY)).brokers).toHaveLength(1);
    } finally {
      fresh.close();
    }
  });
});
