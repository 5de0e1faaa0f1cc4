// The registry of Brook's Kafka message table: every API Brook can decode and encode, by name and by key, and
// the TypeScript types of their bodies, derived from the table (schema.ts).
import { type ApiDefinition, type Body, type InputBody, parseVersions } from './schema.js';
import { createAcls, deleteAcls, describeAcls } from './messages/acls.js';
import { apiVersions } from './messages/api-versions.js';
import { describeCluster, initProducerId } from './messages/cluster.js';
import { alterConfigs, describeConfigs, incrementalAlterConfigs } from './messages/configs.js';
import { fetch } from './messages/fetch.js';
import { deleteGroups, describeGroups, listGroups } from './messages/group-admin.js';
import { findCoordinator, heartbeat, joinGroup, leaveGroup, syncGroup } from './messages/group-membership.js';
import { offsetCommit, offsetFetch } from './messages/group-offsets.js';
import { metadata } from './messages/metadata.js';
import { listOffsets, offsetForLeaderEpoch } from './messages/offsets.js';
import { produce } from './messages/produce.js';
import { saslAuthenticate, saslHandshake } from './messages/sasl.js';
import { createPartitions, createTopics, deleteTopics } from './messages/topic-admin.js';

export const KAFKA_APIS = [
  produce,
  fetch,
  listOffsets,
  metadata,
  offsetCommit,
  offsetFetch,
  findCoordinator,
  joinGroup,
  heartbeat,
  leaveGroup,
  syncGroup,
  describeGroups,
  listGroups,
  saslHandshake,
  apiVersions,
  createTopics,
  deleteTopics,
  initProducerId,
  offsetForLeaderEpoch,
  describeAcls,
  createAcls,
  deleteAcls,
  describeConfigs,
  alterConfigs,
  saslAuthenticate,
  createPartitions,
  deleteGroups,
  incrementalAlterConfigs,
  describeCluster,
] as const;

type KafkaApi = (typeof KAFKA_APIS)[number];
export type ApiName = KafkaApi['name'];
type ApiNamed<N extends ApiName> = Extract<KafkaApi, { readonly name: N }>;
export type ApiKeyOf<N extends ApiName> = ApiNamed<N>['apiKey'];

/** A decoded request body: every field of every version, the ones the version lacks at their defaults. */
export type RequestBody<N extends ApiName> = Body<ApiNamed<N>['request']>;
export type ResponseBody<N extends ApiName> = Body<ApiNamed<N>['response']>;
/** What an encoder takes: fields with a default or a tag may be left out. */
export type RequestInput<N extends ApiName> = InputBody<ApiNamed<N>['request']>;
export type ResponseInput<N extends ApiName> = InputBody<ApiNamed<N>['response']>;

const API_KEY_LIMIT = 128;
const byKey: (ApiDefinition | undefined)[] = new Array<ApiDefinition | undefined>(API_KEY_LIMIT);
const byName = new Map<string, ApiDefinition>();
for (const api of KAFKA_APIS as readonly ApiDefinition[]) {
  if (byKey[api.apiKey] !== undefined || byName.has(api.name)) throw new Error(`API ${api.name} is listed twice`);
  byKey[api.apiKey] = api;
  byName.set(api.name, api);
}

export function apiByKey(apiKey: number): ApiDefinition | undefined {
  return apiKey >= 0 && apiKey < API_KEY_LIMIT ? byKey[apiKey] : undefined;
}

export function apiByName(name: ApiName): ApiDefinition {
  const api = byName.get(name);
  if (api === undefined) throw new Error(`no API named ${name}`);
  return api;
}

export interface ApiVersionRange {
  readonly apiKey: number;
  readonly name: ApiName;
  readonly minVersion: number;
  readonly maxVersion: number;
}

/** Every API and the version range Brook's codecs cover (what an ApiVersions answer may advertise at most). */
export const CODEC_VERSION_RANGES: readonly ApiVersionRange[] = (KAFKA_APIS as readonly ApiDefinition[])
  .map((api) => {
    const range = parseVersions(api.versions);
    return { apiKey: api.apiKey, name: api.name as ApiName, minVersion: range.min, maxVersion: range.max };
  })
  .sort((a, b) => a.apiKey - b.apiKey);

/**
 * The ranges for an ApiVersions answer to advertise at most: the codecs' ranges, except that Produce is
 * advertised from v0, as Kafka 4 does (KAFKA-18659): librdkafka 2.0 (and later releases until its fix of
 * confluentinc/librdkafka#4956) compresses with gzip, snappy or lz4 only when the broker's Produce range contains
 * v0, and silently sends those batches uncompressed otherwise. No client sends Produce v0-2 to a broker that has
 * v3 (every client takes the highest version both sides have); such a request still decodes to an
 * 'unsupported-version' error, after which the listener closes the connection, as Kafka 4 does.
 */
export const ADVERTISED_VERSION_RANGES: readonly ApiVersionRange[] = CODEC_VERSION_RANGES.map((range) =>
  range.name === 'Produce' ? { ...range, minVersion: 0 } : range,
);
