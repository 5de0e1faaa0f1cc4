// ListGroups (16), v0-4: the groups this broker coordinates (Kafka answers per broker; clients ask every broker),
// with their protocol types; v4 may filter by state (case-insensitive, as Kafka's) and answers each group's state.
// Authorization: DESCRIBE on the cluster lists every group; otherwise only the groups the principal may describe.
// Pipelined: it reads the group coordinator's state and changes nothing.
import { CLUSTER, authorized, groupResource } from '../kafka-authorization.js';
import { defineHandler } from '../kafka-handler.js';

export const listGroupsHandler = defineHandler({
  api: 'ListGroups',
  minVersion: 0,
  maxVersion: 4,
  ordering: 'pipelined',
  handle(request, context) {
    const states = new Set(request.body.statesFilter.map((state) => state.toLowerCase()));
    const everyGroup = authorized(context, 'ListGroups', 'DESCRIBE', CLUSTER, { quiet: true });
    const groups = context.services.groups
      .list()
      .filter((group) => states.size === 0 || states.has(group.state.toLowerCase()))
      .filter(
        (group) =>
          everyGroup || authorized(context, 'ListGroups', 'DESCRIBE', groupResource(group.groupId), { quiet: true }),
      )
      .map(({ groupId, protocolType, state }) => ({ groupId, protocolType, groupState: state }));
    return { throttleTimeMs: 0, errorCode: 0, groups };
  },
});
