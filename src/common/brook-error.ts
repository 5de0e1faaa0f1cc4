// Errors that reach API clients: an HTTP status and Confluent's error code (the status itself for generic HTTP
// errors, five digits for Kafka-level ones). Thrown anywhere below the edges; rendered by the exception filter
// as {"error_code": ..., "message": ...}. Where one HTTP code stands for several conditions that another protocol
// tells apart (the Kafka listener answers TOPIC_ALREADY_EXISTS, INVALID_CONFIG, NOT_ENOUGH_REPLICAS...), the error
// also names its condition.
//
// A produce that failed after its request may have been appended (the connection to the leader broke after the
// request was sent, the acks=all wait timed out, the ISR shrank or leadership moved after the append) carries
// outcome 'unknown': the records may or may not be committed, so a client must not retry it blindly. HTTP answers
// say so in the Brook-Outcome header, v2 per-record errors and WebSocket error frames in an `outcome` field. A
// failure with nothing appended carries no outcome.

export type OutcomeMarker = 'unknown';

/** The header of an answer whose produce outcome is unknown (value: `unknown`). */
export const OUTCOME_HEADER = 'brook-outcome';

/** Conditions that share an HTTP error code but not a Kafka error code. */
export type ErrorCondition =
  | 'topic-exists'
  | 'invalid-topic'
  | 'invalid-config'
  | 'invalid-replication-factor'
  | 'invalid-partitions'
  | 'not-enough-replicas'
  | 'not-enough-replicas-after-append'
  | 'unknown-leader-epoch';

export class BrookError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: number,
    message: string,
    readonly retryAfterSeconds?: number,
    readonly outcome?: OutcomeMarker,
    readonly condition?: ErrorCondition,
  ) {
    super(message);
  }
}

/** `{outcome: 'unknown'}` for an error whose produce outcome is unknown, else `{}`: spread into per-record errors. */
export function outcomeField(error: BrookError): { outcome?: OutcomeMarker } {
  return error.outcome === undefined ? {} : { outcome: error.outcome };
}

/** Confluent has no code for Kafka's FENCED_LEADER_EPOCH; Brook's internal routes use this one. */
export const FENCED_LEADER_EPOCH_CODE = 40905;
/** Nor for STALE_BROKER_EPOCH: a request from an older incarnation of a broker than one already seen. */
export const STALE_BROKER_EPOCH_CODE = 40910;
/** Brook's code for a group that Kafka clients use, refused to REST v2 instances and WebSocket or SSE members. */
export const GROUP_USED_BY_KAFKA_CLIENTS_CODE = 40907;
/** Idempotent produce: a batch whose sequence does not follow its producer's last (OUT_OF_ORDER_SEQUENCE_NUMBER). */
export const OUT_OF_ORDER_SEQUENCE_CODE = 40908;
/** Idempotent produce: a producer epoch older than the partition's for that producer id (INVALID_PRODUCER_EPOCH). */
export const INVALID_PRODUCER_EPOCH_CODE = 40909;
/** Idempotent produce: a producer id that Brook never handed out, or whose state expired (UNKNOWN_PRODUCER_ID). */
export const UNKNOWN_PRODUCER_ID_CODE = 42292;

