// The authorisation matrix's route groups: for each, the request a principal makes and the ACL that allows it for
// alice (null: any authenticated principal may). auth-matrix.e2e.ts runs each as nobody, as a forged or wrong
// credential, as alice before and after the ACL, and as the admin.
import type { ApiResponse, CallOptions } from './http.js';
import { aliceAcl, C, V2 } from './secured-broker.js';

export { C, V2 };
export const T = `${C}/topics/{topic_name}`;

/** A request as `who` (null: no credentials) to `path`, whose `{c}` is the cluster id. */
export type AsCaller = (
  who: Record<string, string> | null,
  method: string,
  path: string,
  options?: CallOptions,
) => Promise<ApiResponse>;

/** The ACL that allows alice `operation` on the resource (secured-broker.ts' aliceAcl), with `extra` fields. */
export const allowAlice = (resource_type: string, resource_name: string, operation: string, extra = {}) => ({
  ...aliceAcl(resource_type, resource_name, operation),
  ...extra,
});

export interface RouteGroup {
  name: string;
  /** Makes the request as `who`; the ACL that allows it for alice. */
  request: (who: Record<string, string> | null) => Promise<ApiResponse>;
  acl: Record<string, string> | null;
  allowed: number;
}

export const produceBody = { value: { type: 'STRING', data: 'hello' } };
/** Every route group of the matrix, requested through `as` (which fills in the cluster id for `{c}`). */
export function routeGroups(as: AsCaller): RouteGroup[] {
  return [
    {
      name: 'cluster metadata (any authenticated principal)',
      request: (who) => as(who, 'GET', '/v3/clusters/{c}', { spec: C }),
      acl: null,
      allowed: 200,
    },
    {
      name: 'topic describe (v3)',
      request: (who) => as(who, 'GET', '/v3/clusters/{c}/topics/orders', { spec: T }),
      acl: allowAlice('TOPIC', 'orders', 'DESCRIBE'),
      allowed: 200,
    },
    {
      name: 'topic configs (v3, alter)',
      request: (who) =>
        as(who, 'PUT', '/v3/clusters/{c}/topics/orders/configs/retention.ms', {
          body: { value: '3600000' },
          spec: `${T}/configs/{name}`,
        }),
      acl: allowAlice('TOPIC', 'orders', 'ALTER_CONFIGS'),
      allowed: 204,
    },
    {
      name: 'broker configs (v3, describe)',
      request: (who) =>
        as(who, 'GET', '/v3/clusters/{c}/brokers/0/configs', { spec: `${C}/brokers/{broker_id}/configs` }),
      acl: allowAlice('CLUSTER', 'kafka-cluster', 'DESCRIBE_CONFIGS'),
      allowed: 200,
    },
    {
      name: 'broker configs (v3, alter cluster-wide)',
      request: (who) =>
        as(who, 'PUT', '/v3/clusters/{c}/broker-configs/num.partitions', {
          body: { value: '2' },
          spec: `${C}/broker-configs/{name}`,
        }),
      acl: allowAlice('CLUSTER', 'kafka-cluster', 'ALTER_CONFIGS'),
      allowed: 204,
    },
    {
      name: 'produce (v3)',
      request: (who) =>
        as(who, 'POST', '/v3/clusters/{c}/topics/orders/records', { body: produceBody, spec: `${T}/records` }),
      acl: allowAlice('TOPIC', 'orders', 'WRITE'),
      allowed: 200,
    },
    {
      name: 'read (Brook stateless read)',
      request: (who) =>
        as(who, 'GET', '/v3/clusters/{c}/topics/orders/partitions/0/records?offset=0', {
          spec: `${T}/partitions/{partition_id}/records`,
        }),
      acl: allowAlice('TOPIC', 'orders', 'READ'),
      allowed: 200,
    },
    {
      name: 'produce (v2)',
      request: (who) =>
        as(who, 'POST', '/topics/orders', {
          body: { records: [{ value: 'aGk=' }] },
          contentType: 'application/vnd.kafka.binary.v2+json',
          spec: '/topics/{topic_name}',
        }),
      acl: allowAlice('TOPIC', 'orders', 'WRITE'),
      allowed: 200,
    },
    {
      name: 'consumer group (v3 lags)',
      request: (who) =>
        as(who, 'GET', '/v3/clusters/{c}/consumer-groups/g1/lag-summary', {
          spec: `${C}/consumer-groups/{consumer_group_id}/lag-summary`,
        }),
      acl: allowAlice('GROUP', 'g1', 'DESCRIBE'),
      // the group does not exist yet: allowed means past the authorizer, to the 404
      allowed: 404,
    },
    {
      name: 'consumer instance (v2 create)',
      request: (who) =>
        as(who, 'POST', '/consumers/g2', {
          body: { name: `c-${Math.random().toString(36).slice(2)}`, format: 'binary' },
          contentType: V2,
          spec: '/consumers/{group_name}',
        }),
      acl: allowAlice('GROUP', 'g2', 'READ'),
      allowed: 200,
    },
    {
      name: 'ACLs (v3, search)',
      request: (who) => as(who, 'GET', '/v3/clusters/{c}/acls', { spec: `${C}/acls` }),
      acl: allowAlice('CLUSTER', 'kafka-cluster', 'DESCRIBE'),
      allowed: 200,
    },
    {
      name: 'topic create (v3)',
      request: (who) =>
        as(who, 'POST', '/v3/clusters/{c}/topics', {
          body: { topic_name: `alices-${Math.random().toString(36).slice(2)}`, partitions_count: 1 },
          spec: `${C}/topics`,
        }),
      acl: allowAlice('TOPIC', 'alices-', 'CREATE', { pattern_type: 'PREFIXED' }),
      allowed: 201,
    },
  ];
}
