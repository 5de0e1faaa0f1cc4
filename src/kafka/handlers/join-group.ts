// JoinGroup (11), v2-9: a Kafka client joins a consumer group of the broker's one group coordinator, through
// Kafka's classic protocol (group-coordinator/classic-membership.ts decides; this translates). v4+ new members
// first get their id with MEMBER_ID_REQUIRED; v5+ static members name their group.instance.id; v7+ the answer
// names the protocol type; v9 may tell a returning static leader to skip the assignment. The answer waits until
// the group's join phase completes. A group that REST v2 instances or WebSocket/SSE members use is refused with
// INCONSISTENT_GROUP_PROTOCOL. Authorization: READ on the group.
// Exclusive: the request waits for the group, and later requests of the connection wait behind it, as in Kafka.
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { authorized, groupResource } from '../kafka-authorization.js';
import { defineHandler } from '../kafka-handler.js';
import { clientHostOf, groupErrorCode } from '../group-errors.js';

export const joinGroupHandler = defineHandler({
  api: 'JoinGroup',
  minVersion: 2,
  maxVersion: 9,
  ordering: 'exclusive',
  async handle(request, context) {
    const body = request.body;
    const version = request.apiVersion;
    if (!authorized(context, 'JoinGroup', 'READ', groupResource(body.groupId))) {
      return {
        throttleTimeMs: 0,
        errorCode: KafkaErrorCode.GROUP_AUTHORIZATION_FAILED,
        generationId: -1,
        protocolName: version >= 7 ? null : '',
        leader: '',
        memberId: body.memberId,
        members: [],
      };
    }
    const answer = await context.services.groups.join(body.groupId, {
      memberId: body.memberId,
      groupInstanceId: body.groupInstanceId,
      clientId: context.session.clientId ?? '',
      clientHost: clientHostOf(context.session),
      protocolType: body.protocolType,
      protocols: body.protocols.map(({ name, metadata }) => ({ name, metadata: Buffer.from(metadata) })),
      sessionTimeoutMs: body.sessionTimeoutMs,
      rebalanceTimeoutMs: body.rebalanceTimeoutMs,
      requireKnownMemberId: version >= 4,
      supportsSkipAssignment: version >= 9,
    });
    return {
      throttleTimeMs: 0,
      errorCode: groupErrorCode(answer.error),
      generationId: answer.generation,
      protocolType: answer.protocolType,
      // before v7 the protocol name is not nullable
      protocolName: version >= 7 ? answer.protocolName : (answer.protocolName ?? ''),
      leader: answer.leader,
      skipAssignment: answer.skipAssignment,
      memberId: answer.memberId,
      members: answer.members,
    };
  },
});
