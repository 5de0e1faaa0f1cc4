// Kafka's ACL codes (the numbers of its ResourceType, PatternType, AclOperation and AclPermissionType enums) as
// Brook's ACL model names them (security/acl.ts), both ways, and the checks a binding or filter from the wire
// passes before it reaches the ACL store: the rules POST /v3/clusters/{c}/acls applies (a principal User:<name>, a
// resource name and host of 1 to 255 characters, the cluster named kafka-cluster). Kafka has no SUBJECT: a
// binding of Brook's schema registry is neither created nor answered here. Codes Kafka has and Brook does not
// store (TRANSACTIONAL_ID, DELEGATION_TOKEN and USER resources; CLUSTER_ACTION, IDEMPOTENT_WRITE and the token
// operations) are refused in a binding with INVALID_REQUEST and its reason, and match nothing in a filter.
import {
  ACL_NAME_CHARS_MAX,
  ACL_PRINCIPAL,
  CLUSTER_RESOURCE_NAME,
  type AclBinding,
  type AclFilter,
  type Operation,
  type PatternType,
  type Permission,
  type ResourceType,
} from '../security/acl.js';
import { ACL_OPERATION_CODES } from './kafka-authorization.js';

type KafkaResourceType = Exclude<ResourceType, 'SUBJECT'>;

const ANY = 1;
const MATCH = 2;

const RESOURCE_TYPE_CODES: Readonly<Record<KafkaResourceType, number>> = { TOPIC: 2, GROUP: 3, CLUSTER: 4 };
const PATTERN_TYPE_CODES: Readonly<Record<PatternType, number>> = { LITERAL: 3, PREFIXED: 4 };
const OPERATION_CODES: Readonly<Record<Operation, number>> = { ALL: 2, ...ACL_OPERATION_CODES };
const PERMISSION_CODES: Readonly<Record<Permission, number>> = { DENY: 2, ALLOW: 3 };

/** Kafka's codes that Brook knows but does not store, by kind, for clear refusals. */
const KNOWN_ELSEWHERE = {
  resource: { 5: 'TRANSACTIONAL_ID', 6: 'DELEGATION_TOKEN', 7: 'USER' } as Record<number, string>,
  operation: { 9: 'CLUSTER_ACTION', 12: 'IDEMPOTENT_WRITE', 13: 'CREATE_TOKENS', 14: 'DESCRIBE_TOKENS' } as Record<
    number,
    string
  >,
};

function inverse<T extends string>(codes: Readonly<Record<T, number>>): ReadonlyMap<number, T> {
  return new Map(Object.entries(codes).map(([name, code]) => [code as number, name as T]));
}
const RESOURCE_TYPES_BY_CODE = inverse(RESOURCE_TYPE_CODES);
const PATTERN_TYPES_BY_CODE = inverse(PATTERN_TYPE_CODES);
const OPERATIONS_BY_CODE = inverse(OPERATION_CODES);
const PERMISSIONS_BY_CODE = inverse(PERMISSION_CODES);

/** A binding's fields as Kafka's wire carries them. */
export interface WireBinding {
  resourceType: number;
  resourceName: string;
  patternType: number;
  principal: string;
  host: string;
  operation: number;
  permissionType: number;
}

