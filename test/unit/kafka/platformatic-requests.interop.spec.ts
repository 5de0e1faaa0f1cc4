// Requests written by @platformatic/kafka 1.35.0 (the modern, flexible versions: compact encodings, tagged
// fields, request header v2), captured by a loopback server and decoded with Brook's codec; the client in turn
// decodes Brook's answers (response header v1, ApiVersions' v0 header, compact record batches in Fetch v12).
import {
  AclOperations,
  AclPermissionTypes,
  Admin,
  Consumer,
  type Message,
  Producer,
  ResourcePatternTypes,
  ResourceTypes,
  stringDeserializers,
  stringSerializers,
} from '@platformatic/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRecords, readBatchHeader } from '../../../src/partition-log/record-batch.js';
import { CaptureBroker } from '../../support/kafka/capture-broker.js';

const CLIENT_ID = 'platformatic-capture';

describe('requests from @platformatic/kafka 1.35.0', () => {
  const broker = new CaptureBroker();
  const options = () => ({ clientId: CLIENT_ID, bootstrapBrokers: [broker.bootstrap], retries: 1 });

  beforeAll(() => broker.start({ orders: 2 }));
  afterAll(() => broker.stop());

  it('decodes an idempotent producer: InitProducerId v4, then Produce v9 with its batch', async () => {
    const producer = new Producer({ ...options(), serializers: stringSerializers, idempotent: true });
    await producer.send({
      messages: [
        {
          topic: 'orders',
          key: 'k1',
          value: 'v1',
          partition: 1,
          headers: new Map([['trace', 'abc']]),
          timestamp: 1700000000000n,
        },
        { topic: 'orders', key: 'k2', value: 'v2', partition: 1, timestamp: 1700000000001n },
      ],
    });
    await producer.close();

    expect(broker.of('InitProducerId')).toMatchObject([
      { apiVersion: 4, clientId: CLIENT_ID, body: { transactionalId: null } },
    ]);
    const [produce] = broker.of('Produce');
    expect(produce).toMatchObject({ apiVersion: 9, clientId: CLIENT_ID, body: { transactionalId: null, acks: -1 } });
    if (produce.apiName !== 'Produce') throw new Error('not a produce request');
    const [topic] = produce.body.topicData;
    expect(topic.name).toBe('orders');
    expect(topic.partitionData.map((partition) => partition.index)).toEqual([1]);
    const records = topic.partitionData[0].records as Buffer;
    expect(readBatchHeader(records)).toMatchObject({ producerId: 4000, producerEpoch: 0, recordCount: 2 });
    expect(decodeRecords(records)).toEqual([
      {
        offset: 0,
        timestamp: 1700000000000,
        key: Buffer.from('k1'),
        value: Buffer.from('v1'),
        headers: [{ key: 'trace', value: Buffer.from('abc') }],
      },
      { offset: 1, timestamp: 1700000000001, key: Buffer.from('k2'), value: Buffer.from('v2'), headers: [] },
    ]);
  });

  it('decodes a consumer group (KIP-848 era versions of the classic protocol) and a commit', async () => {
    const consumer = new Consumer({
      ...options(),
      groupId: 'ledger',
      deserializers: stringDeserializers,
      sessionTimeout: 10_000,
      heartbeatInterval: 500,
    });
    const stream = await consumer.consume({
      topics: ['orders'],
      mode: 'committed',
      fallbackMode: 'earliest',
      autocommit: false,
      maxWaitTime: 200,
    });
    const received: Message<string, string, string, string>[] = [];
    stream.on('data', (message: Message<string, string, string, string>) => received.push(message));
    await broker.waitFor(() => received.length >= 2, 'two records');
    await received[1].commit();
    await stream.close();
    await consumer.close();

    expect(received.map((m) => `${m.partition}:${m.offset}:${m.key}=${m.value}`)).toEqual(['1:0:k1=v1', '1:1:k2=v2']);
    expect(received[0].headers.get('trace')).toBe('abc');
    const [join] = broker.of('JoinGroup');
    expect(join).toMatchObject({
      apiVersion: 9,
      body: { groupId: 'ledger', protocolType: 'consumer', sessionTimeoutMs: 10_000 },
    });
    const [sync] = broker.of('SyncGroup');
    expect(sync).toMatchObject({
      apiVersion: 5,
      body: { groupId: 'ledger', generationId: 1, protocolType: 'consumer' },
    });
    if (sync.apiName !== 'SyncGroup') throw new Error('not a sync');
    const memberId = sync.body.memberId;
    const fetches = broker.of('Fetch');
    expect(fetches[0]).toMatchObject({
      apiVersion: 12,
      body: { replicaId: -1, isolationLevel: 1, sessionId: 0, sessionEpoch: 0 },
    });
    if (fetches[0].apiName !== 'Fetch') throw new Error('not a fetch');
    // Its Fetch v12 names each topic by its id, written as text where the name belongs (see capture-answers.ts).
    const ordersId = broker.state?.topics.get('orders')?.id;
    const fetched = fetches[0].body.topics.flatMap((t) =>
      t.partitions.map((p) => `${t.topic}:${p.partition}@${p.fetchOffset}`),
    );
    expect(fetched.sort()).toEqual([`${ordersId}:0@0`, `${ordersId}:1@0`]);
    expect(broker.of('OffsetFetch')).toMatchObject([
      {
        apiVersion: 9,
        body: { groups: [{ groupId: 'ledger', topics: [{ name: 'orders', partitionIndexes: [0, 1] }] }] },
      },
    ]);
    expect(broker.of('ListOffsets')).toMatchObject([
      { apiVersion: 7, body: { topics: [{ name: 'orders', partitions: [{ timestamp: -2 }, { timestamp: -2 }] }] } },
    ]);
    const [commit] = broker.of('OffsetCommit');
    expect(commit).toMatchObject({
      apiVersion: 9,
      body: {
        groupId: 'ledger',
        generationIdOrMemberEpoch: 1,
        memberId,
        topics: [{ name: 'orders', partitions: [{ partitionIndex: 1, committedOffset: 2 }] }],
      },
    });
    expect(broker.of('LeaveGroup')).toMatchObject([
      { apiVersion: 4, body: { groupId: 'ledger', members: [{ memberId }] } },
    ]);
  });

  it('decodes admin requests: topics, partitions, configs, ACLs, groups and the cluster', async () => {
    const admin = new Admin(options());
    await admin.createTopics({
      topics: ['audit'],
      partitions: 2,
      replicas: 1,
      configs: [{ name: 'cleanup.policy', value: 'compact' }],
    });
    await admin.metadata({ topics: ['audit'] });
    await admin.createPartitions({ topics: [{ name: 'audit', count: 4, assignments: [] }] });
    await admin.describeConfigs({
      resources: [{ resourceType: 2, resourceName: 'audit', configurationKeys: ['retention.ms'] }],
    });
    await admin.alterConfigs({
      resources: [{ resourceType: 2, resourceName: 'audit', configs: [{ name: 'retention.ms', value: '1000' }] }],
    });
    await admin.incrementalAlterConfigs({
      resources: [
        {
          resourceType: 2,
          resourceName: 'audit',
          configs: [{ name: 'retention.ms', configOperation: 0, value: '2000' }],
        },
      ],
    });
    const acl = {
      resourceType: ResourceTypes.TOPIC,
      resourceName: 'audit',
      resourcePatternType: ResourcePatternTypes.LITERAL,
      principal: 'User:alice',
      host: '*',
      operation: AclOperations.READ,
      permissionType: AclPermissionTypes.ALLOW,
    };
    await admin.createAcls({ creations: [acl] });
    await admin.describeAcls({ filter: acl });
    await admin.deleteAcls({ filters: [acl] });
    await admin.listGroups();
    await admin.describeGroups({ groups: ['ledger'] });
    await admin.deleteGroups({ groups: ['ledger'] });
    await admin.deleteTopics({ topics: ['audit'] });
    await admin.close();

    expect(broker.of('CreateTopics')).toMatchObject([
      {
        apiVersion: 7,
        body: {
          topics: [
            {
              name: 'audit',
              numPartitions: 2,
              replicationFactor: 1,
              configs: [{ name: 'cleanup.policy', value: 'compact' }],
            },
          ],
        },
      },
    ]);
    expect(
      broker.of('Metadata').some((m) => m.apiVersion === 12 && m.body.topics?.some((t) => t.name === 'audit')),
    ).toBe(true);
    expect(broker.of('CreatePartitions')).toMatchObject([
      { apiVersion: 3, body: { topics: [{ name: 'audit', count: 4 }] } },
    ]);
    expect(broker.of('DescribeConfigs')).toMatchObject([
      {
        apiVersion: 4,
        body: { resources: [{ resourceType: 2, resourceName: 'audit', configurationKeys: ['retention.ms'] }] },
      },
    ]);
    expect(broker.of('AlterConfigs')).toMatchObject([
      {
        apiVersion: 2,
        body: { resources: [{ resourceName: 'audit', configs: [{ name: 'retention.ms', value: '1000' }] }] },
      },
    ]);
    expect(broker.of('IncrementalAlterConfigs')).toMatchObject([
      {
        apiVersion: 1,
        body: {
          resources: [
            { resourceName: 'audit', configs: [{ name: 'retention.ms', configOperation: 0, value: '2000' }] },
          ],
        },
      },
    ]);
    const binding = { principal: 'User:alice', host: '*', operation: 3, permissionType: 3 };
    expect(broker.of('CreateAcls')).toMatchObject([
      {
        apiVersion: 3,
        body: { creations: [{ resourceType: 2, resourceName: 'audit', resourcePatternType: 3, ...binding }] },
      },
    ]);
    const filter = {
      resourceTypeFilter: 2,
      resourceNameFilter: 'audit',
      patternTypeFilter: 3,
      principalFilter: 'User:alice',
      hostFilter: '*',
    };
    expect(broker.of('DescribeAcls')).toMatchObject([
      { apiVersion: 3, body: { ...filter, operation: 3, permissionType: 3 } },
    ]);
    expect(broker.of('DeleteAcls')).toMatchObject([
      { apiVersion: 3, body: { filters: [{ ...filter, operation: 3, permissionType: 3 }] } },
    ]);
    expect(broker.of('ListGroups')).toMatchObject([{ apiVersion: 4 }]);
    expect(broker.of('DescribeGroups')).toMatchObject([{ apiVersion: 5, body: { groups: ['ledger'] } }]);
    expect(broker.of('DeleteGroups')).toMatchObject([{ apiVersion: 2, body: { groupsNames: ['ledger'] } }]);
    expect(broker.of('DeleteTopics')).toMatchObject([{ apiVersion: 6, body: { topics: [{ name: 'audit' }] } }]);
  });

  it('used the versions the client table lists for @platformatic/kafka, and every request decoded', () => {
    expect(broker.decodeErrors).toEqual([]);
    expect(broker.answerErrors.map((error) => error.message)).toEqual([]);
    expect(broker.versionsUsed()).toMatchObject({
      ApiVersions: [3],
      Metadata: [12],
      Produce: [9],
      Fetch: [12],
      FindCoordinator: [4],
      JoinGroup: [9],
      SyncGroup: [5],
      OffsetCommit: [9],
      OffsetFetch: [9],
      ListOffsets: [7],
      LeaveGroup: [4],
      InitProducerId: [4],
      CreateTopics: [7],
      DeleteTopics: [6],
      CreatePartitions: [3],
      DescribeConfigs: [4],
      AlterConfigs: [2],
      IncrementalAlterConfigs: [1],
      CreateAcls: [3],
      DescribeAcls: [3],
      DeleteAcls: [3],
      ListGroups: [4],
      DescribeGroups: [5],
      DeleteGroups: [2],
    });
  });
});
