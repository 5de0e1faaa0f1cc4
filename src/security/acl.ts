// Kafka's ACL model, as a pure decision. An ACL binding: a principal (User:alice, or User:* for everyone), a host
// (* or an IP address), a resource pattern (type TOPIC, GROUP or CLUSTER, or Brook's SUBJECT for the schema
// registry's subjects; name; pattern LITERAL, where the name * matches every resource, or PREFIXED), an operation,
// and ALLOW or DENY. Field names and values are Confluent's v3 AclData ones. A SUBJECT binding takes the
// operations the registry checks (SUBJECT_OPERATIONS); Kafka's protocol knows no SUBJECT, so its DescribeAcls
// leaves those bindings out (isKafkaResourceType).
//
// Decision for (principal, host, operation, resource), as Kafka's AclAuthorizer:
//   1. a matching DENY for the operation (or ALL) denies, whatever else matches: deny wins;
//   2. else a matching ALLOW for the operation, for ALL, or for an operation that implies it allows
//      (READ, WRITE, DELETE and ALTER imply DESCRIBE; ALTER_CONFIGS implies DESCRIBE_CONFIGS);
//   3. else denied: with the authorizer on, no allow means no access.
// Super users (BROOK_SUPER_USERS) are allowed before any ACL is looked at (authorizer.service.ts).

export const RESOURCE_TYPES = ['TOPIC', 'GROUP', 'CLUSTER', 'SUBJECT'] as const;
/** The resource types of Kafka's protocol (its DescribeAcls answers only those). */
export const KAFKA_RESOURCE_TYPES = ['TOPIC', 'GROUP', 'CLUSTER'] as const;
export const PATTERN_TYPES = ['LITERAL', 'PREFIXED'] as const;
export const OPERATIONS = [
  'ALL',
  'READ',
  'WRITE',
  'CREATE',
  'DELETE',
  'ALTER',
  'DESCRIBE',
  'DESCRIBE_CONFIGS',
  'ALTER_CONFIGS',
] as const;
export const PERMISSIONS = ['ALLOW', 'DENY'] as const;

export type ResourceType = (typeof RESOURCE_TYPES)[number];
export type PatternType = (typeof PATTERN_TYPES)[number];
export type Operation = (typeof OPERATIONS)[number];
export type Permission = (typeof PERMISSIONS)[number];

/** What the schema registry checks on a subject (route-rights.ts), and ALL. */
export const SUBJECT_OPERATIONS: readonly Operation[] = ['ALL', 'READ', 'WRITE', 'DELETE', 'DESCRIBE', 'ALTER_CONFIGS'];

/** Whether Kafka's protocol can name the resource type (SUBJECT is Brook's own). */
export function isKafkaResourceType(type: ResourceType): boolean {
  return (KAFKA_RESOURCE_TYPES as readonly string[]).includes(type);
}

/** What a binding's principal looks like (User:* for everyone), on every edge that stores ACLs. */
export const ACL_PRINCIPAL = /^User:[^\s;]{1,255}$/;
/** Bound on a binding's resource name and host. */
export const ACL_NAME_CHARS_MAX = 255;

/** Kafka's name for the one cluster resource. */
export const CLUSTER_RESOURCE_NAME = 'kafka-cluster';
export const WILDCARD = '*';

export interface AclBinding {
  resource_type: ResourceType;
  resource_name: string;
  pattern_type: PatternType;
  principal: string;
  host: string;
  operation: Operation;
  permission: Permission;
}

export interface Resource {
  type: ResourceType;
  name: string;
}

export interface AccessRequest {
  principal: string;
  host: string;
  operation: Exclude<Operation, 'ALL'>;
  resource: Resource;
}

const IMPLIED_BY: Partial<Record<Operation, Operation[]>> = {
  DESCRIBE: ['READ', 'WRITE', 'DELETE', 'ALTER'],
  DESCRIBE_CONFIGS: ['ALTER_CONFIGS'],
};

export function patternMatches(acl: AclBinding, resource: Resource): boolean {
  if (acl.resource_type !== resource.type) return false;
  if (acl.pattern_type === 'PREFIXED') return resource.name.startsWith(acl.resource_name);
  return acl.resource_name === WILDCARD || acl.resource_name === resource.name;
}

function appliesTo(acl: AclBinding, request: AccessRequest): boolean {
  return (
    (acl.principal === request.principal || acl.principal === 'User:*') &&
    (acl.host === WILDCARD || acl.host === request.host) &&
    patternMatches(acl, request.resource)
  );
}

export function decide(acls: readonly AclBinding[], request: AccessRequest): boolean {
  const matching = acls.filter((acl) => appliesTo(acl, request));
  const denied = matching.some(
    (acl) => acl.permission === 'DENY' && (acl.operation === request.operation || acl.operation === 'ALL'),
  );
  if (denied) return false;
  const allowing: Operation[] = ['ALL', request.operation, ...(IMPLIED_BY[request.operation] ?? [])];
  return matching.some((acl) => acl.permission === 'ALLOW' && allowing.includes(acl.operation));
}

/** A filter as Confluent's GET/DELETE /acls query takes it: absent fields and ANY match everything; MATCH patterns
 * select the ACLs that would apply to the named resource (literal, wildcard and prefixes). */
export interface AclFilter {
  resource_type?: ResourceType | 'ANY';
  resource_name?: string;
  pattern_type?: PatternType | 'ANY' | 'MATCH';
  principal?: string;
  host?: string;
  operation?: Operation | 'ANY';
  permission?: Permission | 'ANY';
}

export function filterMatches(filter: AclFilter, acl: AclBinding): boolean {
  const any = (value: string | undefined, actual: string) => value === undefined || value === 'ANY' || value === actual;
  if (!any(filter.resource_type, acl.resource_type)) return false;
  if (!any(filter.operation, acl.operation) || !any(filter.permission, acl.permission)) return false;
  if (filter.principal !== undefined && filter.principal !== acl.principal) return false;
  if (filter.host !== undefined && filter.host !== acl.host) return false;
  if (filter.pattern_type === 'MATCH') {
    return (
      filter.resource_name === undefined || patternMatches(acl, { type: acl.resource_type, name: filter.resource_name })
    );
  }
  if (!any(filter.pattern_type, acl.pattern_type)) return false;
  return filter.resource_name === undefined || filter.resource_name === acl.resource_name;
}

export function bindingKey(acl: AclBinding): string {
  return JSON.stringify([
    acl.resource_type,
    acl.pattern_type,
    acl.resource_name,
    acl.principal,
    acl.host,
    acl.operation,
    acl.permission,
  ]);
}
