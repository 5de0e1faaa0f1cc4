// kafkajs 2.2.4 and @platformatic/kafka 1.35.0 (the flexible versions: Metadata 12, CreateTopics 7, Produce 9,
// DescribeConfigs 4, IncrementalAlterConfigs 1) against a real broker's Kafka listener: their admin clients create,
// describe, grow, reconfigure and delete topics that REST then shows the same way, and their producers' records,
// headers and timestamps are read back over REST on the partition REST itself picks for the key.
import {
  Admin,
  compatibilityPartitioner,
  ConfigResourceTypes,
  IncrementalAlterConfigOperationTypes,
  Producer,
  stringSerializers,
} from '@platformatic/kafka';
import { ConfigResourceTypes as KafkajsConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { brokerForSuite } from './support/broker-process.js';
import { call } from './support/http.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('Kafka clients against the Kafka listener', () => {
  const suite = brokerForSuite();
  const v3 = (path: string) => `/v3/clusters/${suite.clusterId}${path}`;

  /** The topic as REST shows it, or the status REST answers. */
  async function restTopic(name: string) {
    const response = await call(suite.url, 'GET', v3(`/topics/${name}`));
    return response.status === 200 ? response.body : response.status;
  }

  async function restConfig(topic: string, name: string): Promise<string | null> {
    const response = await call(suite.url, 'GET', v3(`/topics/${topic}/configs/${name}`));
    expect(response.status, response.text).toBe(200);
    return response.body.value;
  }

  /** The partition REST's produce route picks for `key`. */
  async function restPartitionOf(topic: string, key: string): Promise<number> {
    const response = await call(suite.url, 'POST', v3(`/topics/${topic}/records`), {
      body: { key: { type: 'STRING', data: key }, value: { type: 'STRING', data: 'probe' } },
    });
    expect(response.status, response.text).toBe(200);
    return response.body.partition_id;
  }

  async function restRecords(topic: string, partition: number) {
    const response = await call(
      suite.url,
      'GET',
      v3(`/topics/${topic}/partitions/${partition}/records?offset=0&format=string`),
    );
    expect(response.status, response.text).toBe(200);
    return response.body.records as Array<{
      key: string;
      value: string;
      offset: number;
      timestamp: number;
      headers: Array<{ name: string; value: string | null }>;
    }>;
  }

  describe('kafkajs 2.2.4', () => {
    const kafka = () =>
      new Kafka({ clientId: 'e2e-kafkajs', brokers: [suite.broker.kafkaBootstrap], logLevel: logLevel.NOTHING });

    it('creates, describes, grows and deletes a topic as REST shows it', async () => {
      const admin = kafka().admin();
      await admin.connect();
      try {
        const topic = 'kafkajs-admin';
        const created = await admin.createTopics({
          topics: [{ topic, numPartitions: 3, configEntries: [{ name: 'retention.ms', value: '3600000' }] }],
        });
        expect(created).toBe(true);
        expect(await admin.createTopics({ topics: [{ topic, numPartitions: 3 }] })).toBe(false);
        expect(await restTopic(topic)).toMatchObject({ topic_name: topic, partitions_count: 3 });
        expect(await restConfig(topic, 'retention.ms')).toBe('3600000');

        const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
        expect(metadata.topics[0].partitions.map((p) => p.partitionId).sort()).toEqual([0, 1, 2]);
        const brokerId = (await admin.describeCluster()).brokers[0].nodeId;
        for (const partition of metadata.topics[0].partitions) {
          expect(partition).toMatchObject({ leader: brokerId, replicas: [brokerId], isr: [brokerId] });
        }
        expect((await admin.listTopics()).includes(topic)).toBe(true);

        const configs = await admin.describeConfigs({
          resources: [{ type: KafkajsConfigResourceTypes.TOPIC, name: topic, configNames: ['retention.ms'] }],
          includeSynonyms: false,
        });
        expect(configs.resources[0].configEntries).toEqual([
          expect.objectContaining({ configName: 'retention.ms', configValue: '3600000', isDefault: false }),
        ]);

        await admin.alterConfigs({
          validateOnly: false,
          resources: [
            {
              type: KafkajsConfigResourceTypes.TOPIC,
              name: topic,
              configEntries: [{ name: 'retention.ms', value: '7200000' }],
            },
          ],
        });
        expect(await restConfig(topic, 'retention.ms')).toBe('7200000');

        await admin.createPartitions({ topicPartitions: [{ topic, count: 5 }] });
        expect(await restTopic(topic)).toMatchObject({ partitions_count: 5 });
        await expect(admin.createPartitions({ topicPartitions: [{ topic, count: 2 }] })).rejects.toThrow();

        await admin.deleteTopics({ topics: [topic] });
        expect(await restTopic(topic)).toBe(404);
      } finally {
        await admin.disconnect();
      }
    });

    it('produces records with headers and timestamps that REST reads on the partition it picks for each key', async () => {
      const topic = 'kafkajs-produce';
      const created = await call(suite.url, 'POST', v3('/topics'), {
        body: { topic_name: topic, partitions_count: 4 },
      });
      expect(created.status, created.text).toBe(201);
      const producer = kafka().producer();
      await producer.connect();
      const timestamp = Date.parse('2026-05-06T07:08:09.010Z');
      const keys = ['alpha', 'beta', 'gamma', 'delta'];
      try {
        await producer.send({
          topic,
          acks: -1,
          messages: keys.map((key) => ({
            key,
            value: `kafkajs-${key}`,
            timestamp: String(timestamp),
            headers: { origin: 'kafkajs', key },
          })),
        });
      } finally {
        await producer.disconnect();
      }
      for (const key of keys) {
        const partition = await restPartitionOf(topic, key);
        const record = (await restRecords(topic, partition)).find((candidate) => candidate.value === `kafkajs-${key}`);
        expect(record, key).toMatchObject({
          key,
          timestamp,
          headers: [
            { name: 'origin', value: b64('kafkajs') },
            { name: 'key', value: b64(key) },
          ],
        });
      }
    });
  });

  describe('@platformatic/kafka 1.35.0', () => {
    const options = () => ({
      clientId: 'e2e-platformatic',
      bootstrapBrokers: [suite.broker.kafkaBootstrap],
      retries: 2,
    });

    it('creates a topic, reads its id and partitions, and changes its configs incrementally', async () => {
      const admin = new Admin(options());
      try {
        const topic = 'platformatic-admin';
        const [created] = await admin.createTopics({
          topics: [topic],
          partitions: 2,
          replicas: 1,
          configs: [{ name: 'cleanup.policy', value: 'delete' }],
        });
        const rest = await restTopic(topic);
        expect(rest).toMatchObject({ partitions_count: 2 });
        expect(created).toMatchObject({ name: topic, partitions: 2, replicas: 1 });

        const metadata = await admin.metadata({ topics: [topic], forceUpdate: true });
        expect(metadata.id).toBe(suite.clusterId);
        const described = metadata.topics.get(topic)!;
        expect(described.partitionsCount).toBe(2);
        expect(described.id).toBe(created.id);
        expect(described.id).not.toBe('00000000-0000-0000-0000-000000000000');

        await admin.incrementalAlterConfigs({
          resources: [
            {
              resourceType: ConfigResourceTypes.TOPIC,
              resourceName: topic,
              configs: [
                {
                  name: 'cleanup.policy',
                  configOperation: IncrementalAlterConfigOperationTypes.APPEND,
                  value: 'compact',
                },
                { name: 'retention.ms', configOperation: IncrementalAlterConfigOperationTypes.SET, value: '60000' },
              ],
            },
          ],
        });
        expect(await restConfig(topic, 'cleanup.policy')).toBe('delete,compact');
        expect(await restConfig(topic, 'retention.ms')).toBe('60000');

        const [configs] = await admin.describeConfigs({
          resources: [
            { resourceType: ConfigResourceTypes.TOPIC, resourceName: topic, configurationKeys: ['retention.ms'] },
          ],
          includeSynonyms: true,
          includeDocumentation: true,
        });
        expect(configs.configs).toEqual([expect.objectContaining({ name: 'retention.ms', value: '60000' })]);

        await admin.deleteTopics({ topics: [topic] });
        expect(await restTopic(topic)).toBe(404);
      } finally {
        await admin.close();
      }
    });

    it('produces records with headers that REST reads on the partition it picks for each key', async () => {
      const topic = 'platformatic-produce';
      const created = await call(suite.url, 'POST', v3('/topics'), {
        body: { topic_name: topic, partitions_count: 3 },
      });
      expect(created.status, created.text).toBe(201);
      // its compatibility partitioner is Java's (and REST's) murmur2 choice; its default one differs
      const producer = new Producer({
        ...options(),
        serializers: stringSerializers,
        partitioner: compatibilityPartitioner,
      });
      const keys = ['one', 'two', 'three'];
      try {
        await producer.send({
          acks: -1,
          messages: keys.map((key) => ({
            topic,
            key,
            value: `platformatic-${key}`,
            headers: new Map([['origin', 'platformatic']]),
          })),
        });
      } finally {
        await producer.close();
      }
      for (const key of keys) {
        const partition = await restPartitionOf(topic, key);
        const record = (await restRecords(topic, partition)).find((r) => r.value === `platformatic-${key}`);
        expect(record, key).toMatchObject({ key, headers: [{ name: 'origin', value: b64('platformatic') }] });
      }
    });
  });
});
