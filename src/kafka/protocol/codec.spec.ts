// The codec against bytes written out by hand from Kafka's protocol guide (headers v0-v2, compact encodings,
// tagged fields), and its rules for versions, defaults and record batches.
import { describe, expect, it } from 'vitest';
import { ADVERTISED_VERSION_RANGES, CODEC_VERSION_RANGES } from './apis.js';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse } from './codec.js';
import { KafkaErrorCode } from './error-codes.js';
import { ProtocolEncodeError } from './errors.js';

const hex = (chunks: Buffer[]) => Buffer.concat(chunks).toString('hex');
const frame = (hexPayload: string) => {
  const payload = Buffer.from(hexPayload.replaceAll(' ', ''), 'hex');
  const size = Buffer.alloc(4);
  size.writeInt32BE(payload.length);
  return Buffer.concat([size, payload]);
};

describe('headers and flexible encodings, byte for byte', () => {
  it('writes request header v2 (non-compact client id, then tagged fields) and compact strings', () => {
    const chunks = encodeRequest('ApiVersions', 3, 1, 'c', { clientSoftwareName: 'n', clientSoftwareVersion: '1' });
    expect(hex(chunks)).toBe(frame('0012 0003 00000001 0001 63 00 026e 0231 00').toString('hex'));
  });

  it('writes request header v1 and int16-length strings in a non-flexible version', () => {
    const chunks = encodeRequest('SaslHandshake', 1, 258, null, { mechanism: 'PLAIN' });
    expect(hex(chunks)).toBe(frame('0011 0001 00000102 ffff 0005 504c41494e').toString('hex'));
  });

  it('answers ApiVersions v3 with response header v0 and writes a non-default tagged field', () => {
    const chunks = encodeResponse('ApiVersions', 3, 5, {
      errorCode: 0,
      apiKeys: [{ apiKey: 18, minVersion: 0, maxVersion: 3 }],
      throttleTimeMs: 0,
      zkMigrationReady: true,
    });
    expect(hex(chunks)).toBe(frame('00000005 0000 02 0012 0000 0003 00 00000000 01 03 01 01').toString('hex'));
  });

  it('writes response header v1 and a partition tagged field (Fetch v12 current leader)', () => {
    const chunks = encodeResponse('Fetch', 12, 9, {
      throttleTimeMs: 0,
      errorCode: 0,
      sessionId: 0,
      responses: [
        {
          topic: 't',
          partitions: [
            {
              partitionIndex: 0,
              errorCode: 0,
              highWatermark: 5,
              lastStableOffset: 5,
              logStartOffset: 0,
              currentLeader: { leaderId: 1, leaderEpoch: 2 },
              abortedTransactions: null,
              records: null,
            },
          ],
        },
      ],
    });
    const partition = '00000000 0000 0000000000000005 0000000000000005 0000000000000000 00 ffffffff 00';
    // the struct in the tagged field has its own (empty) tagged section: 9 bytes
    const tagged = '01 01 09 00000001 00000002 00';
    expect(hex(chunks)).toBe(
      frame(`00000009 00 00000000 0000 00000000 02 0274 02 ${partition} ${tagged} 00 00`).toString('hex'),
    );
  });

  it('writes a compact length of 128 bytes or more as a multi-byte unsigned varint', () => {
    const name = 'x'.repeat(200);
    const chunks = encodeRequest('DescribeGroups', 5, 0, null, { groups: [name], includeAuthorizedOperations: false });
    // 201 = 0xc9 0x01
    expect(hex(chunks)).toBe(frame(`000f 0005 00000000 ffff 00 02 c901 ${'78'.repeat(200)} 00 00`).toString('hex'));
  });

  it('skips tagged fields it does not know, in the header and in the body', () => {
    const decoded = decodeRequest(frame('000c 0004 0000002a 0001 63 01 07 02 abcd 0267 00000001 026d 00 01 09 00'));
    expect(decoded).toEqual({
      ok: true,
      value: {
        apiName: 'Heartbeat',
        apiKey: 12,
        apiVersion: 4,
        correlationId: 42,
        clientId: 'c',
        body: { groupId: 'g', generationId: 1, memberId: 'm', groupInstanceId: null },
      },
    });
  });
});

