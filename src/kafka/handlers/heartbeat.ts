// Heartbeat (12), v0-4: a member of a classic group says it is alive in its generation; the answer tells it to
// rejoin (REBALANCE_IN_PROGRESS), that its generation is over (ILLEGAL_GENERATION), that the group does not know
// it (UNKNOWN_MEMBER_ID) or that another process has taken its instance id (FENCED_INSTANCE_ID, v3+).
// Authorization: READ on the group. Pipelined: it takes effect at once, with no wait.
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, groupResource } from '../kafka-authorization.js';
import { defineHandler } from '../kafka-handler.js';
import { groupErrorCode } from '../group-errors.js';

export const heartbeatHandler = defineHandler({
  api: 'Heartbeat',
  minVersion: 0,
  maxVersion: 4,
  ordering: 'pipelined',
  handle(request, context) {
    const { groupId, memberId, groupInstanceId, generationId } = request.body;
    if (!authorized(context, 'Heartbeat', 'READ', groupResource(groupId))) {
      return { throttleTimeMs: 0, errorCode: KafkaErrorCode.GROUP_AUTHORIZATION_FAILED };
    }
    const error = context.services.groups.heartbeat(groupId, { memberId, groupInstanceId }, generationId);
    return { throttleTimeMs: 0, errorCode: groupErrorCode(error) };
  },
});
