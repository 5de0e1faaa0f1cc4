// Helpers of the Kafka group e2e tests: kafkajs consumers that record what they receive and the partitions they
// are given, REST v3 views of a group (lags, members), topic creation and bounded polling.
import { expect } from 'vitest';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { call } from './http.js';

export const G = '/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}';

/** The broker's group settings in these tests: no initial join delay, few offsets partitions, short sessions. */
export const GROUP_ENV = {
  BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
  BROOK_OFFSETS_TOPIC_NUM_PARTITIONS: '3',
  BROOK_GROUP_MIN_SESSION_TIMEOUT_MS: '1000',
};

const POLL_MS = 100;

/** Polls `probe` until it returns a value other than undefined; fails with `what` after `timeoutMs`. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms${last === undefined ? '' : ` (${String(last)})`}`);
}

export async function createTopic(url: string, clusterId: string, name: string, partitions: number): Promise<void> {
  const response = await call(url, 'POST', `/v3/clusters/${clusterId}/topics`, {
    body: { topic_name: name, partitions_count: partitions },
  });
  expect(response.status, response.text).toBe(201);
}

export function kafkaClient(bootstrap: string, clientId: string): Kafka {
  return new Kafka({
    clientId,
    brokers: [bootstrap],
    logLevel: logLevel.NOTHING,
    retry: { initialRetryTime: 100, maxRetryTime: 1_000, retries: 30 },
  });
}

export interface GroupLag {
  topic_name: string;
  partition_id: number;
  current_offset: number;
  log_end_offset: number;
  lag: number;
  consumer_id: string;
  client_id: string;
}

/** The group's committed offsets and lag per partition, as REST v3 shows them (validated against openapi.yaml). */
export async function restLags(url: string, clusterId: string, group: string): Promise<GroupLag[]> {
  const response = await call(url, 'GET', `/v3/clusters/${clusterId}/consumer-groups/${group}/lags`, {
    spec: `${G}/lags`,
  });
  expect(response.status, response.text).toBe(200);
  return (response.body.data as GroupLag[]).sort((a, b) => a.partition_id - b.partition_id);
}

/** Waits until REST v3 shows the group's committed offsets at the log end of every partition of `partitions`. */
export function committedToEnd(url: string, clusterId: string, group: string, partitions: number) {
  return eventually(`group ${group} committed to the log end`, async () => {
    const lags = await restLags(url, clusterId, group);
    return lags.length === partitions && lags.every((lag) => lag.lag === 0 && lag.log_end_offset > 0)
      ? lags
      : undefined;
  });
}

/** A kafkajs consumer group member that records the values it receives and the partitions it was last given. */
export class RecordingMember {
  readonly values: string[] = [];
  partitions: number[] = [];
  crash: Error | null = null;

  private constructor(readonly consumer: Consumer) {}

  static async start(kafka: Kafka, groupId: string, topic: string): Promise<RecordingMember> {
    const consumer = kafka.consumer({
      groupId,
      sessionTimeout: 6_000,
      rebalanceTimeout: 10_000,
      heartbeatInterval: 300,
      maxWaitTimeInMs: 300,
      retry: { initialRetryTime: 100, maxRetryTime: 1_000, retries: 30, restartOnFailure: async () => false },
    });
    const member = new RecordingMember(consumer);
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      member.partitions = [...(event.payload.memberAssignment[topic] ?? [])].sort((a, b) => a - b);
    });
    consumer.on(consumer.events.CRASH, (event) => {
      member.crash = event.payload.error;
    });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        member.values.push(message.value?.toString() ?? '');
      },
    });
    return member;
  }

  stop(): Promise<void> {
    return this.consumer.disconnect();
  }
}
