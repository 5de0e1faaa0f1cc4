// Fetch (API key 1), versions 4-12; flexible from 12. v4 is the first that reads record batches (magic v2) and
// has the isolation level and last stable offset; v5 the log start offset; v7 fetch sessions (Brook answers
// "no session": session id 0); v9 the current leader epoch (KIP-320); v11 the rack id and preferred read
// replica; v12 the last fetched epoch and, as tagged fields of the answer, the diverging epoch, the current leader
// and the snapshot id. Records in the answer are opaque: the stored batches, written as they are. A partition with
// nothing to send answers empty records (length 0), never null: librdkafka 2.0 fails the whole answer on a null.
// @platformatic/kafka 1.35.0 sends v12 with each topic's id, as text, in the topic name field, and matches the
// answer by that same text: a topic name that is a topic id's canonical text means that topic, and is echoed.
import { array, defineApi, int16, int32, int64, int8, records, scalars, string, struct } from '../schema.js';

export const fetch = defineApi({
  name: 'Fetch',
  apiKey: 1,
  versions: '4-12',
  flexible: '12+',
  request: [
    string('clusterId', '12+', { nullable: '12+', default: null, tag: 0, ignorable: true }),
    int32('replicaId', '0-14', { default: -1 }),
    int32('maxWaitMs', '0+'),
    int32('minBytes', '0+'),
    int32('maxBytes', '3+', { default: 0x7fffffff, ignorable: true }),
    int8('isolationLevel', '4+', { default: 0, ignorable: true }),
    int32('sessionId', '7+', { default: 0, ignorable: true }),
    int32('sessionEpoch', '7+', { default: -1, ignorable: true }),
    array('topics', '0+', [
      string('topic', '0-12', { ignorable: true }),
      array('partitions', '0+', [
        int32('partition', '0+'),
        int32('currentLeaderEpoch', '9+', { default: -1, ignorable: true }),
        int64('fetchOffset', '0+'),
        int32('lastFetchedEpoch', '12+', { default: -1 }),
        int64('logStartOffset', '5+', { default: -1, ignorable: true }),
        int32('partitionMaxBytes', '0+'),
      ]),
    ]),
    array('forgottenTopicsData', '7+', [
      string('topic', '7-12', { ignorable: true }),
      scalars('partitions', 'int32', '7+'),
    ]),
    string('rackId', '11+', { default: '', ignorable: true }),
  ],
  response: [
    int32('throttleTimeMs', '1+', { ignorable: true }),
    int16('errorCode', '7+', { ignorable: true }),
    int32('sessionId', '7+', { default: 0 }),
    array('responses', '0+', [
      string('topic', '0-12', { ignorable: true }),
      array('partitions', '0+', [
        int32('partitionIndex', '0+'),
        int16('errorCode', '0+'),
        int64('highWatermark', '0+'),
        int64('lastStableOffset', '4+', { default: -1, ignorable: true }),
        int64('logStartOffset', '5+', { default: -1, ignorable: true }),
        struct(
          'divergingEpoch',
          '12+',
          [int32('epoch', '12+', { default: -1 }), int64('endOffset', '12+', { default: -1 })],
          {
            tag: 0,
          },
        ),
        struct(
          'currentLeader',
          '12+',
          [int32('leaderId', '12+', { default: -1 }), int32('leaderEpoch', '12+', { default: -1 })],
          { tag: 1 },
        ),
        struct(
          'snapshotId',
          '12+',
          [int64('endOffset', '0+', { default: -1 }), int32('epoch', '0+', { default: -1 })],
          {
            tag: 2,
          },
        ),
        array('abortedTransactions', '4+', [int64('producerId', '4+'), int64('firstOffset', '4+')], {
          nullable: '4+',
          ignorable: true,
        }),
        int32('preferredReadReplica', '11+', { default: -1 }),
        records('records', '0+', { nullable: '0+' }),
      ]),
    ]),
  ],
});
