// The rights each REST route needs, in one table keyed by openapi.yaml's operation ("METHOD /path/{param}"), so
// that a unit test can hold it equal to the spec: a route without an entry is refused (403), never let through.
// A rule maps the request (path parameters, parsed body, query) to the checks it needs; topics named in a body
// are checked one by one. As in Kafka: creating a topic needs CREATE on the cluster or on the topic; a consumer
// group needs READ on the group and on each topic it reads or commits; READ, WRITE, DELETE and ALTER imply
// DESCRIBE. Lists (topics, consumer groups, a broker's replicas) need nothing and are filtered to what the caller may
// DESCRIBE (every topic's configs: DESCRIBE_CONFIGS).
// Broker configs (cluster-wide and per broker) are the cluster's configuration, as in Kafka: DESCRIBE_CONFIGS and
// ALTER_CONFIGS on the cluster. Partition reassignments and leader elections are cluster operations, as in Kafka: ALTER on the cluster to start
// or cancel them, DESCRIBE on the cluster to read them. The schema registry's routes check SUBJECT resources:
// READ to read a subject's schemas (or test one against them), WRITE to register, DELETE to delete, DESCRIBE to
// list its versions and read its compatibility and mode, ALTER_CONFIGS to change those; the global compatibility
// and mode are the cluster's configuration (DESCRIBE_CONFIGS, ALTER_CONFIGS on the cluster). A schema by id, and
// the schema types, need only an authenticated caller: deserializers know nothing but the id.
import { CLUSTER_RESOURCE_NAME, type Resource } from '../../security/acl.js';
import type { Check, CheckedOperation } from '../../security/authorizer.service.js';

export interface RouteContext {
  params: Record<string, string>;
  body: unknown;
  query: Record<string, unknown>;
  /** The topics a v2 consumer instance reads (its subscription or assignment); [] when unknown. */
  instanceTopics(group: string, instance: string): string[];
  /** The topics a consumer group has committed offsets for or is assigned. */
  groupTopics(group: string): string[];
}

/** 'public': no authentication either (probes and the API description). */
export type RouteRule = 'public' | ((context: RouteContext) => Check[]);

const topic = (name: string): Resource => ({ type: 'TOPIC', name });
const group = (name: string): Resource => ({ type: 'GROUP', name });
const subject = (name: string): Resource => ({ type: 'SUBJECT', name });
export const CLUSTER: Resource = { type: 'CLUSTER', name: CLUSTER_RESOURCE_NAME };

const on = (operation: CheckedOperation, resource: Resource): Check => ({ operation, resource });
const none = (): Check[] => [];
const topicParam = (operation: CheckedOperation) => (c: RouteContext) => [on(operation, topic(c.params.topic_name))];
const groupParam = (param: string, operation: CheckedOperation) => (c: RouteContext) => [
  on(operation, group(c.params[param])),
];
const subjectParam = (operation: CheckedOperation) => (c: RouteContext) => [on(operation, subject(c.params.subject))];
const onCluster = (operation: CheckedOperation) => () => [on(operation, CLUSTER)];

/** Topic names found in body[field][*].topic (or body[field][*] when they are strings), deduplicated. */
function bodyTopics(body: unknown, field: string, key = 'topic'): string[] {
  const list = (body as Record<string, unknown> | null | undefined)?.[field];
  if (!Array.isArray(list)) return [];
  const names = new Set<string>();
  for (const entry of list) {
    const name = typeof entry === 'string' ? entry : (entry as Record<string, unknown> | null)?.[key];
    if (typeof name === 'string') names.add(name);
  }
  return [...names];
}

const readTopics = (names: string[]) => names.map((name) => on('READ', topic(name)));

/** A v2 consumer-instance route: READ on the group and on the topics the body names or the instance reads. */
const instanceRoute =
  (field: string | null) =>
  (c: RouteContext): Check[] => {
    const named = field === null ? [] : bodyTopics(c.body, field);
    const topics = named.length > 0 ? named : c.instanceTopics(c.params.group_name, c.params.instance);
    return [on('READ', group(c.params.group_name)), ...readTopics(topics)];
  };

