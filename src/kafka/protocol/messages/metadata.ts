// Metadata (API key 3), versions 1-12; flexible from 9. Request: a null topic list asks for every topic (v1+); an
// empty one for none. v10+ carry topic ids (v10 and v11 clients must not use them to ask; v12 may, with a null
// name). Response: the brokers, the controller, and per topic its partitions with leader, leader epoch (v7+),
// replicas, ISR and offline replicas (v5+).
import { array, bool, defineApi, int16, int32, scalars, string, uuid } from '../schema.js';

export const metadata = defineApi({
  name: 'Metadata',
  apiKey: 3,
  versions: '1-12',
  flexible: '9+',
  request: [
    array('topics', '0+', [uuid('topicId', '10+', { ignorable: true }), string('name', '0+', { nullable: '10+' })], {
      nullable: '1+',
    }),
    bool('allowAutoTopicCreation', '4+', { default: true }),
    bool('includeClusterAuthorizedOperations', '8-10'),
    bool('includeTopicAuthorizedOperations', '8+'),
  ],
  response: [
    int32('throttleTimeMs', '3+', { ignorable: true }),
    array('brokers', '0+', [
      int32('nodeId', '0+'),
      string('host', '0+'),
      int32('port', '0+'),
      string('rack', '1+', { nullable: '1+', default: null, ignorable: true }),
    ]),
    string('clusterId', '2+', { nullable: '2+', default: null, ignorable: true }),
    int32('controllerId', '1+', { default: -1, ignorable: true }),
    array('topics', '0+', [
      int16('errorCode', '0+'),
      string('name', '0+', { nullable: '12+' }),
      uuid('topicId', '10+', { ignorable: true }),
      bool('isInternal', '1+', { default: false, ignorable: true }),
      array('partitions', '0+', [
        int16('errorCode', '0+'),
        int32('partitionIndex', '0+'),
        int32('leaderId', '0+'),
        int32('leaderEpoch', '7+', { default: -1, ignorable: true }),
        scalars('replicaNodes', 'int32', '0+'),
        scalars('isrNodes', 'int32', '0+'),
        scalars('offlineReplicas', 'int32', '5+', { ignorable: true }),
      ]),
      int32('topicAuthorizedOperations', '8+', { default: -2147483648 }),
    ]),
    int32('clusterAuthorizedOperations', '8-10', { default: -2147483648 }),
  ],
});
