// DescribeCluster (API key 60), versions 0-1, flexible in all: the brokers, the controller and the cluster id
// (KIP-700); v1 adds the endpoint type (1 brokers, 2 controllers). InitProducerId (22), versions 0-4, flexible
// from 2: a producer id and epoch for an idempotent (null transactional id) or transactional producer; v3 lets a
// producer pass its current id and epoch to bump the epoch after an error.
import { array, bool, defineApi, int16, int32, int64, int8, string } from '../schema.js';

export const describeCluster = defineApi({
  name: 'DescribeCluster',
  apiKey: 60,
  versions: '0-1',
  flexible: '0+',
  request: [bool('includeClusterAuthorizedOperations', '0+'), int8('endpointType', '1+', { default: 1 })],
  response: [
    int32('throttleTimeMs', '0+'),
    int16('errorCode', '0+'),
    string('errorMessage', '0+', { nullable: '0+', default: null }),
    int8('endpointType', '1+', { default: 1 }),
    string('clusterId', '0+'),
    int32('controllerId', '0+', { default: -1 }),
    array('brokers', '0+', [
      int32('brokerId', '0+'),
      string('host', '0+'),
      int32('port', '0+'),
      string('rack', '0+', { nullable: '0+', default: null }),
    ]),
    int32('clusterAuthorizedOperations', '0+', { default: -2147483648 }),
  ],
});

export const initProducerId = defineApi({
  name: 'InitProducerId',
  apiKey: 22,
  versions: '0-4',
  flexible: '2+',
  request: [
    string('transactionalId', '0+', { nullable: '0+' }),
    int32('transactionTimeoutMs', '0+'),
    int64('producerId', '3+', { default: -1 }),
    int16('producerEpoch', '3+', { default: -1 }),
  ],
  response: [
    int32('throttleTimeMs', '0+', { ignorable: true }),
    int16('errorCode', '0+'),
    int64('producerId', '0+', { default: -1 }),
    int16('producerEpoch', '0+'),
  ],
});