const G = '/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}';
const T = '/v3/clusters/{cluster_id}/topics/{topic_name}';
const I = '/consumers/{group_name}/instances/{instance}';
const S = '/subjects/{subject}';
const ID = '/schemas/ids/{id}';

export const ROUTE_RIGHTS: Readonly<Record<string, RouteRule>> = {
  'GET /healthz': 'public',
  'GET /readyz': 'public',
  'GET /openapi.yaml': 'public',
  'GET /openapi.json': 'public',
  // the console's static page and assets: every API call the page makes meets these rules with the user's credentials
  'GET /console': 'public',
  'GET /console/assets/{file}': 'public',
  'GET /metrics': () => [on('DESCRIBE', CLUSTER)],

  'GET /v3/clusters': none,
  'GET /v3/clusters/{cluster_id}': none,
  'GET /v3/clusters/{cluster_id}/brokers': none,
  'GET /v3/clusters/{cluster_id}/brokers/{broker_id}': none,
  'GET /v3/clusters/{cluster_id}/brokers/{broker_id}/partition-replicas': none,
  'GET /v3/clusters/{cluster_id}/broker-configs': onCluster('DESCRIBE_CONFIGS'),
  'POST /v3/clusters/{cluster_id}/broker-configs:alter': onCluster('ALTER_CONFIGS'),
  'GET /v3/clusters/{cluster_id}/broker-configs/{name}': onCluster('DESCRIBE_CONFIGS'),
  'PUT /v3/clusters/{cluster_id}/broker-configs/{name}': onCluster('ALTER_CONFIGS'),
  'DELETE /v3/clusters/{cluster_id}/broker-configs/{name}': onCluster('ALTER_CONFIGS'),
  'GET /v3/clusters/{cluster_id}/brokers/-/configs': onCluster('DESCRIBE_CONFIGS'),
  'GET /v3/clusters/{cluster_id}/brokers/{broker_id}/configs': onCluster('DESCRIBE_CONFIGS'),
  'POST /v3/clusters/{cluster_id}/brokers/{broker_id}/configs:alter': onCluster('ALTER_CONFIGS'),
  'GET /v3/clusters/{cluster_id}/brokers/{broker_id}/configs/{name}': onCluster('DESCRIBE_CONFIGS'),
  'PUT /v3/clusters/{cluster_id}/brokers/{broker_id}/configs/{name}': onCluster('ALTER_CONFIGS'),
  'DELETE /v3/clusters/{cluster_id}/brokers/{broker_id}/configs/{name}': onCluster('ALTER_CONFIGS'),
  'GET /v3/clusters/{cluster_id}/status': none,
  'GET /v3/clusters/{cluster_id}/topic-stats': none,
  'GET /v3/clusters/{cluster_id}/acls': () => [on('DESCRIBE', CLUSTER)],
  'POST /v3/clusters/{cluster_id}/acls': () => [on('ALTER', CLUSTER)],
  'POST /v3/clusters/{cluster_id}/acls:batch': () => [on('ALTER', CLUSTER)],
  'DELETE /v3/clusters/{cluster_id}/acls': () => [on('ALTER', CLUSTER)],
  'GET /v3/clusters/{cluster_id}/client-quotas': () => [on('DESCRIBE_CONFIGS', CLUSTER)],
  'GET /v3/clusters/{cluster_id}/client-quotas/{entity}': () => [on('DESCRIBE_CONFIGS', CLUSTER)],
  'PUT /v3/clusters/{cluster_id}/client-quotas/{entity}': () => [on('ALTER_CONFIGS', CLUSTER)],
  'DELETE /v3/clusters/{cluster_id}/client-quotas/{entity}': () => [on('ALTER_CONFIGS', CLUSTER)],

  'GET /v3/clusters/{cluster_id}/topics': none,
  'GET /v3/clusters/{cluster_id}/topics/-/configs': none,
  'POST /v3/clusters/{cluster_id}/topics': (c) => {
    const name = (c.body as Record<string, unknown> | null | undefined)?.topic_name;
    return [{ operation: 'CREATE', resource: topic(typeof name === 'string' ? name : ''), orCluster: true }];
  },
  [`GET ${T}`]: topicParam('DESCRIBE'),
  [`PATCH ${T}`]: topicParam('ALTER'),
  [`DELETE ${T}`]: topicParam('DELETE'),
  [`GET ${T}/configs`]: topicParam('DESCRIBE_CONFIGS'),
  [`POST ${T}/configs:alter`]: topicParam('ALTER_CONFIGS'),
  [`GET ${T}/configs/{name}`]: topicParam('DESCRIBE_CONFIGS'),
  [`PUT ${T}/configs/{name}`]: topicParam('ALTER_CONFIGS'),
  [`DELETE ${T}/configs/{name}`]: topicParam('ALTER_CONFIGS'),
  [`GET ${T}/partitions`]: topicParam('DESCRIBE'),
  [`GET ${T}/partitions/{partition_id}`]: topicParam('DESCRIBE'),
  [`GET ${T}/partitions/{partition_id}/replicas`]: topicParam('DESCRIBE'),
  [`GET ${T}/partitions/{partition_id}/replicas/{broker_id}`]: topicParam('DESCRIBE'),
  [`GET ${T}/partitions/{partition_id}/offset`]: topicParam('DESCRIBE'),
  'GET /v3/clusters/{cluster_id}/topics/-/partitions/-/reassignment': () => [on('DESCRIBE', CLUSTER)],
  'POST /v3/clusters/{cluster_id}/topics/-/partitions/-/reassignment': () => [on('ALTER', CLUSTER)],
  [`GET ${T}/partitions/-/reassignment`]: () => [on('DESCRIBE', CLUSTER)],
  [`GET ${T}/partitions/{partition_id}/reassignment`]: () => [on('DESCRIBE', CLUSTER)],
  'POST /v3/clusters/{cluster_id}/topics/-/partitions/-/leader-election': () => [on('ALTER', CLUSTER)],
  // a producer id writes nothing by itself (each produce still needs WRITE on its topic), as Kafka's KIP-679
  'POST /v3/clusters/{cluster_id}/producers': none,
  [`POST ${T}/records`]: topicParam('WRITE'),
  [`POST ${T}/records:batch`]: topicParam('WRITE'),
  [`GET ${T}/partitions/{partition_id}/records`]: topicParam('READ'),
  [`GET ${T}/records:stream`]: (c) => [
    on('READ', topic(c.params.topic_name)),
    // a repeated `group` is refused by the route; checking each name keeps the rule closed whatever the shape
    ...[c.query.group]
      .flat()
      .filter((name) => name !== undefined)
      .map((name) => on('READ', group(String(name)))),
  ],

  'GET /v3/clusters/{cluster_id}/consumer-groups': none,
  [`GET ${G}`]: groupParam('consumer_group_id', 'DESCRIBE'),
  [`DELETE ${G}`]: groupParam('consumer_group_id', 'DELETE'),
  [`GET ${G}/consumers`]: groupParam('consumer_group_id', 'DESCRIBE'),
  [`GET ${G}/consumers/{consumer_id}`]: groupParam('consumer_group_id', 'DESCRIBE'),
  [`GET ${G}/consumers/{consumer_id}/assignments`]: groupParam('consumer_group_id', 'DESCRIBE'),
  [`GET ${G}/consumers/{consumer_id}/assignments/{topic_name}/partitions/{partition_id}`]: (c) => [
    on('DESCRIBE', group(c.params.consumer_group_id)),
    on('DESCRIBE', topic(c.params.topic_name)),
  ],
  [`GET ${G}/lags`]: groupParam('consumer_group_id', 'DESCRIBE'),
  [`GET ${G}/lags/{topic_name}/partitions/{partition_id}`]: (c) => [
    on('DESCRIBE', group(c.params.consumer_group_id)),
    on('DESCRIBE', topic(c.params.topic_name)),
  ],
  [`GET ${G}/lag-summary`]: groupParam('consumer_group_id', 'DESCRIBE'),
  [`POST ${G}/offsets:reset`]: (c) => {
    const named = bodyTopics(c.body, 'topics', 'topic_name');
    const topics = named.length > 0 ? named : c.groupTopics(c.params.consumer_group_id);
    return [on('READ', group(c.params.consumer_group_id)), ...readTopics(topics)];
  },

  'GET /topics': none,
  'GET /topics/{topic_name}': topicParam('DESCRIBE'),
  'POST /topics/{topic_name}': topicParam('WRITE'),
  'GET /topics/{topic_name}/partitions': topicParam('DESCRIBE'),
  'GET /topics/{topic_name}/partitions/{partition_id}': topicParam('DESCRIBE'),
  'POST /topics/{topic_name}/partitions/{partition_id}': topicParam('WRITE'),
  'GET /topics/{topic_name}/partitions/{partition_id}/offsets': topicParam('DESCRIBE'),
  'GET /brokers': none,

  'POST /consumers/{group_name}': groupParam('group_name', 'READ'),
  [`DELETE ${I}`]: groupParam('group_name', 'READ'),
  [`POST ${I}/subscription`]: (c) => [
    on('READ', group(c.params.group_name)),
    ...readTopics(bodyTopics(c.body, 'topics')),
  ],
  [`GET ${I}/subscription`]: groupParam('group_name', 'READ'),
  [`DELETE ${I}/subscription`]: groupParam('group_name', 'READ'),
  [`POST ${I}/assignments`]: instanceRoute('partitions'),
  [`GET ${I}/assignments`]: groupParam('group_name', 'READ'),
  [`POST ${I}/positions`]: instanceRoute('offsets'),
  [`POST ${I}/positions/beginning`]: instanceRoute('partitions'),
  [`POST ${I}/positions/end`]: instanceRoute('partitions'),
  [`GET ${I}/records`]: instanceRoute(null),
  [`POST ${I}/offsets`]: instanceRoute('offsets'),
  [`GET ${I}/offsets`]: instanceRoute(null),

  'GET /subjects': none,
  [`POST ${S}`]: subjectParam('READ'),
  [`DELETE ${S}`]: subjectParam('DELETE'),
  [`GET ${S}/versions`]: subjectParam('DESCRIBE'),
  [`POST ${S}/versions`]: subjectParam('WRITE'),
  [`GET ${S}/versions/{version}`]: subjectParam('READ'),
  [`DELETE ${S}/versions/{version}`]: subjectParam('DELETE'),
  [`GET ${S}/versions/{version}/schema`]: subjectParam('READ'),
  [`GET ${S}/versions/{version}/referencedby`]: subjectParam('DESCRIBE'),
  'GET /schemas/types': none,
  [`GET ${ID}`]: none,
  [`GET ${ID}/schema`]: none,
  [`GET ${ID}/subjects`]: none,
  [`GET ${ID}/versions`]: none,
  'GET /config': onCluster('DESCRIBE_CONFIGS'),
  'PUT /config': onCluster('ALTER_CONFIGS'),
  'DELETE /config': onCluster('ALTER_CONFIGS'),
  'GET /config/{subject}': subjectParam('DESCRIBE'),
  'PUT /config/{subject}': subjectParam('ALTER_CONFIGS'),
  'DELETE /config/{subject}': subjectParam('ALTER_CONFIGS'),
  'GET /mode': onCluster('DESCRIBE_CONFIGS'),
  'PUT /mode': onCluster('ALTER_CONFIGS'),
  'DELETE /mode': onCluster('ALTER_CONFIGS'),
  'GET /mode/{subject}': subjectParam('DESCRIBE'),
  'PUT /mode/{subject}': subjectParam('ALTER_CONFIGS'),
  'DELETE /mode/{subject}': subjectParam('ALTER_CONFIGS'),
  'POST /compatibility/subjects/{subject}/versions': subjectParam('READ'),
  'POST /compatibility/subjects/{subject}/versions/{version}': subjectParam('READ'),
};

const specPaths = new Map<string, string>(); // keyed by route template: as many entries as routes

/** Fastify's route template (`/v3/:a/x::y`) in openapi.yaml's form (`/v3/{a}/x:y`); called several times a request. */
export function specPath(fastifyUrl: string): string {
  let path = specPaths.get(fastifyUrl);
  if (path === undefined) {
    path = fastifyUrl
      .split('::')
      .map((part) => part.replace(/:(\w+)/g, '{$1}'))
      .join(':');
    specPaths.set(fastifyUrl, path);
  }
  return path;
}