export const errors = {
  badRequest: (message: string) => new BrookError(400, 400, message),
  invalidRequest: (message: string) => new BrookError(400, 40002, message),
  topicExists: (topic: string) =>
    new BrookError(400, 40002, `Topic '${topic}' already exists.`, undefined, undefined, 'topic-exists'),
  /** A topic name that is not legal, or that collides with another topic's once '.' and '_' are alike. */
  invalidTopic: (message: string) => new BrookError(400, 40002, message, undefined, undefined, 'invalid-topic'),
  invalidConfig: (message: string) => new BrookError(400, 40002, message, undefined, undefined, 'invalid-config'),
  invalidReplicationFactor: (message: string) =>
    new BrookError(400, 40002, message, undefined, undefined, 'invalid-replication-factor'),
  invalidPartitions: (message: string) =>
    new BrookError(400, 40002, message, undefined, undefined, 'invalid-partitions'),
  notFound: (message: string) => new BrookError(404, 404, message),
  clusterNotFound: (clusterId: string) => new BrookError(404, 404, `Cluster ${clusterId} cannot be found.`),
  brokerNotFound: (brokerId: string | number) => new BrookError(404, 404, `Broker ${brokerId} cannot be found.`),
  topicNotFound: (topic: string) => new BrookError(404, 40401, `Topic ${topic} not found.`),
  partitionNotFound: (partition: number | string) => new BrookError(404, 40402, `Partition ${partition} not found.`),
  unknownTopicOrPartition: (message: string) => new BrookError(404, 40403, message),
  configNotFound: (name: string) => new BrookError(404, 404, `Config ${name} cannot be found.`),
  leaderNotAvailable: (message: string) => new BrookError(404, 40404, message),
  unprocessable: (message: string) => new BrookError(422, 422, message),
  invalidPayload: (message: string) => new BrookError(422, 42206, message),
  /** Confluent's answer to a v3 write without a body. */
  emptyBody: () => new BrookError(422, 42206, 'Payload error. Request body is empty. Data is required.'),
  recordTooLarge: (message: string) => new BrookError(413, 413, message),
  kafkaError: (message: string) => new BrookError(500, 50002, message),
  retriable: (message: string) => new BrookError(503, 50003, message),
  /** A produce whose records may or may not have been appended and committed: retriable, outcome unknown. */
  outcomeUnknown: (message: string) => new BrookError(503, 50003, message, undefined, 'unknown'),
  brokerNotAvailable: (message: string) => new BrookError(503, 50302, message),
  consumerInstanceNotFound: (group: string, instance: string) =>
    new BrookError(404, 40403, `Consumer instance ${instance} of group ${group} not found.`),
  consumerInstanceExists: (group: string, instance: string) =>
    new BrookError(
      409,
      40902,
      `Consumer instance with the specified name ${instance} already exists in group ${group}.`,
    ),
  consumerFormatMismatch: (message: string) => new BrookError(406, 40601, message),
  invalidConsumerConfig: (message: string) => new BrookError(422, 42204, message),
  subscriptionConflict: (message: string) => new BrookError(409, 40901, message),
  /** A commit or seek from a member that no longer owns the partition, or owned it only in an older generation. */
  fencedMember: (message: string) => new BrookError(409, 40903, message),
  /** A seek on a partition the consumer instance is not assigned (Confluent's 40903, as for a fenced commit). */
  partitionNotAssigned: (message: string) => new BrookError(409, 40903, message),
  groupNotEmpty: (group: string) =>
    new BrookError(409, 40904, `Consumer group ${group} has active members; stop them first.`),
  /** Brook's own code: a group is used by Kafka clients or by Brook-assigned members, never both at once. */
  groupUsedByKafkaClients: (group: string) =>
    new BrookError(
      409,
      GROUP_USED_BY_KAFKA_CLIENTS_CODE,
      `Consumer group ${group} is in use by Kafka clients (Kafka's group protocol); REST v2 consumer instances and WebSocket or SSE group members can join it once it has no Kafka members. Its committed offsets can still be read.`,
    ),
  groupNotFound: (group: string) => new BrookError(404, 404, `Consumer group ${group} cannot be found.`),
  tooManyRequests: (message: string, retryAfterSeconds = 1) => new BrookError(429, 42901, message, retryAfterSeconds),
  /** acks=all with an ISR smaller than min.insync.replicas: refused before appending (Kafka's NOT_ENOUGH_REPLICAS). */
  notEnoughReplicas: (message: string) =>
    new BrookError(503, 50003, `Not enough replicas: ${message}`, undefined, undefined, 'not-enough-replicas'),
  /** acks=all whose ISR shrank below min.insync.replicas once appended: the outcome is unknown. */
  notEnoughReplicasAfterAppend: (message: string) =>
    new BrookError(
      503,
      50003,
      `Not enough replicas: ${message}`,
      undefined,
      'unknown',
      'not-enough-replicas-after-append',
    ),
  /** Idempotent produce: the batch's sequence does not follow the producer's last (Kafka's OUT_OF_ORDER_SEQUENCE_NUMBER). */
  outOfOrderSequence: (message: string) => new BrookError(409, OUT_OF_ORDER_SEQUENCE_CODE, message),
  /** Idempotent produce: the producer epoch is older than the partition's (Kafka's INVALID_PRODUCER_EPOCH, fenced). */
  invalidProducerEpoch: (message: string) => new BrookError(409, INVALID_PRODUCER_EPOCH_CODE, message),
  /** Idempotent produce: a producer id Brook never handed out (Kafka's UNKNOWN_PRODUCER_ID). */
  unknownProducerId: (message: string) => new BrookError(422, UNKNOWN_PRODUCER_ID_CODE, message),
  /** An Idempotency-Key used again with another request body. */
  idempotencyKeyReused: (message: string) => new BrookError(422, 42291, message),
  /** An Idempotency-Key whose first request is still in flight (not yet answered, or not yet committed). */
  idempotencyKeyInFlight: (message: string) => new BrookError(409, 40906, message),
  /** Internal routes only: a request stamped with an older leader epoch than the partition's (FENCED_LEADER_EPOCH). */
  fencedLeaderEpoch: (message: string) => new BrookError(409, FENCED_LEADER_EPOCH_CODE, message),
  /** Internal routes only: a request stamped with a newer leader epoch than this broker knows (UNKNOWN_LEADER_EPOCH). */
  unknownLeaderEpoch: (message: string) =>
    new BrookError(503, 50003, message, undefined, undefined, 'unknown-leader-epoch'),
  /** Internal routes only: a follower fetch from an older incarnation of the broker than one seen (STALE_BROKER_EPOCH). */
  staleBrokerEpoch: (message: string) => new BrookError(409, STALE_BROKER_EPOCH_CODE, message),
  /** Internal routes only: a controller request stamped with an epoch older than one this broker has seen. */
  staleControllerEpoch: (epoch: number, highest: number) =>
    new BrookError(409, 409, `Stale controller epoch ${epoch}: this broker has seen epoch ${highest}.`),
};
