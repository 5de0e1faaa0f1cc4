// DescribeGroups (15), v0-5: each group's state, protocol type, selected protocol and members with the metadata
// and assignment bytes they sent (group-coordinator/group-description.ts; a group Brook assigns itself is shown in
// the consumer protocol's format). A group this broker does not hold is Dead with no members, or NOT_COORDINATOR
// when another broker coordinates it, as in Kafka before v6. v3+ may ask for the principal's authorized operations
// on each group; v4+ show static members' instance ids. Authorization: DESCRIBE on each group.
// Pipelined: it reads the group coordinator's state and changes nothing.
import { KafkaErrorCode } from '../protocol/error-codes.js';
import {
  authorized,
  authorizedOperations,
  GROUP_OPERATIONS,
  groupResource,
  OPERATIONS_NOT_REQUESTED,
} from '../kafka-authorization.js';
import { defineHandler } from '../kafka-handler.js';
import { groupErrorCode } from '../group-errors.js';

export const describeGroupsHandler = defineHandler({
  api: 'DescribeGroups',
  minVersion: 0,
  maxVersion: 5,
  ordering: 'pipelined',
  handle(request, context) {
    const { groups, includeAuthorizedOperations } = request.body;
    return {
      throttleTimeMs: 0,
      groups: groups.map((groupId) => {
        const empty = { groupId, groupState: '', protocolType: '', protocolData: '', members: [] };
        if (!authorized(context, 'DescribeGroups', 'DESCRIBE', groupResource(groupId))) {
          return {
            ...empty,
            errorCode: KafkaErrorCode.GROUP_AUTHORIZATION_FAILED,
            authorizedOperations: OPERATIONS_NOT_REQUESTED,
          };
        }
        const { error, group } = context.services.groups.describe(groupId);
        const authorizedOps =
          request.apiVersion >= 3 && includeAuthorizedOperations
            ? authorizedOperations(context, groupResource(groupId), GROUP_OPERATIONS)
            : OPERATIONS_NOT_REQUESTED;
        if (error !== null) {
          return { ...empty, errorCode: groupErrorCode(error), authorizedOperations: authorizedOps };
        }
        return {
          errorCode: KafkaErrorCode.NONE,
          groupId,
          groupState: group.state,
          protocolType: group.protocolType,
          protocolData: group.protocolData,
          members: group.members.map((member) => ({
            memberId: member.memberId,
            groupInstanceId: request.apiVersion >= 4 ? member.groupInstanceId : null,
            clientId: member.clientId,
            clientHost: member.clientHost,
            memberMetadata: member.metadata,
            memberAssignment: member.assignment,
          })),
          authorizedOperations: authorizedOps,
        };
      }),
    };
  },
});
