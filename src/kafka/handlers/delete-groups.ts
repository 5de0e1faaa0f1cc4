// DeleteGroups (42), v0-2: deletes empty groups and their committed offsets (a tombstone in __consumer_offsets, as
// REST's group deletion writes), each group answered on its own: GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP while it has
// members (Kafka clients, REST v2 instances or WebSocket/SSE members), NOT_COORDINATOR elsewhere.
// Authorization: DELETE on each group. Exclusive: the deletions are written before the next request starts.
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, groupResource } from '../kafka-authorization.js';
import { defineHandler } from '../kafka-handler.js';
import { groupErrorCode } from '../group-errors.js';

export const deleteGroupsHandler = defineHandler({
  api: 'DeleteGroups',
  minVersion: 0,
  maxVersion: 2,
  ordering: 'exclusive',
  async handle(request, context) {
    const results = [];
    for (const groupId of request.body.groupsNames) {
      if (!authorized(context, 'DeleteGroups', 'DELETE', groupResource(groupId))) {
        results.push({ groupId, errorCode: KafkaErrorCode.GROUP_AUTHORIZATION_FAILED });
        continue;
      }
      results.push({ groupId, errorCode: groupErrorCode(await context.services.groups.delete(groupId)) });
    }
    return { throttleTimeMs: 0, results };
  },
});
