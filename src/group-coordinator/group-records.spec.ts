import { describe, expect, it } from 'vitest';
import {
  decodeGroupRecord,
  encodeGroupRecord,
  GroupRecordFormatError,
  offsetsPartitionFor,
  topicPartitionKey,
  type GroupMetadataValue,
  type GroupRecord,
  type InstanceValue,
} from './group-records.js';

// The __consumer_offsets record codec. Offset commit keys and values and group metadata keys are Kafka's layouts
// (OffsetCommitKey v1, OffsetCommitValue v3, GroupMetadataKey v2), so the expected bytes are written out by hand.

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');

const groupValue: GroupMetadataValue = {
  generation: 7,
  assignor: 'range',
  stateTimestampMs: 1_700_000_000_000,
  members: [
    {
      memberId: 'm-1',
      groupInstanceId: 'host-a',
      clientId: 'client',
      kind: 'ws',
      subscription: { topics: ['orders', 'payments'] },
      sessionTimeoutMs: 45_000,
      rebalanceTimeoutMs: 300_000,
      assignment: [
        { topic: 'orders', partition: 0 },
        { topic: 'payments', partition: 2 },
      ],
    },
    {
      memberId: 'm-2',
      groupInstanceId: null,
      clientId: 'client',
      kind: 'rest',
      subscription: { pattern: 'ord.*' },
      sessionTimeoutMs: 600_000,
      rebalanceTimeoutMs: 300_000,
      assignment: [],
    },
  ],
};

const instanceValue: InstanceValue = {
  format: 'json',
  autoOffsetReset: 'earliest',
  autoCommitEnable: false,
  fetchMinBytes: 1,
  requestTimeoutMs: 1000,
  subscription: { topics: ['orders'] },
  assignment: null,
  createdAtMs: 1_700_000_000_000,
};

function roundTrip(record: GroupRecord): GroupRecord {
  const { key, value } = encodeGroupRecord(record);
  return decodeGroupRecord(key, value);
}

describe('offset commit records', () => {
  const record: GroupRecord = {
    kind: 'offset',
    group: 'g1',
    topic: 't',
    partition: 3,
    value: { offset: 42, leaderEpoch: -1, metadata: 'm', commitTimestampMs: 1_700_000_000_000 },
  };

  it("writes Kafka's OffsetCommitKey v1: version, group, topic, partition", () => {
    expect(encodeGroupRecord(record).key).toEqual(hex('0001 0002 6731 0001 74 00000003'));
  });

  it("writes Kafka's OffsetCommitValue v3: version 3, offset, leader epoch, metadata, commit timestamp", () => {
    expect(encodeGroupRecord(record).value).toEqual(hex('0003 000000000000002a ffffffff 0001 6d 0000018bcfe56800'));
  });

  it('round-trips, including an empty metadata string and the largest safe offset', () => {
    expect(roundTrip(record)).toEqual(record);
    const edge: GroupRecord = {
      kind: 'offset',
      group: 'groupé',
      topic: 'topic.with-dots_',
      partition: 2_147_483_647,
      value: { offset: Number.MAX_SAFE_INTEGER, leaderEpoch: 5, metadata: '', commitTimestampMs: 0 },
    };
    expect(roundTrip(edge)).toEqual(edge);
  });

  it('encodes strings as UTF-8 with their byte length, not their character count', () => {
    const { key } = encodeGroupRecord({ kind: 'offset', group: 'é', topic: 't', partition: 0, value: null });
    expect(key).toEqual(hex('0001 0002 c3a9 0001 74 00000000'));
  });

  it('writes a tombstone as a null value and reads it back', () => {
    const tombstone: GroupRecord = { kind: 'offset', group: 'g1', topic: 't', partition: 3, value: null };
    expect(encodeGroupRecord(tombstone)).toEqual({ key: hex('0001 0002 6731 0001 74 00000003'), value: null });
    expect(roundTrip(tombstone)).toEqual(tombstone);
  });

  it('reads a version 0 key (older Kafka) as an offset commit key', () => {
    const decoded = decodeGroupRecord(
      hex('0000 0002 6731 0001 74 00000003'),
      hex('0003 000000000000002a ffffffff 0001 6d 0000018bcfe56800'),
    );
    expect(decoded).toEqual(record);
  });

  it('rejects an offset commit value version other than 3', () => {
    const { key } = encodeGroupRecord(record);
    expect(() => decodeGroupRecord(key, hex('0001 000000000000002a 0000 0000018bcfe56800 0000018bcfe56800'))).toThrow(
      GroupRecordFormatError,
    );
  });

  it('rejects a null metadata string (length -1)', () => {
    const { key } = encodeGroupRecord(record);
    expect(() => decodeGroupRecord(key, hex('0003 000000000000002a ffffffff ffff 0000018bcfe56800'))).toThrow(
      GroupRecordFormatError,
    );
  });

  it('throws GroupRecordFormatError, not a RangeError, on every truncation of the key and of the value', () => {
    const { key, value } = encodeGroupRecord(record);
    for (let length = 0; length < key.length; length++) {
      expect(() => decodeGroupRecord(key.subarray(0, length), value), `key of ${length} bytes`).toThrow(
        GroupRecordFormatError,
      );
    }
    for (let length = 0; length < value!.length; length++) {
      expect(() => decodeGroupRecord(key, value!.subarray(0, length)), `value of ${length} bytes`).toThrow(
        GroupRecordFormatError,
      );
    }
  });

  it('refuses to write a string longer than an int16 length can say', () => {
    const atLimit = 'x'.repeat(0x7fff);
    expect(roundTrip({ kind: 'offset', group: atLimit, topic: 't', partition: 0, value: null })).toMatchObject({
      group: atLimit,
    });
    expect(() =>
      encodeGroupRecord({ kind: 'offset', group: 'x'.repeat(0x8000), topic: 't', partition: 0, value: null }),
    ).toThrow(GroupRecordFormatError);
  });
});

