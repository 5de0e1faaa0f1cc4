// Kafka's classic group protocol, membership side: FindCoordinator (API key 10, versions 0-4, flexible from 3;
// v1 adds the key type, 0 group and 1 transaction; v4 asks for several keys at once and answers a list),
// JoinGroup (11, versions 2-9, flexible from 6; v4+ may answer MEMBER_ID_REQUIRED with the member id to rejoin
// with; v5 static membership via the group instance id; v7 the protocol type in the answer; v8 a reason; v9 the
// skip-assignment flag), SyncGroup (14, versions 0-5, flexible from 4; the leader's assignments in, each
// member's out; v5 the protocol type and name), Heartbeat (12, versions 0-4, flexible from 4) and LeaveGroup (13,
// versions 0-4, flexible from 4; v3+ leave by a list of members, with the static instance ids).
// Member metadata and assignments are the consumer protocol's bytes, opaque to the broker.
import { array, bool, bytes, defineApi, int16, int32, int8, scalars, string } from '../schema.js';

export const findCoordinator = defineApi({
  name: 'FindCoordinator',
  apiKey: 10,
  versions: '0-4',
  flexible: '3+',
  request: [string('key', '0-3'), int8('keyType', '1+', { default: 0 }), scalars('coordinatorKeys', 'string', '4+')],
  response: [
    int32('throttleTimeMs', '1+', { ignorable: true }),
    int16('errorCode', '0-3'),
    string('errorMessage', '1-3', { nullable: '1-3', ignorable: true }),
    int32('nodeId', '0-3'),
    string('host', '0-3'),
    int32('port', '0-3'),
    array('coordinators', '4+', [
      string('key', '4+'),
      int32('nodeId', '4+'),
      string('host', '4+'),
      int32('port', '4+'),
      int16('errorCode', '4+'),
      string('errorMessage', '4+', { nullable: '4+', ignorable: true }),
    ]),
  ],
});

export const joinGroup = defineApi({
  name: 'JoinGroup',
  apiKey: 11,
  versions: '2-9',
  flexible: '6+',
  request: [
    string('groupId', '0+'),
    int32('sessionTimeoutMs', '0+'),
    int32('rebalanceTimeoutMs', '1+', { default: -1, ignorable: true }),
    string('memberId', '0+'),
    string('groupInstanceId', '5+', { nullable: '5+', default: null }),
    string('protocolType', '0+'),
    array('protocols', '0+', [string('name', '0+'), bytes('metadata', '0+')]),
    string('reason', '8+', { nullable: '8+', default: null, ignorable: true }),
  ],
  response: [
    int32('throttleTimeMs', '2+', { ignorable: true }),
    int16('errorCode', '0+'),
    int32('generationId', '0+', { default: -1 }),
    string('protocolType', '7+', { nullable: '7+', default: null, ignorable: true }),
    string('protocolName', '0+', { nullable: '7+' }),
    string('leader', '0+'),
    bool('skipAssignment', '9+', { default: false }),
    string('memberId', '0+'),
    array('members', '0+', [
      string('memberId', '0+'),
      string('groupInstanceId', '5+', { nullable: '5+', default: null, ignorable: true }),
      bytes('metadata', '0+'),
    ]),
  ],
});

export const syncGroup = defineApi({
  name: 'SyncGroup',
  apiKey: 14,
  versions: '0-5',
  flexible: '4+',
  request: [
    string('groupId', '0+'),
    int32('generationId', '0+'),
    string('memberId', '0+'),
    string('groupInstanceId', '3+', { nullable: '3+', default: null }),
    string('protocolType', '5+', { nullable: '5+', default: null, ignorable: true }),
    string('protocolName', '5+', { nullable: '5+', default: null, ignorable: true }),
    array('assignments', '0+', [string('memberId', '0+'), bytes('assignment', '0+')]),
  ],
  response: [
    int32('throttleTimeMs', '1+', { ignorable: true }),
    int16('errorCode', '0+'),
    string('protocolType', '5+', { nullable: '5+', default: null, ignorable: true }),
    string('protocolName', '5+', { nullable: '5+', default: null, ignorable: true }),
    bytes('assignment', '0+'),
  ],
});

export const heartbeat = defineApi({
  name: 'Heartbeat',
  apiKey: 12,
  versions: '0-4',
  flexible: '4+',
  request: [
    string('groupId', '0+'),
    int32('generationId', '0+'),
    string('memberId', '0+'),
    string('groupInstanceId', '3+', { nullable: '3+', default: null }),
  ],
  response: [int32('throttleTimeMs', '1+', { ignorable: true }), int16('errorCode', '0+')],
});

export const leaveGroup = defineApi({
  name: 'LeaveGroup',
  apiKey: 13,
  versions: '0-4',
  flexible: '4+',
  request: [
    string('groupId', '0+'),
    string('memberId', '0-2'),
    array('members', '3+', [
      string('memberId', '3+'),
      string('groupInstanceId', '3+', { nullable: '3+', default: null }),
    ]),
  ],
  response: [
    int32('throttleTimeMs', '1+', { ignorable: true }),
    int16('errorCode', '0+'),
    array('members', '3+', [
      string('memberId', '3+'),
      string('groupInstanceId', '3+', { nullable: '3+' }),
      int16('errorCode', '3+'),
    ]),
  ],
});
