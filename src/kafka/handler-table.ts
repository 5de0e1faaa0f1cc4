// The Kafka listener's one table of handlers: each API Brook serves is one entry, and ApiVersions advertises
// exactly these entries' versions (advertised-versions.ts). An API missing here is neither advertised nor served:
// a request for it closes the connection, as Kafka does with an API it does not know.
import type { ApiName } from './protocol/apis.js';
import { advertisedVersions } from './advertised-versions.js';
import type { AnyKafkaHandler } from './kafka-handler.js';
import { alterConfigsHandler } from './handlers/alter-configs.js';
import { apiVersionsHandler } from './handlers/api-versions.js';
import { createAclsHandler } from './handlers/create-acls.js';
import { createPartitionsHandler } from './handlers/create-partitions.js';
import { createTopicsHandler } from './handlers/create-topics.js';
import { deleteAclsHandler } from './handlers/delete-acls.js';
import { deleteGroupsHandler } from './handlers/delete-groups.js';
import { deleteTopicsHandler } from './handlers/delete-topics.js';
import { describeAclsHandler } from './handlers/describe-acls.js';
import { describeClusterHandler } from './handlers/describe-cluster.js';
import { describeConfigsHandler } from './handlers/describe-configs.js';
import { describeGroupsHandler } from './handlers/describe-groups.js';
import { fetchHandler } from './handlers/fetch.js';
import { findCoordinatorHandler } from './handlers/find-coordinator.js';
import { heartbeatHandler } from './handlers/heartbeat.js';
import { incrementalAlterConfigsHandler } from './handlers/incremental-alter-configs.js';
import { initProducerIdHandler } from './handlers/init-producer-id.js';
import { joinGroupHandler } from './handlers/join-group.js';
import { leaveGroupHandler } from './handlers/leave-group.js';
import { listGroupsHandler } from './handlers/list-groups.js';
import { listOffsetsHandler } from './handlers/list-offsets.js';
import { metadataHandler } from './handlers/metadata.js';
import { offsetCommitHandler } from './handlers/offset-commit.js';
import { offsetFetchHandler } from './handlers/offset-fetch.js';
import { offsetForLeaderEpochHandler } from './handlers/offset-for-leader-epoch.js';
import { produceHandler } from './handlers/produce.js';
import { saslAuthenticateHandler } from './handlers/sasl-authenticate.js';
import { saslHandshakeHandler } from './handlers/sasl-handshake.js';
import { syncGroupHandler } from './handlers/sync-group.js';

export const KAFKA_HANDLERS: readonly AnyKafkaHandler[] = [
  apiVersionsHandler(() => ADVERTISED_VERSIONS),
  metadataHandler,
  produceHandler,
  fetchHandler,
  listOffsetsHandler,
  offsetForLeaderEpochHandler,
  createTopicsHandler,
  deleteTopicsHandler,
  createPartitionsHandler,
  describeConfigsHandler,
  alterConfigsHandler,
  incrementalAlterConfigsHandler,
  describeClusterHandler,
  initProducerIdHandler,
  describeAclsHandler,
  createAclsHandler,
  deleteAclsHandler,
  saslHandshakeHandler,
  saslAuthenticateHandler,
  findCoordinatorHandler,
  joinGroupHandler,
  syncGroupHandler,
  heartbeatHandler,
  leaveGroupHandler,
  offsetCommitHandler,
  offsetFetchHandler,
  describeGroupsHandler,
  listGroupsHandler,
  deleteGroupsHandler,
];

/** What ApiVersions advertises, by API key. */
export const ADVERTISED_VERSIONS = advertisedVersions(KAFKA_HANDLERS);

const byName = new Map<ApiName, AnyKafkaHandler>(KAFKA_HANDLERS.map((handler) => [handler.api, handler]));

export function handlerFor(api: ApiName): AnyKafkaHandler | undefined {
  return byName.get(api);
}