/** A filter's fields as Kafka's wire carries them: null strings match anything, code 1 is ANY (2 MATCH patterns). */
export interface WireFilter {
  resourceTypeFilter: number;
  resourceNameFilter: string | null;
  patternTypeFilter: number;
  principalFilter: string | null;
  hostFilter: string | null;
  operation: number;
  permissionType: number;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

const refuse = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

function named<T>(byCode: ReadonlyMap<number, T>, code: number, what: string, elsewhere?: Record<number, string>) {
  const name = byCode.get(code);
  if (name !== undefined) return { ok: true as const, value: name };
  const other = elsewhere?.[code];
  return refuse(other !== undefined ? `Brook stores no ${other} ACLs.` : `Unknown ${what} code ${code}.`);
}

/** A CreateAcls creation as Brook's binding, or the reason it cannot be stored. */
export function bindingFromWire(wire: WireBinding): Checked<AclBinding> {
  const type = named(RESOURCE_TYPES_BY_CODE, wire.resourceType, 'resource type', KNOWN_ELSEWHERE.resource);
  if (!type.ok) return type;
  const pattern = named(PATTERN_TYPES_BY_CODE, wire.patternType, 'pattern type');
  if (!pattern.ok)
    return refuse(`The pattern type of a binding must be LITERAL (3) or PREFIXED (4), not ${wire.patternType}.`);
  const operation = named(OPERATIONS_BY_CODE, wire.operation, 'operation', KNOWN_ELSEWHERE.operation);
  if (!operation.ok) return operation;
  const permission = named(PERMISSIONS_BY_CODE, wire.permissionType, 'permission type');
  if (!permission.ok) return refuse(`The permission type must be DENY (2) or ALLOW (3), not ${wire.permissionType}.`);
  if (wire.resourceName.length === 0 || wire.resourceName.length > ACL_NAME_CHARS_MAX) {
    return refuse(`The resource name must have 1 to ${ACL_NAME_CHARS_MAX} characters.`);
  }
  if (type.value === 'CLUSTER' && wire.resourceName !== CLUSTER_RESOURCE_NAME) {
    return refuse(`The name of a CLUSTER resource must be ${CLUSTER_RESOURCE_NAME}.`);
  }
  if (!ACL_PRINCIPAL.test(wire.principal))
    return refuse('The principal must look like User:<name> (User:* for everyone).');
  if (wire.host.length === 0 || wire.host.length > ACL_NAME_CHARS_MAX)
    return refuse('The host must be * or an IP address.');
  return {
    ok: true,
    value: {
      resource_type: type.value,
      resource_name: wire.resourceName,
      pattern_type: pattern.value,
      principal: wire.principal,
      host: wire.host,
      operation: operation.value,
      permission: permission.value,
    },
  };
}

/**
 * A DescribeAcls or DeleteAcls filter as Brook's, or null when it names something Brook never stores (it then
 * matches nothing), or the reason it is not a filter (UNKNOWN codes, which Kafka refuses too).
 */
export function filterFromWire(wire: WireFilter): Checked<AclFilter | null> {
  /** The name of a filter's code: 'ANY', a Brook name, null for a name Brook never stores, undefined if unknown. */
  const code = <T>(value: number, byCode: ReadonlyMap<number, T>, elsewhere: Record<number, string> = {}) =>
    value === ANY ? ('ANY' as const) : (byCode.get(value) ?? (elsewhere[value] !== undefined ? null : undefined));
  const type = code(wire.resourceTypeFilter, RESOURCE_TYPES_BY_CODE, KNOWN_ELSEWHERE.resource);
  const operation = code(wire.operation, OPERATIONS_BY_CODE, KNOWN_ELSEWHERE.operation);
  const permission = code(wire.permissionType, PERMISSIONS_BY_CODE);
  const pattern =
    wire.patternTypeFilter === MATCH ? ('MATCH' as const) : code(wire.patternTypeFilter, PATTERN_TYPES_BY_CODE);
  if (type === undefined) return refuse(`Unknown resource type code ${wire.resourceTypeFilter} in the filter.`);
  if (operation === undefined) return refuse(`Unknown operation code ${wire.operation} in the filter.`);
  if (permission === undefined || permission === null) {
    return refuse(`Unknown permission type code ${wire.permissionType} in the filter.`);
  }
  if (pattern === undefined || pattern === null) {
    return refuse(`Unknown pattern type code ${wire.patternTypeFilter} in the filter.`);
  }
  if (type === null || operation === null) return { ok: true, value: null };
  return {
    ok: true,
    value: {
      resource_type: type,
      resource_name: wire.resourceNameFilter ?? undefined,
      pattern_type: pattern,
      principal: wire.principalFilter ?? undefined,
      host: wire.hostFilter ?? undefined,
      operation,
      permission,
    },
  };
}

/** The filter once per resource type Kafka can name: an ANY type never reaches Brook's SUBJECT bindings. */
export function kafkaTypedFilters(filter: AclFilter): AclFilter[] {
  if (filter.resource_type !== undefined && filter.resource_type !== 'ANY') return [filter];
  return (Object.keys(RESOURCE_TYPE_CODES) as KafkaResourceType[]).map((type) => ({ ...filter, resource_type: type }));
}

/** A stored binding in Kafka's codes (for a SUBJECT binding, which Kafka cannot name: null). */
export function bindingToWire(acl: AclBinding): WireBinding | null {
  if (acl.resource_type === 'SUBJECT') return null;
  return {
    resourceType: RESOURCE_TYPE_CODES[acl.resource_type],
    resourceName: acl.resource_name,
    patternType: PATTERN_TYPE_CODES[acl.pattern_type],
    principal: acl.principal,
    host: acl.host,
    operation: OPERATION_CODES[acl.operation],
    permissionType: PERMISSION_CODES[acl.permission],
  };
}
