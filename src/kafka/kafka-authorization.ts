// The authorizer as the Kafka handlers ask it (Kafka's KafkaApis.authorize): may the connection's principal, from
// its host, do this operation on this resource? Every refusal of a request is an audit line, as on the REST edge
// (`authorization.denied`, with "protocol": "kafka" and the API); a list filtered to what the principal may
// describe (Metadata of every topic, DescribeAcls) asks quietly.
import { CLUSTER_RESOURCE_NAME, type Resource } from '../security/acl.js';
import type { CheckedOperation } from '../security/authorizer.service.js';
import type { KafkaRequestContext } from './kafka-handler.js';

export const CLUSTER: Resource = { type: 'CLUSTER', name: CLUSTER_RESOURCE_NAME };
export const topicResource = (name: string): Resource => ({ type: 'TOPIC', name });
export const groupResource = (name: string): Resource => ({ type: 'GROUP', name });

/** Whether the principal may; a refusal is audited unless `quiet`. */
export function authorized(
  context: KafkaRequestContext,
  api: string,
  operation: CheckedOperation,
  resource: Resource,
  options: { quiet?: boolean } = {},
): boolean {
  const { authorizer, audit } = context.services;
  const { principal, host } = context.session;
  if (authorizer.authorize(principal, host, operation, resource)) return true;
  if (options.quiet !== true) {
    audit.write({
      event: 'authorization.denied',
      protocol: 'kafka',
      api,
      client_id: context.session.clientId,
      principal,
      host,
      operation,
      resource_type: resource.type,
      resource_name: resource.name,
    });
  }
  return false;
}

/** Kafka's rule for CREATE: on the cluster, or on the resource itself. */
export function authorizedOrCluster(
  context: KafkaRequestContext,
  api: string,
  operation: CheckedOperation,
  resource: Resource,
): boolean {
  return authorized(context, api, operation, CLUSTER, { quiet: true }) || authorized(context, api, operation, resource);
}

/** Kafka's AclOperation codes, for the authorized-operations bit fields of Metadata and DescribeCluster. */
export const ACL_OPERATION_CODES: Readonly<Record<CheckedOperation, number>> = {
  READ: 3,
  WRITE: 4,
  CREATE: 5,
  DELETE: 6,
  ALTER: 7,
  DESCRIBE: 8,
  DESCRIBE_CONFIGS: 10,
  ALTER_CONFIGS: 11,
};

/** The authorized-operations fields' value when the request did not ask for them (Kafka's Integer.MIN_VALUE). */
export const OPERATIONS_NOT_REQUESTED = -2147483648;

/** The operations Kafka defines on each resource type, for the authorized-operations bit fields. */
export const TOPIC_OPERATIONS: readonly CheckedOperation[] = [
  'READ',
  'WRITE',
  'CREATE',
  'DELETE',
  'ALTER',
  'DESCRIBE',
  'DESCRIBE_CONFIGS',
  'ALTER_CONFIGS',
];
export const CLUSTER_OPERATIONS: readonly CheckedOperation[] = [
  'CREATE',
  'ALTER',
  'DESCRIBE',
  'DESCRIBE_CONFIGS',
  'ALTER_CONFIGS',
];
export const GROUP_OPERATIONS: readonly CheckedOperation[] = ['READ', 'DESCRIBE', 'DELETE'];

/** Kafka's authorized-operations bit field: bit N set when the principal may do the operation of code N. */
export function authorizedOperations(
  context: KafkaRequestContext,
  resource: Resource,
  operations: readonly CheckedOperation[],
): number {
  let bits = 0;
  for (const operation of operations) {
    if (authorized(context, 'authorized-operations', operation, resource, { quiet: true })) {
      bits |= 1 << ACL_OPERATION_CODES[operation];
    }
  }
  return bits;
}
