// CreatePartitions (37), v0-3: a topic's new total partition count through the controller, as REST's PATCH
// .../topics/{t} does. Manual assignments of the new partitions are not supported (INVALID_REPLICA_ASSIGNMENT);
// validate_only checks the count against the topic without changing it. Authorization: ALTER on the topic.
// Errors: INVALID_PARTITIONS (not more than now, or past Brook's bound), UNKNOWN_TOPIC_OR_PARTITION,
// REASSIGNMENT_IN_PROGRESS, NOT_CONTROLLER.
import { PARTITIONS_PER_TOPIC_MAX } from '../../controller-election/controller.service.js';
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, topicResource } from '../kafka-authorization.js';
import { kafkaFailure } from '../kafka-errors.js';
import { defineHandler, type KafkaRequestContext } from '../kafka-handler.js';

export const createPartitionsHandler = defineHandler({
  api: 'CreatePartitions',
  minVersion: 0,
  maxVersion: 3,
  ordering: 'exclusive',
  async handle(request, context) {
    const results = [];
    for (const topic of request.body.topics) {
      results.push(await grow(context, topic.name, topic.count, topic.assignments, request.body.validateOnly));
    }
    return { throttleTimeMs: 0, results };
  },
});

async function grow(
  context: KafkaRequestContext,
  name: string,
  count: number,
  assignments: unknown[] | null,
  validateOnly: boolean,
) {
  const result = (errorCode: number, errorMessage: string | null) => ({ name, errorCode, errorMessage });
  if (!authorized(context, 'CreatePartitions', 'ALTER', topicResource(name))) {
    return result(KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED, `not authorized to ALTER topic ${name}`);
  }
  if (assignments !== null) {
    return result(
      KafkaErrorCode.INVALID_REPLICA_ASSIGNMENT,
      'Brook places the new replicas itself: give only the new partition count',
    );
  }
  const topic = context.services.metadata.topic(name);
  if (topic === undefined) return result(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `Topic ${name} not found.`);
  if (validateOnly) {
    const existing = topic.assignment.replicas.length;
    if (count <= existing || count > PARTITIONS_PER_TOPIC_MAX) {
      return result(
        KafkaErrorCode.INVALID_PARTITIONS,
        `Topic ${name} has ${existing} partitions; the new count must be above it and at most ${PARTITIONS_PER_TOPIC_MAX}.`,
      );
    }
    return result(KafkaErrorCode.NONE, null);
  }
  try {
    await context.services.controller.addPartitions(name, count);
    return result(KafkaErrorCode.NONE, null);
  } catch (error) {
    const { errorCode, errorMessage } = kafkaFailure(error);
    return result(errorCode, errorMessage);
  }
}
