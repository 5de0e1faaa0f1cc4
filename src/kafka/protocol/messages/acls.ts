// ACL administration, versions 1-3 of each, flexible from 2 (v1 adds the resource pattern type: 3 literal,
// 4 prefixed, in filters also 1 any and 2 match; v3 allows the user resource type). Resource types, operations and
// permission types are Kafka's numbers (for example resource 2 topic, 3 group, 4 cluster; operation 3 read,
// 4 write; permission 2 deny, 3 allow). DescribeAcls (API key 29) and DeleteAcls (31) take filters, where a null
// string matches anything; CreateAcls (30) takes bindings.
import { array, defineApi, int16, int32, int8, string } from '../schema.js';

export const describeAcls = defineApi({
  name: 'DescribeAcls',
  apiKey: 29,
  versions: '1-3',
  flexible: '2+',
  request: [
    int8('resourceTypeFilter', '0+'),
    string('resourceNameFilter', '0+', { nullable: '0+' }),
    int8('patternTypeFilter', '1+', { default: 3 }),
    string('principalFilter', '0+', { nullable: '0+' }),
    string('hostFilter', '0+', { nullable: '0+' }),
    int8('operation', '0+'),
    int8('permissionType', '0+'),
  ],
  response: [
    int32('throttleTimeMs', '0+'),
    int16('errorCode', '0+'),
    string('errorMessage', '0+', { nullable: '0+' }),
    array('resources', '0+', [
      int8('resourceType', '0+'),
      string('resourceName', '0+'),
      int8('patternType', '1+', { default: 3 }),
      array('acls', '0+', [
        string('principal', '0+'),
        string('host', '0+'),
        int8('operation', '0+'),
        int8('permissionType', '0+'),
      ]),
    ]),
  ],
});

export const createAcls = defineApi({
  name: 'CreateAcls',
  apiKey: 30,
  versions: '1-3',
  flexible: '2+',
  request: [
    array('creations', '0+', [
      int8('resourceType', '0+'),
      string('resourceName', '0+'),
      int8('resourcePatternType', '1+', { default: 3 }),
      string('principal', '0+'),
      string('host', '0+'),
      int8('operation', '0+'),
      int8('permissionType', '0+'),
    ]),
  ],
  response: [
    int32('throttleTimeMs', '0+'),
    array('results', '0+', [int16('errorCode', '0+'), string('errorMessage', '0+', { nullable: '0+' })]),
  ],
});

export const deleteAcls = defineApi({
  name: 'DeleteAcls',
  apiKey: 31,
  versions: '1-3',
  flexible: '2+',
  request: [
    array('filters', '0+', [
      int8('resourceTypeFilter', '0+'),
      string('resourceNameFilter', '0+', { nullable: '0+' }),
      int8('patternTypeFilter', '1+', { default: 3 }),
      string('principalFilter', '0+', { nullable: '0+' }),
      string('hostFilter', '0+', { nullable: '0+' }),
      int8('operation', '0+'),
      int8('permissionType', '0+'),
    ]),
  ],
  response: [
    int32('throttleTimeMs', '0+'),
    array('filterResults', '0+', [
      int16('errorCode', '0+'),
      string('errorMessage', '0+', { nullable: '0+' }),
      array('matchingAcls', '0+', [
        int16('errorCode', '0+'),
        string('errorMessage', '0+', { nullable: '0+' }),
        int8('resourceType', '0+'),
        string('resourceName', '0+'),
        int8('patternType', '1+', { default: 3 }),
        string('principal', '0+'),
        string('host', '0+'),
        int8('operation', '0+'),
        int8('permissionType', '0+'),
      ]),
    ]),
  ],
});
