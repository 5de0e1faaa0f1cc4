// Client quotas on the Kafka listener (KIP-219), with a raw-protocol client authenticated as alice (SASL/PLAIN)
// against a broker with the authorizer on (secured-broker.ts): the quotas are REST's
// (/v3/clusters/{c}/client-quotas). A Produce or a Fetch that puts the principal over its byte rate is answered at
// once, carrying throttle_time_ms, and the broker then reads nothing more from that connection for that time: the
// next request's answer comes no sooner. Within the quota, answers carry 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBatch } from '../../src/partition-log/record-batch.js';
import { KafkaWire } from './support/kafka-wire.js';
import { aliceAcl, SecuredBroker } from './support/secured-broker.js';

const RATE = 20_000;
const VALUE_BYTES = 100_000;
/** Slack for timers and scheduling on a loaded machine. */
const SLACK_MS = 300;

let secured: SecuredBroker;

async function aliceWire(): Promise<KafkaWire> {
  const wire = await KafkaWire.open(secured.broker!.kafkaPort);
  expect((await wire.call('SaslHandshake', 1, { mechanism: 'PLAIN' })).errorCode).toBe(0);
  const authenticated = await wire.call('SaslAuthenticate', 2, {
    authBytes: Buffer.from('\0alice\0alice-secret', 'utf8'),
  });
  expect(authenticated.errorCode).toBe(0);
  return wire;
}

const METADATA = {
  topics: [{ topicId: '00000000-0000-0000-0000-000000000000', name: 'a' }],
  allowAutoTopicCreation: false,
  includeClusterAuthorizedOperations: false,
  includeTopicAuthorizedOperations: false,
};

/** How long the broker took to answer a Metadata request sent now. */
async function metadataDelayMs(wire: KafkaWire): Promise<number> {
  const sent = performance.now();
  const answer = await wire.call('Metadata', 12, METADATA);
  expect(answer.topics[0].errorCode).toBe(0);
  return performance.now() - sent;
}

function produce(wire: KafkaWire, valueBytes: number) {
  const batch = encodeBatch([{ key: null, value: Buffer.alloc(valueBytes, 0x61), timestamp: Date.now() }]);
  return wire.call('Produce', 9, {
    transactionalId: null,
    acks: 1,
    timeoutMs: 10_000,
    topicData: [{ name: 'a', partitionData: [{ index: 0, records: batch }] }],
  });
}

function fetchA(wire: KafkaWire) {
  return wire.call('Fetch', 11, {
    maxWaitMs: 0,
    minBytes: 0,
    topics: [{ topic: 'a', partitions: [{ partition: 0, fetchOffset: 0, partitionMaxBytes: 1 << 20 }] }],
    forgottenTopicsData: [],
  });
}

beforeAll(async () => {
  secured = await SecuredBroker.create();
  await secured.acl('POST', aliceAcl('TOPIC', 'a', 'WRITE'));
});
afterAll(async () => {
  await secured?.stop();
});

describe('quotas on the Kafka listener', () => {
  it('answers a Produce over producer_byte_rate at once with throttle_time_ms, then mutes the connection', async () => {
    const wire = await aliceWire();
    try {
      const within = await produce(wire, 100);
      expect(within.responses[0].partitionResponses[0].errorCode).toBe(0);
      expect(within.throttleTimeMs).toBe(0);
      await secured.quota('User:alice', { producer_byte_rate: RATE });
      const sent = performance.now();
      const over = await produce(wire, VALUE_BYTES);
      const answeredInMs = performance.now() - sent;
      expect(over.responses[0].partitionResponses[0].errorCode).toBe(0);
      // 100 kB against 20 kB/s with a 1 s burst: about 4 s over
      expect(over.throttleTimeMs).toBeGreaterThan(2_500);
      expect(over.throttleTimeMs).toBeLessThan(6_000);
      expect(answeredInMs).toBeLessThan(over.throttleTimeMs / 2);
      expect(await metadataDelayMs(wire)).toBeGreaterThan(over.throttleTimeMs - answeredInMs - SLACK_MS);
    } finally {
      wire.close();
      await secured.quota('User:alice', { producer_byte_rate: 1e9 });
    }
  });

  it('answers a Fetch over consumer_byte_rate with its records and throttle_time_ms, then mutes the connection', async () => {
    const wire = await aliceWire();
    try {
      const within = await fetchA(wire);
      expect(within.throttleTimeMs).toBe(0);
      await secured.quota('User:alice', { consumer_byte_rate: RATE });
      const sent = performance.now();
      const over = await fetchA(wire);
      const answeredInMs = performance.now() - sent;
      expect((over.responses[0].partitions[0].records as Buffer).length).toBeGreaterThan(VALUE_BYTES);
      expect(over.throttleTimeMs).toBeGreaterThan(2_500);
      expect(answeredInMs).toBeLessThan(over.throttleTimeMs / 2);
      // another connection of the same principal, still over its quota, is answered empty with the time left
      const other = await aliceWire();
      try {
        const empty = await fetchA(other);
        expect(empty.responses).toEqual([]);
        expect(empty.throttleTimeMs).toBeGreaterThan(0);
      } finally {
        other.close();
      }
      expect(await metadataDelayMs(wire)).toBeGreaterThan(over.throttleTimeMs - answeredInMs - SLACK_MS);
    } finally {
      wire.close();
      await secured.quota('User:alice', { consumer_byte_rate: 1e9 });
    }
  });
});
