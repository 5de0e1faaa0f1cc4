// The two offset look-ups. ListOffsets (API key 2), versions 1-7, flexible from 6: per partition the offset for
// a timestamp (-1 latest, -2 earliest, -3 the record with the largest timestamp, v7+); v2 adds the isolation
// level, v4 the current leader epoch (fencing) and the answer's leader epoch. OffsetForLeaderEpoch (API key 23),
// versions 2-4, flexible from 4: the end offset of a leader epoch, which a consumer uses to detect log truncation
// after a leader change (KIP-320); v3 adds the replica id (-2 for a consumer-side debugging client, -1 a consumer).
import { array, defineApi, int16, int32, int64, int8, string } from '../schema.js';

export const listOffsets = defineApi({
  name: 'ListOffsets',
  apiKey: 2,
  versions: '1-7',
  flexible: '6+',
  request: [
    int32('replicaId', '0+'),
    int8('isolationLevel', '2+'),
    array('topics', '0+', [
      string('name', '0+'),
      array('partitions', '0+', [
        int32('partitionIndex', '0+'),
        int32('currentLeaderEpoch', '4+', { default: -1, ignorable: true }),
        int64('timestamp', '0+'),
      ]),
    ]),
  ],
  response: [
    int32('throttleTimeMs', '2+', { ignorable: true }),
    array('topics', '0+', [
      string('name', '0+'),
      array('partitions', '0+', [
        int32('partitionIndex', '0+'),
        int16('errorCode', '0+'),
        int64('timestamp', '1+', { default: -1 }),
        int64('offset', '1+', { default: -1 }),
        int32('leaderEpoch', '4+', { default: -1 }),
      ]),
    ]),
  ],
});

export const offsetForLeaderEpoch = defineApi({
  name: 'OffsetForLeaderEpoch',
  apiKey: 23,
  versions: '2-4',
  flexible: '4+',
  request: [
    int32('replicaId', '3+', { default: -2, ignorable: true }),
    array('topics', '0+', [
      string('topic', '0+'),
      array('partitions', '0+', [
        int32('partition', '0+'),
        int32('currentLeaderEpoch', '2+', { default: -1, ignorable: true }),
        int32('leaderEpoch', '0+'),
      ]),
    ]),
  ],
  response: [
    int32('throttleTimeMs', '2+', { ignorable: true }),
    array('topics', '0+', [
      string('topic', '0+'),
      array('partitions', '0+', [
        int16('errorCode', '0+'),
        int32('partition', '0+'),
        int32('leaderEpoch', '1+', { default: -1, ignorable: true }),
        int64('endOffset', '0+', { default: -1 }),
      ]),
    ]),
  ],
});
