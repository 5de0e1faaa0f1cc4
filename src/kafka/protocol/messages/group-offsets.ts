// A group's committed offsets. OffsetCommit (API key 8), versions 2-9, flexible from 8: v2-4 carry a retention
// time (-1: the broker's), v5 drops it, v6 adds each partition's leader epoch, v7 the static instance id, v9 is
// the first for KIP-848 groups (the generation field then holds the member epoch; classic groups use it as the
// generation). OffsetFetch (API key 9), versions 1-9, flexible from 6: a null topic list (v2+) asks for every
// committed partition; v2 adds a top-level error code, v5 each partition's leader epoch, v7 require-stable, and
// v8 asks for several groups at once (one result per group); v9 the member id and epoch (KIP-848).
import { array, bool, defineApi, int16, int32, int64, scalars, string } from '../schema.js';

export const offsetCommit = defineApi({
  name: 'OffsetCommit',
  apiKey: 8,
  versions: '2-9',
  flexible: '8+',
  request: [
    string('groupId', '0+'),
    int32('generationIdOrMemberEpoch', '1+', { default: -1, ignorable: true }),
    string('memberId', '1+', { ignorable: true }),
    string('groupInstanceId', '7+', { nullable: '7+', default: null }),
    int64('retentionTimeMs', '2-4', { default: -1, ignorable: true }),
    array('topics', '0+', [
      string('name', '0+'),
      array('partitions', '0+', [
        int32('partitionIndex', '0+'),
        int64('committedOffset', '0+'),
        int32('committedLeaderEpoch', '6+', { default: -1, ignorable: true }),
        string('committedMetadata', '0+', { nullable: '0+' }),
      ]),
    ]),
  ],
  response: [
    int32('throttleTimeMs', '3+', { ignorable: true }),
    array('topics', '0+', [
      string('name', '0+'),
      array('partitions', '0+', [int32('partitionIndex', '0+'), int16('errorCode', '0+')]),
    ]),
  ],
});

export const offsetFetch = defineApi({
  name: 'OffsetFetch',
  apiKey: 9,
  versions: '1-9',
  flexible: '6+',
  request: [
    string('groupId', '0-7'),
    array('topics', '0-7', [string('name', '0-7'), scalars('partitionIndexes', 'int32', '0-7')], {
      nullable: '2-7',
    }),
    array('groups', '8+', [
      string('groupId', '8+'),
      string('memberId', '9+', { nullable: '9+', default: null, ignorable: true }),
      int32('memberEpoch', '9+', { default: -1, ignorable: true }),
      array('topics', '8+', [string('name', '8+'), scalars('partitionIndexes', 'int32', '8+')], { nullable: '8+' }),
    ]),
    bool('requireStable', '7+', { default: false }),
  ],
  response: [
    int32('throttleTimeMs', '3+', { ignorable: true }),
    array('topics', '0-7', [
      string('name', '0-7'),
      array('partitions', '0-7', [
        int32('partitionIndex', '0-7'),
        int64('committedOffset', '0-7'),
        int32('committedLeaderEpoch', '5-7', { default: -1, ignorable: true }),
        string('metadata', '0-7', { nullable: '0-7' }),
        int16('errorCode', '0-7'),
      ]),
    ]),
    int16('errorCode', '2-7', { default: 0, ignorable: true }),
    array('groups', '8+', [
      string('groupId', '8+'),
      array('topics', '8+', [
        string('name', '8+'),
        array('partitions', '8+', [
          int32('partitionIndex', '8+'),
          int64('committedOffset', '8+'),
          int32('committedLeaderEpoch', '8+', { default: -1, ignorable: true }),
          string('metadata', '8+', { nullable: '8+' }),
          int16('errorCode', '8+'),
        ]),
      ]),
      int16('errorCode', '8+', { default: 0 }),
    ]),
  ],
});
