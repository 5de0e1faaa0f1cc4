// LeaveGroup (13), v0-4: members leave a classic group at once (the group rebalances without them). v0-2 name one
// member; v3+ a list, each answered on its own, where an administrator may name a static member by its instance
// id alone. Authorization: READ on the group. Pipelined: it takes effect at once (the records it may cause are
// written afterwards, in the group's order).
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, groupResource } from '../kafka-authorization.js';
import { defineHandler } from '../kafka-handler.js';
import { groupErrorCode } from '../group-errors.js';

export const leaveGroupHandler = defineHandler({
  api: 'LeaveGroup',
  minVersion: 0,
  maxVersion: 4,
  ordering: 'pipelined',
  handle(request, context) {
    const body = request.body;
    const batched = request.apiVersion >= 3;
    const identities = batched ? body.members : [{ memberId: body.memberId, groupInstanceId: null }];
    if (!authorized(context, 'LeaveGroup', 'READ', groupResource(body.groupId))) {
      return { throttleTimeMs: 0, errorCode: KafkaErrorCode.GROUP_AUTHORIZATION_FAILED, members: [] };
    }
    const { error, results } = context.services.groups.leave(body.groupId, identities);
    if (!batched) return { throttleTimeMs: 0, errorCode: groupErrorCode(error ?? results[0] ?? null), members: [] };
    return {
      throttleTimeMs: 0,
      errorCode: groupErrorCode(error),
      members:
        error === null ? identities.map((identity, i) => ({ ...identity, errorCode: groupErrorCode(results[i]) })) : [],
    };
  },
});
