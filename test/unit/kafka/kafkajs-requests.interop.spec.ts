// Requests written by kafkajs 2.2.4 (nobody here wrote it), captured by a loopback server and decoded with
// Brook's codec: each means what kafkajs was asked to send, at the versions the table in
// src/kafka/protocol/messages/api-versions.ts lists for kafkajs.
import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  ConfigResourceTypes,
  Kafka,
  logLevel,
  ResourcePatternTypes,
} from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRecords, readBatchHeader } from '../../../src/partition-log/record-batch.js';
import { CaptureBroker } from '../../support/kafka/capture-broker.js';

const CLIENT_ID = 'kafkajs-capture';

describe('requests from kafkajs 2.2.4', () => {
  const broker = new CaptureBroker();
  let kafka: Kafka;

  beforeAll(async () => {
    await broker.start({ orders: 3 });
    kafka = new Kafka({
      clientId: CLIENT_ID,
      brokers: [broker.bootstrap],
      logLevel: logLevel.NOTHING,
      retry: { retries: 1 },
    });
  });
  afterAll(() => broker.stop());

  it('decodes an idempotent producer: InitProducerId, then Produce with its batch, key, value and headers', async () => {
    const producer = kafka.producer({ idempotent: true });
    await producer.connect();
    await producer.send({
      topic: 'orders',
      messages: [{ key: 'k1', value: 'v1', partition: 1, headers: { trace: 'abc' }, timestamp: '1700000000000' }],
    });
    await producer.disconnect();

    const [init] = broker.of('InitProducerId');
    expect(init).toMatchObject({ apiVersion: 1, clientId: CLIENT_ID, body: { transactionalId: null } });
    const [produce] = broker.of('Produce');
    expect(produce).toMatchObject({ apiVersion: 7, clientId: CLIENT_ID, body: { transactionalId: null, acks: -1 } });
    if (produce.apiName !== 'Produce') throw new Error('not a produce request');
    expect(produce.body.topicData).toHaveLength(1);
    const [topic] = produce.body.topicData;
    expect(topic.name).toBe('orders');
    expect(topic.partitionData.map((partition) => partition.index)).toEqual([1]);
    const records = topic.partitionData[0].records as Buffer;
    expect(readBatchHeader(records)).toMatchObject({
      producerId: 4000,
      producerEpoch: 0,
      baseSequence: 0,
      recordCount: 1,
    });
    expect(decodeRecords(records)).toEqual([
      {
        offset: 0,
        timestamp: 1700000000000,
        key: Buffer.from('k1'),
        value: Buffer.from('v1'),
        headers: [{ key: 'trace', value: Buffer.from('abc') }],
      },
    ]);
  });

  it('decodes a consumer group: join, sync, offset fetch, fetch, commit and leave', async () => {
    const consumer = kafka.consumer({ groupId: 'billing', sessionTimeout: 10_000, heartbeatInterval: 500 });
    const received: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic: 'orders', fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message, partition }) => {
        received.push(`${partition}:${message.offset}:${String(message.value)}`);
      },
    });
    await broker.waitFor(() => received.length > 0 && broker.of('OffsetCommit').length > 0, 'a commit');
    await consumer.disconnect();

    expect(received).toEqual(['1:0:v1']);
    const [join] = broker.of('JoinGroup');
    expect(join).toMatchObject({ apiVersion: 5, body: { groupId: 'billing', memberId: '', protocolType: 'consumer' } });
    if (join.apiName !== 'JoinGroup') throw new Error('not a join');
    expect(join.body.sessionTimeoutMs).toBe(10_000);
    expect(join.body.protocols.map((protocol) => protocol.name)).toEqual(['RoundRobinAssigner']);
    const [sync] = broker.of('SyncGroup');
    expect(sync).toMatchObject({ apiVersion: 3, body: { groupId: 'billing', generationId: 1 } });
    if (sync.apiName !== 'SyncGroup') throw new Error('not a sync');
    const memberId = sync.body.memberId;
    expect(sync.body.assignments.map((assignment) => assignment.memberId)).toEqual([memberId]);
    const [offsetFetch] = broker.of('OffsetFetch');
    expect(offsetFetch).toMatchObject({
      apiVersion: 4,
      body: { groupId: 'billing', topics: [{ name: 'orders', partitionIndexes: [0, 1, 2] }] },
    });
    const [fetch] = broker.of('Fetch');
    expect(fetch).toMatchObject({ apiVersion: 11, body: { replicaId: -1, isolationLevel: 1, rackId: '' } });
    if (fetch.apiName !== 'Fetch') throw new Error('not a fetch');
    expect(fetch.body.topics.map((topic) => topic.topic)).toEqual(['orders']);
    const fetched = fetch.body.topics[0].partitions.map(({ partition, fetchOffset }) => `${partition}@${fetchOffset}`);
    expect(fetched.sort()).toEqual(['0@0', '1@0', '2@0']);
    const commits = broker.of('OffsetCommit');
    expect(commits[0]).toMatchObject({
      apiVersion: 5,
      body: { groupId: 'billing', generationIdOrMemberEpoch: 1, memberId },
    });
    const committed = commits.flatMap((commit) =>
      commit.apiName === 'OffsetCommit'
        ? commit.body.topics.flatMap((topic) =>
            topic.partitions.map((p) => `${topic.name}:${p.partitionIndex}:${p.committedOffset}`),
          )
        : [],
    );
    expect(committed).toContain('orders:1:1');
    expect(broker.of('Heartbeat').every((heartbeat) => heartbeat.apiVersion === 3)).toBe(true);
    const [leave] = broker.of('LeaveGroup');
    expect(leave).toMatchObject({
      apiVersion: 3,
      body: { groupId: 'billing', members: [{ memberId, groupInstanceId: null }] },
    });
  });

  it('decodes admin requests: topics, partitions, configs, ACLs and groups', async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({
      topics: [
        {
          topic: 'audit',
          numPartitions: 2,
          replicationFactor: 1,
          configEntries: [{ name: 'cleanup.policy', value: 'compact' }],
        },
      ],
      timeout: 5000,
    });
    await admin.fetchTopicMetadata({ topics: ['audit'] });
    await admin.createPartitions({ topicPartitions: [{ topic: 'audit', count: 4 }] });
    await admin.describeConfigs({
      resources: [{ type: ConfigResourceTypes.TOPIC, name: 'audit', configNames: ['retention.ms'] }],
      includeSynonyms: false,
    });
    await admin.alterConfigs({
      validateOnly: false,
      resources: [
        { type: ConfigResourceTypes.TOPIC, name: 'audit', configEntries: [{ name: 'retention.ms', value: '1000' }] },
      ],
    });
    const acl = {
      resourceType: AclResourceTypes.TOPIC,
      resourceName: 'audit',
      resourcePatternType: ResourcePatternTypes.LITERAL,
      principal: 'User:alice',
      host: '*',
      operation: AclOperationTypes.READ,
      permissionType: AclPermissionTypes.ALLOW,
    };
    await admin.createAcls({ acl: [acl] });
    await admin.describeAcls(acl);
    await admin.deleteAcls({ filters: [acl] });
    await admin.listGroups();
    await admin.describeGroups(['billing']);
    await admin.deleteGroups(['billing']);
    await admin.deleteTopics({ topics: ['audit'], timeout: 5000 });
    await admin.disconnect();

    expect(broker.of('CreateTopics')).toMatchObject([
      {
        apiVersion: 3,
        body: {
          topics: [
            {
              name: 'audit',
              numPartitions: 2,
              replicationFactor: 1,
              assignments: [],
              configs: [{ name: 'cleanup.policy', value: 'compact' }],
            },
          ],
          timeoutMs: 5000,
          validateOnly: false,
        },
      },
    ]);
    expect(
      broker.of('Metadata').some((m) => m.apiVersion === 6 && m.body.topics?.some((t) => t.name === 'audit')),
    ).toBe(true);
    expect(broker.of('CreatePartitions')).toMatchObject([
      { apiVersion: 1, body: { topics: [{ name: 'audit', count: 4, assignments: null }], validateOnly: false } },
    ]);
    expect(broker.of('DescribeConfigs')).toMatchObject([
      {
        apiVersion: 2,
        body: { resources: [{ resourceType: 2, resourceName: 'audit', configurationKeys: ['retention.ms'] }] },
      },
    ]);
    expect(broker.of('AlterConfigs')).toMatchObject([
      {
        apiVersion: 1,
        body: {
          resources: [{ resourceType: 2, resourceName: 'audit', configs: [{ name: 'retention.ms', value: '1000' }] }],
        },
      },
    ]);
    const binding = { principal: 'User:alice', host: '*', operation: 3, permissionType: 3 };
    expect(broker.of('CreateAcls')).toMatchObject([
      {
        apiVersion: 1,
        body: { creations: [{ resourceType: 2, resourceName: 'audit', resourcePatternType: 3, ...binding }] },
      },
    ]);
    const filter = { resourceTypeFilter: 2, resourceNameFilter: 'audit', patternTypeFilter: 3 };
    const bindingFilter = { principalFilter: 'User:alice', hostFilter: '*', operation: 3, permissionType: 3 };
    expect(broker.of('DescribeAcls')).toMatchObject([{ apiVersion: 1, body: { ...filter, ...bindingFilter } }]);
    expect(broker.of('DeleteAcls')).toMatchObject([
      { apiVersion: 1, body: { filters: [{ ...filter, ...bindingFilter }] } },
    ]);
    expect(broker.of('ListGroups')).toMatchObject([{ apiVersion: 2 }]);
    expect(broker.of('DescribeGroups')).toMatchObject([{ apiVersion: 2, body: { groups: ['billing'] } }]);
    expect(broker.of('DeleteGroups')).toMatchObject([{ apiVersion: 1, body: { groupsNames: ['billing'] } }]);
    expect(broker.of('DeleteTopics')).toMatchObject([
      { apiVersion: 1, body: { topicNames: ['audit'], timeoutMs: 5000 } },
    ]);
  });

  it('used the versions the client table lists for kafkajs, and every request decoded', () => {
    expect(broker.decodeErrors).toEqual([]);
    expect(broker.answerErrors.map((error) => error.message)).toEqual([]);
    expect(broker.versionsUsed()).toMatchObject({
      ApiVersions: [2],
      Metadata: [6],
      Produce: [7],
      Fetch: [11],
      FindCoordinator: [2],
      JoinGroup: [5],
      SyncGroup: [3],
      OffsetFetch: [4],
      OffsetCommit: [5],
      LeaveGroup: [3],
      InitProducerId: [1],
      CreateTopics: [3],
      DeleteTopics: [1],
      CreatePartitions: [1],
      DescribeConfigs: [2],
      AlterConfigs: [1],
      CreateAcls: [1],
      DescribeAcls: [1],
      DeleteAcls: [1],
      ListGroups: [2],
      DescribeGroups: [2],
      DeleteGroups: [1],
    });
  });
});
