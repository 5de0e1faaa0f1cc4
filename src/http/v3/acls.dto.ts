// Confluent's v3 ACL inputs: the body of POST /v3/clusters/{c}/acls (CreateAclRequest), of POST .../acls:batch
// (`data`, a list of CreateAclRequest) and the query of GET and DELETE (a filter: absent fields and ANY match everything, MATCH patterns select what would apply to a resource).
// Enum values are case-insensitive, as Confluent's are. Every failure is 400 with error_code 40002.
import { IsOptional } from '../../common/class-validator.js';
import {
  ACL_NAME_CHARS_MAX as NAME_CHARS_MAX,
  ACL_PRINCIPAL as PRINCIPAL,
  CLUSTER_RESOURCE_NAME,
  OPERATIONS,
  PATTERN_TYPES,
  PERMISSIONS,
  RESOURCE_TYPES,
  SUBJECT_OPERATIONS,
  WILDCARD,
  type AclBinding,
  type AclFilter,
  type Operation,
  type PatternType,
  type Permission,
  type ResourceType,
} from '../../security/acl.js';
import { BodyRules, IsArrayOfEntries, Rule } from '../validation/body-rules.js';
import { INVALID_REQUEST, RejectsWith } from '../validation/rest-validation.pipe.js';

/** Bound on the bindings of one acls:batch request. */
export const ACL_BATCH_MAX = 1_000;

/** One of `allowed`, in any case. */
function AclEnum(allowed: readonly string[]): PropertyDecorator {
  return Rule(
    'aclEnum',
    (value) => typeof value === 'string' && allowed.includes(value.toUpperCase()),
    `must be one of ${allowed.join(', ')}.`,
  );
}

const isCluster = (resourceType: unknown): boolean =>
  typeof resourceType === 'string' && resourceType.toUpperCase() === 'CLUSTER';

const isSubject = (resourceType: unknown): boolean =>
  typeof resourceType === 'string' && resourceType.toUpperCase() === 'SUBJECT';

const upper = <T extends string>(value: string | null | undefined): T | undefined =>
  value === undefined || value === null ? undefined : (value.toUpperCase() as T);

@RejectsWith(INVALID_REQUEST)
export class CreateAclDto {
  @AclEnum(RESOURCE_TYPES)
  resource_type: string;

  @Rule(
    'resourceName',
    (value, body) =>
      typeof value === 'string' &&
      value.length > 0 &&
      value.length <= NAME_CHARS_MAX &&
      (!isCluster(body.resource_type) || value === CLUSTER_RESOURCE_NAME),
    (value) =>
      typeof value === 'string' && value.length > 0 && value.length <= NAME_CHARS_MAX
        ? `of a CLUSTER resource must be ${CLUSTER_RESOURCE_NAME}.`
        : `must be a string of 1 to ${NAME_CHARS_MAX} characters.`,
  )
  resource_name: string;

  @Rule(
    'principal',
    (value) => typeof value === 'string' && PRINCIPAL.test(value),
    'must look like User:<name> (User:* for everyone).',
  )
  principal: string;

  @IsOptional()
  @Rule(
    'host',
    (value) => typeof value === 'string' && value.length > 0 && value.length <= NAME_CHARS_MAX,
    'must be * or an IP address.',
  )
  host?: string | null;

  @IsOptional()
  @AclEnum(PATTERN_TYPES)
  pattern_type?: string | null;

  @AclEnum(OPERATIONS)
  @Rule(
    'subjectOperation',
    (value, body) =>
      !isSubject(body.resource_type) ||
      typeof value !== 'string' ||
      SUBJECT_OPERATIONS.includes(value.toUpperCase() as Operation),
    `of a SUBJECT resource must be one of ${SUBJECT_OPERATIONS.join(', ')}.`,
  )
  operation: string;

  @AclEnum(PERMISSIONS)
  permission: string;

  /** The binding to store: enums upper case, host * and pattern LITERAL by default. */
  binding(): AclBinding {
    return {
      resource_type: upper<ResourceType>(this.resource_type) as ResourceType,
      resource_name: this.resource_name,
      pattern_type: upper<PatternType>(this.pattern_type) ?? 'LITERAL',
      principal: this.principal,
      host: this.host ?? WILDCARD,
      operation: upper<Operation>(this.operation) as Operation,
      permission: upper<Permission>(this.permission) as Permission,
    };
  }
}

/**
 * The body of acls:batch: every entry a CreateAclRequest, named by its index when refused ("data[3].operation must
 * be one of ..."), at most ACL_BATCH_MAX of them; one bad entry refuses the whole batch.
 */
@RejectsWith(INVALID_REQUEST)
@BodyRules({
  name: 'aclBatchBound',
  check: (body) => !Array.isArray(body.data) || body.data.length <= ACL_BATCH_MAX,
  message: `At most ${ACL_BATCH_MAX} ACLs in one batch.`,
})
export class AclBatchDto {
  @IsArrayOfEntries(() => CreateAclDto)
  data: CreateAclDto[];

  bindings(): AclBinding[] {
    return this.data.map((entry) => entry.binding());
  }
}

/** A text filter field: one value (a repeated parameter is refused) of at most 255 characters. */
function FilterText(): PropertyDecorator {
  return Rule(
    'filterText',
    (value) => typeof value === 'string' && value.length <= NAME_CHARS_MAX,
    'must be one string.',
  );
}

@RejectsWith(INVALID_REQUEST)
export class AclFilterQuery {
  @IsOptional()
  @AclEnum([...RESOURCE_TYPES, 'ANY'])
  resource_type?: string;

  @IsOptional()
  @FilterText()
  resource_name?: string;

  @IsOptional()
  @AclEnum([...PATTERN_TYPES, 'ANY', 'MATCH'])
  pattern_type?: string;

  @IsOptional()
  @FilterText()
  principal?: string;

  @IsOptional()
  @FilterText()
  host?: string;

  @IsOptional()
  @AclEnum([...OPERATIONS, 'ANY'])
  operation?: string;

  @IsOptional()
  @AclEnum([...PERMISSIONS, 'ANY'])
  permission?: string;

  filter(): AclFilter {
    return {
      resource_type: upper(this.resource_type),
      resource_name: this.resource_name,
      pattern_type: upper(this.pattern_type),
      principal: this.principal,
      host: this.host,
      operation: upper(this.operation),
      permission: upper(this.permission),
    };
  }
}

/** DELETE's filter must name a resource type, so that deleting everything is asked for (with ANY). */
@BodyRules({
  name: 'resourceTypeGiven',
  check: (query) => query.resource_type !== undefined,
  message: 'resource_type is required (ANY deletes across types).',
})
export class AclDeleteQuery extends AclFilterQuery {}
