// Requests written by librdkafka 2.0 (Debian's kcat 1.7.1), captured by a loopback server and decoded with
// Brook's codec: metadata, a keyed producer with headers, an idempotent producer and a consumer group, at the
// versions the table in src/kafka/protocol/messages/api-versions.ts lists for librdkafka.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRecords, readBatchHeader } from '../../../src/partition-log/record-batch.js';
import { CaptureBroker } from '../../support/kafka/capture-broker.js';
import { kcat, kcatAvailable } from '../../support/kafka/kcat.js';

describe.runIf(kcatAvailable)('requests from librdkafka 2.0 (kcat)', () => {
  const broker = new CaptureBroker();

  beforeAll(() => broker.start({ orders: 2 }));
  afterAll(() => broker.stop());

  it('decodes a metadata request for every topic', async () => {
    const listed = await kcat(['-b', broker.bootstrap, '-L']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('topic "orders" with 2 partitions');
    expect(broker.of('Metadata').some((request) => request.apiVersion === 4 && request.body.topics === null)).toBe(
      true,
    );
  });

  it('decodes a keyed producer with headers: Produce v7 and its batch', async () => {
    const produced = await kcat(
      ['-b', broker.bootstrap, '-P', '-t', 'orders', '-p', '1', '-K', ':', '-H', 'trace=abc'],
      'k1:v1\nk2:v2\n',
    );
    expect(produced.code).toBe(0);
    // librdkafka may send the two records in one request or in two
    const produces = broker.of('Produce');
    expect(produces[0]).toMatchObject({
      apiVersion: 7,
      clientId: 'rdkafka',
      body: { transactionalId: null, acks: -1 },
    });
    const records = produces.flatMap((produce) => {
      if (produce.apiName !== 'Produce') return [];
      return produce.body.topicData.flatMap((topic) =>
        topic.partitionData.flatMap((partition) => {
          expect([topic.name, partition.index]).toEqual(['orders', 1]);
          return decodeRecords(partition.records as Buffer);
        }),
      );
    });
    expect(
      records.map((r) => [String(r.key), String(r.value), r.headers.map((h) => `${h.key}=${String(h.value)}`)]),
    ).toEqual([
      ['k1', 'v1', ['trace=abc']],
      ['k2', 'v2', ['trace=abc']],
    ]);
  });

  it('decodes an idempotent producer: InitProducerId v4, then a batch with its producer id and sequence', async () => {
    const args = ['-b', broker.bootstrap, '-P', '-t', 'orders', '-p', '0', '-X', 'enable.idempotence=true'];
    expect((await kcat(args, 'only-value\n')).code).toBe(0);
    expect(broker.of('InitProducerId')).toMatchObject([
      { apiVersion: 4, body: { transactionalId: null, producerId: -1, producerEpoch: -1 } },
    ]);
    const produce = broker.of('Produce').at(-1);
    if (produce?.apiName !== 'Produce') throw new Error('not a produce request');
    const records = produce.body.topicData[0].partitionData[0].records as Buffer;
    expect(readBatchHeader(records)).toMatchObject({
      producerId: 4000,
      producerEpoch: 0,
      baseSequence: 0,
      recordCount: 1,
    });
  });

  it('decodes a consumer group: coordinator, join, sync, offsets, fetch, commit and leave', async () => {
    const args = [
      '-b',
      broker.bootstrap,
      '-G',
      'kcat-group',
      '-X',
      'auto.offset.reset=earliest',
      '-c',
      '3',
      '-f',
      '%p:%o:%s\\n',
      'orders',
    ];
    const consumed = await kcat(args);
    expect(consumed.code).toBe(0);
    expect(consumed.stdout.trim().split('\n').sort()).toEqual(['0:0:only-value', '1:0:v1', '1:1:v2']);
    expect(broker.of('FindCoordinator')[0]).toMatchObject({ apiVersion: 2, body: { key: 'kcat-group', keyType: 0 } });
    const [join] = broker.of('JoinGroup');
    expect(join).toMatchObject({ apiVersion: 5, body: { groupId: 'kcat-group', protocolType: 'consumer' } });
    if (join.apiName !== 'JoinGroup') throw new Error('not a join');
    expect(join.body.protocols.map((protocol) => protocol.name)).toEqual(['range', 'roundrobin']);
    expect(broker.of('SyncGroup')).toMatchObject([{ apiVersion: 3, body: { groupId: 'kcat-group', generationId: 1 } }]);
    expect(broker.of('OffsetFetch')).toMatchObject([{ apiVersion: 7, body: { groupId: 'kcat-group' } }]);
    expect(broker.of('ListOffsets')[0]).toMatchObject({ apiVersion: 2, body: { replicaId: -1 } });
    expect(broker.of('Fetch')[0]).toMatchObject({ apiVersion: 11, body: { replicaId: -1 } });
    const committed = broker
      .of('OffsetCommit')
      .flatMap((commit) =>
        commit.apiName === 'OffsetCommit'
          ? commit.body.topics.flatMap((t) =>
              t.partitions.map((p) => `${t.name}:${p.partitionIndex}:${p.committedOffset}`),
            )
          : [],
      );
    expect(committed).toEqual(expect.arrayContaining(['orders:0:1', 'orders:1:2']));
    expect(broker.of('OffsetCommit')[0]).toMatchObject({ apiVersion: 7, body: { groupId: 'kcat-group' } });
    expect(broker.of('LeaveGroup')).toMatchObject([{ apiVersion: 1, body: { groupId: 'kcat-group' } }]);
  });

  it('used the versions the client table lists for librdkafka, and every request decoded', () => {
    expect(broker.decodeErrors).toEqual([]);
    expect(broker.answerErrors.map((error) => error.message)).toEqual([]);
    expect(broker.versionsUsed()).toMatchObject({
      ApiVersions: [3],
      Metadata: [4],
      Produce: [7],
      InitProducerId: [4],
      FindCoordinator: [2],
      JoinGroup: [5],
      SyncGroup: [3],
      OffsetFetch: [7],
      ListOffsets: [2],
      Fetch: [11],
      OffsetCommit: [7],
      LeaveGroup: [1],
    });
  });
});
