// Errors that reach API clients: an HTTP status and Confluent's error code (the status itself for generic HTTP
// errors, five digits for Kafka-level ones). Thrown anywhere below the edges; rendered by the exception filter
// as {"error_code": ..., "message": ...}.
//
// A produce that failed after its request may have been appended (the connection to the leader broke after the
// request was sent, the acks=all wait timed out, the ISR shrank or leadership moved after the append) carries
// outcome 'unknown': the records may or may not be committed, so a client must not retry it blindly. HTTP answers
// say so in the Brook-Outcome header, v2 per-record errors and WebSocket error frames in an `outcome` field. A
// failure with nothing appended carries no outcome.

export type OutcomeMarker = 'unknown';

/** The header of an answer whose produce outcome is unknown (value: `unknown`). */
export const OUTCOME_HEADER = 'brook-outcome';

export class BrookError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: number,
    message: string,
    readonly retryAfterSeconds?: number,
    readonly outcome?: OutcomeMarker,
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
export const STALE_BROKER_EPOCH_CODE = 40906;

export const errors = {
  badRequest: (message: string) => new BrookError(400, 400, message),
  invalidRequest: (message: string) => new BrookError(400, 40002, message),
  topicExists: (topic: string) => new BrookError(400, 40002, `Topic '${topic}' already exists.`),
  invalidConfig: (message: string) => new BrookError(400, 40002, message),
  invalidReplicationFactor: (message: string) => new BrookError(400, 40002, message),
  invalidPartitions: (message: string) => new BrookError(400, 40002, message),
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
  groupNotEmpty: (group: string) =>
    new BrookError(409, 40904, `Consumer group ${group} has active members; stop them first.`),
  groupNotFound: (group: string) => new BrookError(404, 404, `Consumer group ${group} cannot be found.`),
  tooManyRequests: (message: string, retryAfterSeconds = 1) => new BrookError(429, 42901, message, retryAfterSeconds),
  /** acks=all with an ISR smaller than min.insync.replicas: refused before appending (Kafka's NOT_ENOUGH_REPLICAS). */
  notEnoughReplicas: (message: string) => new BrookError(503, 50003, `Not enough replicas: ${message}`),
  /** Internal routes only: a request stamped with an older leader epoch than the partition's (FENCED_LEADER_EPOCH). */
  fencedLeaderEpoch: (message: string) => new BrookError(409, FENCED_LEADER_EPOCH_CODE, message),
  /** Internal routes only: a request stamped with a newer leader epoch than this broker knows (UNKNOWN_LEADER_EPOCH). */
  unknownLeaderEpoch: (message: string) => new BrookError(503, 50003, message),
  /** Internal routes only: a follower fetch from an older incarnation of the broker than one seen (STALE_BROKER_EPOCH). */
  staleBrokerEpoch: (message: string) => new BrookError(409, STALE_BROKER_EPOCH_CODE, message),
  /** Internal routes only: a controller request stamped with an epoch older than one this broker has seen. */
  staleControllerEpoch: (epoch: number, highest: number) =>
    new BrookError(409, 409, `Stale controller epoch ${epoch}: this broker has seen epoch ${highest}.`),
};
