// Topic administration. CreateTopics (API key 19), versions 2-7, flexible from 5: -1 partitions or replication
// factor (v4+) means the broker's default; v5 answers the created topic's partitions, replication factor and
// configs; v7 its topic id. DeleteTopics (20), versions 1-6, flexible from 4: by name, or (v6) by name or topic
// id. CreatePartitions (37), versions 0-3, flexible from 2: a topic's new total partition count, with optional
// replica assignments for the new partitions.
import { array, bool, defineApi, int16, int32, int8, scalars, string, uuid } from '../schema.js';

export const createTopics = defineApi({
  name: 'CreateTopics',
  apiKey: 19,
  versions: '2-7',
  flexible: '5+',
  request: [
    array('topics', '0+', [
      string('name', '0+'),
      int32('numPartitions', '0+'),
      int16('replicationFactor', '0+'),
      array('assignments', '0+', [int32('partitionIndex', '0+'), scalars('brokerIds', 'int32', '0+')]),
      array('configs', '0+', [string('name', '0+'), string('value', '0+', { nullable: '0+' })]),
    ]),
    int32('timeoutMs', '0+', { default: 60000 }),
    bool('validateOnly', '1+', { default: false }),
  ],
  response: [
    int32('throttleTimeMs', '2+', { ignorable: true }),
    array('topics', '0+', [
      string('name', '0+'),
      uuid('topicId', '7+', { ignorable: true }),
      int16('errorCode', '0+'),
      string('errorMessage', '1+', { nullable: '0+', ignorable: true }),
      int16('topicConfigErrorCode', '5+', { tag: 0, ignorable: true }),
      int32('numPartitions', '5+', { default: -1, ignorable: true }),
      int16('replicationFactor', '5+', { default: -1, ignorable: true }),
      array(
        'configs',
        '5+',
        [
          string('name', '5+'),
          string('value', '5+', { nullable: '5+' }),
          bool('readOnly', '5+'),
          int8('configSource', '5+', { default: -1, ignorable: true }),
          bool('isSensitive', '5+'),
        ],
        { nullable: '5+', ignorable: true },
      ),
    ]),
  ],
});

export const deleteTopics = defineApi({
  name: 'DeleteTopics',
  apiKey: 20,
  versions: '1-6',
  flexible: '4+',
  request: [
    array('topics', '6+', [string('name', '6+', { nullable: '6+', default: null }), uuid('topicId', '6+')]),
    scalars('topicNames', 'string', '0-5', { ignorable: true }),
    int32('timeoutMs', '0+'),
  ],
  response: [
    int32('throttleTimeMs', '1+', { ignorable: true }),
    array('responses', '0+', [
      string('name', '0+', { nullable: '6+' }),
      uuid('topicId', '6+', { ignorable: true }),
      int16('errorCode', '0+'),
      string('errorMessage', '5+', { nullable: '5+', default: null, ignorable: true }),
    ]),
  ],
});

export const createPartitions = defineApi({
  name: 'CreatePartitions',
  apiKey: 37,
  versions: '0-3',
  flexible: '2+',
  request: [
    array('topics', '0+', [
      string('name', '0+'),
      int32('count', '0+'),
      array('assignments', '0+', [scalars('brokerIds', 'int32', '0+')], { nullable: '0+' }),
    ]),
    int32('timeoutMs', '0+'),
    bool('validateOnly', '0+'),
  ],
  response: [
    int32('throttleTimeMs', '0+'),
    array('results', '0+', [
      string('name', '0+'),
      int16('errorCode', '0+'),
      string('errorMessage', '0+', { nullable: '0+', default: null }),
    ]),
  ],
});
