// The coordination store's key layout: Kafka's ZooKeeper paths mapped to Brook keys (../shared/DESIGN.md §1).
//
//   brook/cluster-id                      the cluster id, written once
//   brook/controller                      controller lease (TTL), value = {brokerId, epoch, token}
//   brook/controller-epoch                counter: the controller fencing epoch
//   brook/brokers/<id>                    broker registration (TTL), value = BrokerRegistration
//   brook/broker-epoch                    counter: broker epochs
//   brook/topics/<topic>                  TopicAssignment (written only by the controller)
//   brook/partition-state/<topic>/<p>     PartitionState (compare-and-set on version)
//   brook/topic-configs/<topic>           topic config overrides {name: value}
//   brook/broker-configs/default          cluster-wide dynamic broker configs {name: value} (Kafka's
//                                         /config/brokers/<default>)
//   brook/broker-configs/<id>             one broker's dynamic broker configs {name: value} (/config/brokers/<id>)
//   brook/broker-start-configs/<id>       what broker <id> started with {name: {value, fromEnv}}, written by it at
//                                         start-up so that any broker describes its configs
//   brook/admin/plans/<uuid>              a persisted admin command (controller-election/admin-plans.ts): the
//                                         writes of a topic creation, partition addition or deletion, removed
//                                         once applied; a new controller re-applies what is left
//   brook/admin/reassign-partitions/<topic>/<p>
//                                         a partition reassignment in progress (Kafka's /admin/reassign_partitions,
//                                         controller-election/reassignment.ts): written when requested, followed
//                                         step by step by the controller, removed once complete
//   brook/schema-registry/schema-id       counter: the schema registry's ids (raised above the highest id any
//                                         broker has seen, so a store that lost its data hands out no id again)
//   brook/metadata-incarnation            random id written by a controller once the topic metadata in the
//                                         store is complete (restored, when the store came back empty). Absent:
//                                         the store lost its data and brokers keep the metadata they applied last.
export const CLUSTER_ID_KEY = 'brook/cluster-id';
export const CONTROLLER_KEY = 'brook/controller';
export const CONTROLLER_EPOCH_KEY = 'brook/controller-epoch';
export const BROKER_EPOCH_KEY = 'brook/broker-epoch';
export const METADATA_INCARNATION_KEY = 'brook/metadata-incarnation';
export const SCHEMA_ID_COUNTER_KEY = 'brook/schema-registry/schema-id';
/** The producer-id block counter (application/idempotence/producer-id-blocks.ts); only ever raised. */
export const PRODUCER_ID_BLOCK_KEY = 'brook/producer-id-block';
export const ADMIN_PLANS_PREFIX = 'brook/admin/plans/';
export const REASSIGNMENTS_PREFIX = 'brook/admin/reassign-partitions/';
export const BROKERS_PREFIX = 'brook/brokers/';
export const TOPICS_PREFIX = 'brook/topics/';
export const PARTITION_STATE_PREFIX = 'brook/partition-state/';
export const TOPIC_CONFIGS_PREFIX = 'brook/topic-configs/';
export const BROKER_CONFIGS_PREFIX = 'brook/broker-configs/';
export const BROKER_CONFIGS_DEFAULT_KEY = `${BROKER_CONFIGS_PREFIX}default`;
export const BROKER_START_CONFIGS_PREFIX = 'brook/broker-start-configs/';

export const brokerKey = (brokerId: number): string => `${BROKERS_PREFIX}${brokerId}`;
export const topicKey = (topic: string): string => `${TOPICS_PREFIX}${topic}`;
export const topicConfigKey = (topic: string): string => `${TOPIC_CONFIGS_PREFIX}${topic}`;
export const brokerConfigsKey = (brokerId: number): string => `${BROKER_CONFIGS_PREFIX}${brokerId}`;
export const brokerStartConfigsKey = (brokerId: number): string => `${BROKER_START_CONFIGS_PREFIX}${brokerId}`;
export const partitionStatePrefix = (topic: string): string => `${PARTITION_STATE_PREFIX}${topic}/`;
export const partitionStateKey = (topic: string, partition: number): string =>
  `${partitionStatePrefix(topic)}${partition}`;
export const reassignmentKey = (topic: string, partition: number): string =>
  `${REASSIGNMENTS_PREFIX}${topic}/${partition}`;