describe('versions', () => {
  it('decodes fields a version lacks to their defaults', () => {
    const decoded = decodeRequest(frame('0003 0001 00000007 ffff 00000001 0001 61'));
    expect(decoded.ok && decoded.value.body).toEqual({
      topics: [{ topicId: '00000000-0000-0000-0000-000000000000', name: 'a' }],
      allowAutoTopicCreation: true,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    });
  });

  it('drops an ignorable field the version lacks, and refuses a non-ignorable one that is not its default', () => {
    const topic = { errorCode: 0, name: 't', topicId: '4f9c1c52-7d0e-4c8c-9a3b-1b2c3d4e5f60', partitions: [] };
    const body = { throttleTimeMs: 0, brokers: [], topics: [{ ...topic, topicAuthorizedOperations: 0 }] };
    const v9 = decodeResponse('Metadata', 9, Buffer.concat(encodeResponse('Metadata', 9, 1, body)));
    expect(v9.ok && v9.value.body.topics[0].topicId).toBe('00000000-0000-0000-0000-000000000000');
    const partition = {
      partitionIndex: 0,
      errorCode: 0,
      highWatermark: 0,
      abortedTransactions: null,
      preferredReadReplica: 2,
      records: null,
    };
    const fetch = { throttleTimeMs: 0, errorCode: 0, responses: [{ topic: 't', partitions: [partition] }] };
    expect(() => encodeResponse('Fetch', 10, 1, fetch)).toThrow(ProtocolEncodeError);
    expect(() => encodeResponse('Fetch', 11, 1, fetch)).not.toThrow();
  });

  it('reports an unsupported version with the header, so that ApiVersions can answer with its v0 shape', () => {
    const decoded = decodeRequest(frame('0012 0004 00000063 0001 63 00 00 00 00'));
    expect(decoded).toMatchObject({
      ok: false,
      error: { code: 'unsupported-version', header: { apiKey: 18, apiVersion: 4, correlationId: 99 } },
    });
    const apiKeys = CODEC_VERSION_RANGES.map(({ apiKey, minVersion, maxVersion }) => ({
      apiKey,
      minVersion,
      maxVersion,
    }));
    const answer = encodeResponse('ApiVersions', 0, 99, {
      errorCode: KafkaErrorCode.UNSUPPORTED_VERSION,
      apiKeys,
      throttleTimeMs: 0,
    });
    const read = decodeResponse('ApiVersions', 0, Buffer.concat(answer));
    expect(read.ok && read.value.body.apiKeys).toContainEqual({ apiKey: 18, minVersion: 0, maxVersion: 3 });
    expect(read.ok && read.value.body.errorCode).toBe(35);
  });

  it('reports an unknown API key with the header', () => {
    expect(decodeRequest(frame('03e7 0000 00000001 ffff'))).toMatchObject({
      ok: false,
      error: { code: 'unknown-api', header: { apiKey: 999, apiVersion: 0, correlationId: 1 } },
    });
  });

  it('advertises Produce from v0 (for librdkafka compression) while a Produce v2 request is still refused', () => {
    const advertised = (name: string) => ADVERTISED_VERSION_RANGES.find((range) => range.name === name);
    expect(advertised('Produce')).toMatchObject({ minVersion: 0, maxVersion: 9 });
    expect(ADVERTISED_VERSION_RANGES.filter((range) => range.name !== 'Produce')).toEqual(
      CODEC_VERSION_RANGES.filter((range) => range.name !== 'Produce'),
    );
    expect(decodeRequest(frame('0000 0002 00000001 ffff ffff 000003e8 00000000'))).toMatchObject({
      ok: false,
      error: { code: 'unsupported-version', header: { apiKey: 0, apiVersion: 2 } },
    });
  });

  it('refuses to encode a version outside the table', () => {
    expect(() => encodeResponse('Produce', 10, 1, { responses: [] })).toThrow(ProtocolEncodeError);
  });

  it('covers exactly the ranges of issue 20', () => {
    const ranges = Object.fromEntries(CODEC_VERSION_RANGES.map((r) => [r.name, `${r.minVersion}-${r.maxVersion}`]));
    expect(ranges).toEqual({
      Produce: '3-9',
      Fetch: '4-12',
      ListOffsets: '1-7',
      Metadata: '1-12',
      OffsetCommit: '2-9',
      OffsetFetch: '1-9',
      FindCoordinator: '0-4',
      JoinGroup: '2-9',
      Heartbeat: '0-4',
      LeaveGroup: '0-4',
      SyncGroup: '0-5',
      DescribeGroups: '0-5',
      ListGroups: '0-4',
      SaslHandshake: '0-1',
      ApiVersions: '0-3',
      CreateTopics: '2-7',
      DeleteTopics: '1-6',
      InitProducerId: '0-4',
      OffsetForLeaderEpoch: '2-4',
      DescribeAcls: '1-3',
      CreateAcls: '1-3',
      DeleteAcls: '1-3',
      DescribeConfigs: '1-4',
      AlterConfigs: '0-2',
      SaslAuthenticate: '0-2',
      CreatePartitions: '0-3',
      DeleteGroups: '0-2',
      IncrementalAlterConfigs: '0-1',
      DescribeCluster: '0-1',
    });
  });
});

describe('record batches', () => {
  const batch = Buffer.alloc(1000, 7);
  const produce = (records: Buffer) => ({
    transactionalId: null,
    acks: -1,
    timeoutMs: 30000,
    topicData: [{ name: 't', partitionData: [{ index: 0, records }] }],
  });

  it('decodes them as slices of the request frame, not copies', () => {
    const received = Buffer.concat(encodeRequest('Produce', 9, 1, 'c', produce(batch)));
    const decoded = decodeRequest(received);
    if (!decoded.ok || decoded.value.apiName !== 'Produce') throw new Error('not decoded');
    const records = decoded.value.body.topicData[0].partitionData[0].records as Buffer;
    expect(records.equals(batch)).toBe(true);
    expect(records.buffer).toBe(received.buffer);
    records[0] = 9;
    expect(received.includes(Buffer.from([9]))).toBe(true);
  });

  it('writes them into the frame by reference, and several buffers one after the other', () => {
    const second = Buffer.alloc(500, 3);
    const partition = { partitionIndex: 0, errorCode: 0, highWatermark: 2, records: [batch, second] };
    const chunks = encodeResponse('Fetch', 11, 1, {
      throttleTimeMs: 0,
      errorCode: 0,
      responses: [{ topic: 't', partitions: [{ ...partition, abortedTransactions: null }] }],
    });
    expect(chunks).toContain(batch);
    expect(chunks).toContain(second);
    const decoded = decodeResponse('Fetch', 11, Buffer.concat(chunks));
    const records = decoded.ok && decoded.value.body.responses[0].partitions[0].records;
    expect(records).toEqual(Buffer.concat([batch, second]));
  });
});