describe('group metadata records', () => {
  const record: GroupRecord = { kind: 'group', group: 'g1', value: groupValue };

  it("writes Kafka's GroupMetadataKey v2: version 2, group", () => {
    expect(encodeGroupRecord(record).key).toEqual(hex('0002 0002 6731'));
  });

  it("writes Brook's value: version 100, then the JSON of the generation", () => {
    const value = encodeGroupRecord(record).value!;
    expect(value.readInt16BE(0)).toBe(100);
    expect(JSON.parse(value.subarray(2).toString('utf8'))).toEqual(groupValue);
  });

  it('round-trips members, subscriptions (list and pattern) and assignments', () => {
    expect(roundTrip(record)).toEqual(record);
  });

  it('round-trips a tombstone', () => {
    const tombstone: GroupRecord = { kind: 'group', group: 'g1', value: null };
    expect(encodeGroupRecord(tombstone).value).toBeNull();
    expect(roundTrip(tombstone)).toEqual(tombstone);
  });

  it('rejects an unknown value version', () => {
    const value = Buffer.from(encodeGroupRecord(record).value!);
    value.writeInt16BE(0);
    expect(() => decodeGroupRecord(hex('0002 0002 6731'), value)).toThrow(GroupRecordFormatError);
  });

  it('throws GroupRecordFormatError on a truncated key and on a value too short for its version', () => {
    expect(() => decodeGroupRecord(hex('0002 0002 67'), null)).toThrow(GroupRecordFormatError);
    expect(() => decodeGroupRecord(hex('0002 0002 6731'), hex('00'))).toThrow(GroupRecordFormatError);
  });

  it('throws GroupRecordFormatError on a value whose JSON is cut short', () => {
    const value = encodeGroupRecord(record).value!;
    const truncated = value.subarray(0, value.length - 5);
    expect(() => decodeGroupRecord(hex('0002 0002 6731'), truncated)).toThrow(GroupRecordFormatError);
  });
});

describe('consumer instance records', () => {
  const record: GroupRecord = { kind: 'instance', group: 'g1', instance: 'i-1', value: instanceValue };

  it("writes Brook's key: version 100, group, instance", () => {
    expect(encodeGroupRecord(record).key).toEqual(hex('0064 0002 6731 0003 692d31'));
  });

  it('round-trips a value and a tombstone', () => {
    expect(roundTrip(record)).toEqual(record);
    const tombstone: GroupRecord = { kind: 'instance', group: 'g1', instance: 'i-1', value: null };
    expect(roundTrip(tombstone)).toEqual(tombstone);
  });

  it('throws GroupRecordFormatError on a key without its instance', () => {
    expect(() => decodeGroupRecord(hex('0064 0002 6731'), null)).toThrow(GroupRecordFormatError);
  });

  it('throws GroupRecordFormatError on a value whose JSON is cut short', () => {
    const { key, value } = encodeGroupRecord(record);
    expect(() => decodeGroupRecord(key, value!.subarray(0, 10))).toThrow(GroupRecordFormatError);
  });
});

describe('decodeGroupRecord', () => {
  it('rejects a key version it does not know (Kafka 3 share keys, garbage)', () => {
    expect(() => decodeGroupRecord(hex('0003 0002 6731'), null)).toThrow(GroupRecordFormatError);
    expect(() => decodeGroupRecord(hex('ffff'), null)).toThrow(GroupRecordFormatError);
  });
});

describe('offsetsPartitionFor', () => {
  // Expected values computed outside Brook with Java's String.hashCode (s[0]*31^(n-1) + ... over UTF-16 code
  // units, 32-bit wrap) and Kafka's Utils.abs (Integer.MIN_VALUE -> 0).
  it.each([
    ['', 50, 0],
    ['a', 50, 47],
    ['a', 7, 6],
    ['my-group', 50, 12], // hashCode -1906497762: negative, so abs is taken
    ['my-group', 7, 1],
    ['console-consumer-12345', 50, 6],
    ['payments', 50, 13],
    ['groupé', 50, 6],
    ['😀', 50, 49], // a surrogate pair: two UTF-16 code units
    ['polygenelubricants', 50, 0], // hashCode is Integer.MIN_VALUE; Utils.abs gives 0
    ['polygenelubricants', 7, 0],
  ])('maps %j over %i partitions to partition %i as Kafka does', (group, partitions, expected) => {
    expect(offsetsPartitionFor(group, partitions as number)).toBe(expected);
  });

  it('is always a partition in range', () => {
    for (const group of ['x', 'orders-service', 'zzzzzzzzzzzzzzzzzzzz', '\uffff\uffff\uffff']) {
      for (const partitions of [1, 3, 50]) {
        const partition = offsetsPartitionFor(group, partitions);
        expect(Number.isInteger(partition) && partition >= 0 && partition < partitions).toBe(true);
      }
    }
  });
});

describe('topicPartitionKey', () => {
  it('cannot confuse topics whose names end in digits', () => {
    expect(topicPartitionKey('t1', 1)).not.toBe(topicPartitionKey('t', 11));
  });
});
