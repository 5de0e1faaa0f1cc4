// DeleteTopics (20), v1-6: each topic through the controller, as REST's DELETE .../topics/{t} does; v6 names a
// topic by name or by id (UNKNOWN_TOPIC_ID for an id no topic has). Authorization: DELETE on the topic.
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, topicResource } from '../kafka-authorization.js';
import { kafkaFailure } from '../kafka-errors.js';
import { defineHandler, type KafkaRequestContext } from '../kafka-handler.js';
import { wireTopicId } from './metadata.js';

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

export const deleteTopicsHandler = defineHandler({
  api: 'DeleteTopics',
  minVersion: 1,
  maxVersion: 6,
  ordering: 'exclusive',
  async handle(request, context) {
    const wanted =
      request.apiVersion >= 6
        ? request.body.topics
        : request.body.topicNames.map((name) => ({ name, topicId: ZERO_UUID }));
    const responses = [];
    for (const topic of wanted) responses.push(await deleteOne(context, topic.name, topic.topicId));
    return { throttleTimeMs: 0, responses };
  },
});

async function deleteOne(context: KafkaRequestContext, givenName: string | null, topicId: string) {
  const { metadata, controller } = context.services;
  const name =
    givenName ??
    [...metadata.allTopics().values()].find((topic) => topic.assignment.topicId === topicId)?.assignment.name ??
    null;
  const answer = (errorCode: number, errorMessage: string | null) => ({
    name: givenName ?? name,
    topicId: givenName === null ? topicId : wireTopicId(metadata.topic(givenName)?.assignment.topicId ?? ZERO_UUID),
    errorCode,
    errorMessage,
  });
  if (name === null) return answer(KafkaErrorCode.UNKNOWN_TOPIC_ID, `no topic has the id ${topicId}`);
  if (!authorized(context, 'DeleteTopics', 'DELETE', topicResource(name))) {
    return answer(KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED, `not authorized to DELETE topic ${name}`);
  }
  const before = answer(KafkaErrorCode.NONE, null);
  try {
    await controller.deleteTopic(name);
  } catch (error) {
    const { errorCode, errorMessage } = kafkaFailure(error);
    return answer(errorCode, errorMessage);
  }
  return before;
}
