// SyncGroup (14), v0-5: the leader of a classic group hands in every member's assignment, and each member gets its
// own once the leader's is written to __consumer_offsets (the answer waits until then); v3+ static members name
// their instance id; v5 names the protocol type and name, checked against the group's. Authorization: READ on
// the group. Exclusive: the request waits for the group.
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, groupResource } from '../kafka-authorization.js';
import { defineHandler } from '../kafka-handler.js';
import { groupErrorCode } from '../group-errors.js';

export const syncGroupHandler = defineHandler({
  api: 'SyncGroup',
  minVersion: 0,
  maxVersion: 5,
  ordering: 'exclusive',
  async handle(request, context) {
    const body = request.body;
    if (!authorized(context, 'SyncGroup', 'READ', groupResource(body.groupId))) {
      return { throttleTimeMs: 0, errorCode: KafkaErrorCode.GROUP_AUTHORIZATION_FAILED, assignment: Buffer.alloc(0) };
    }
    const answer = await context.services.groups.sync(body.groupId, {
      memberId: body.memberId,
      groupInstanceId: body.groupInstanceId,
      generation: body.generationId,
      protocolType: body.protocolType,
      protocolName: body.protocolName,
      assignments: body.assignments.map(({ memberId, assignment }) => ({
        memberId,
        assignment: Buffer.from(assignment),
      })),
    });
    return {
      throttleTimeMs: 0,
      errorCode: groupErrorCode(answer.error),
      protocolType: answer.protocolType,
      protocolName: answer.protocolName,
      assignment: answer.assignment,
    };
  },
});
