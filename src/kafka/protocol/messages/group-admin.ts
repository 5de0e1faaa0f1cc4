// Group administration. DescribeGroups (API key 15), versions 0-5, flexible from 5: v3 the authorized operations,
// v4 the members' static instance ids. ListGroups (16), versions 0-4, flexible from 3: v4 filters by state and
// answers each group's state. DeleteGroups (42), versions 0-2, flexible from 2.
import { array, bool, bytes, defineApi, int16, int32, scalars, string } from '../schema.js';

export const describeGroups = defineApi({
  name: 'DescribeGroups',
  apiKey: 15,
  versions: '0-5',
  flexible: '5+',
  request: [scalars('groups', 'string', '0+'), bool('includeAuthorizedOperations', '3+')],
  response: [
    int32('throttleTimeMs', '1+', { ignorable: true }),
    array('groups', '0+', [
      int16('errorCode', '0+'),
      string('groupId', '0+'),
      string('groupState', '0+'),
      string('protocolType', '0+'),
      string('protocolData', '0+'),
      array('members', '0+', [
        string('memberId', '0+'),
        string('groupInstanceId', '4+', { nullable: '4+', default: null, ignorable: true }),
        string('clientId', '0+'),
        string('clientHost', '0+'),
        bytes('memberMetadata', '0+'),
        bytes('memberAssignment', '0+'),
      ]),
      int32('authorizedOperations', '3+', { default: -2147483648 }),
    ]),
  ],
});

export const listGroups = defineApi({
  name: 'ListGroups',
  apiKey: 16,
  versions: '0-4',
  flexible: '3+',
  request: [scalars('statesFilter', 'string', '4+')],
  response: [
    int32('throttleTimeMs', '1+', { ignorable: true }),
    int16('errorCode', '0+'),
    array('groups', '0+', [
      string('groupId', '0+'),
      string('protocolType', '0+'),
      string('groupState', '4+', { ignorable: true }),
    ]),
  ],
});

export const deleteGroups = defineApi({
  name: 'DeleteGroups',
  apiKey: 42,
  versions: '0-2',
  flexible: '2+',
  request: [scalars('groupsNames', 'string', '0+')],
  response: [
    int32('throttleTimeMs', '0+'),
    array('results', '0+', [string('groupId', '0+'), int16('errorCode', '0+')]),
  ],
});
