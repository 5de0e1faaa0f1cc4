// `brook acls`: kafka-acls.sh against Brook's v3 ACL routes. --add creates one binding per resource x principal x
// host x operation (--allow-principal / --deny-principal, --allow-host / --deny-host, default `*`); --remove deletes
// the bindings of each resource matching the principals and operations given (all of the resource's bindings when
// none are); --list shows the bindings, of the resources given or all. Resources: --topic, --group, --subject (a
// schema registry subject; repeatable), --cluster; --resource-pattern-type literal (default) or prefixed (any and match for --list and --remove).
// Operations in Kafka's spelling (Read, DescribeConfigs) or the API's (READ, DESCRIBE_CONFIGS).
import type { Command } from 'commander';
import { unwrap, type Connection } from '../client.js';
import {
  addCommonOptions,
  connectFrom,
  withExamples,
  writeJson,
  type CliIo,
  type CommonOptions,
} from '../command-context.js';
import { UsageError } from '../errors.js';
import { collect, exactlyOneAction } from '../options.js';
import type { components } from '../generated/brook-api.js';
import { kafkaAcls } from '../kafka-output.js';
import { formatTable } from '../table.js';

const ACTIONS = ['add', 'remove', 'list'] as const;
const PATTERN_TYPES = ['LITERAL', 'PREFIXED', 'ANY', 'MATCH'] as const;

type PatternType = (typeof PATTERN_TYPES)[number];
type ResourceType = 'TOPIC' | 'GROUP' | 'CLUSTER' | 'SUBJECT';
type Operation = components['schemas']['AclData']['operation'];

/** Every operation of the API's AclData (a record of them all, so that the type check keeps the list complete). */
const OPERATION_SET: Record<Operation, true> = {
  ALL: true,
  READ: true,
  WRITE: true,
  CREATE: true,
  DELETE: true,
  ALTER: true,
  DESCRIBE: true,
  DESCRIBE_CONFIGS: true,
  ALTER_CONFIGS: true,
};
const OPERATIONS = Object.keys(OPERATION_SET) as Operation[];
/** The name of the one cluster resource in the API (openapi.yaml's AclData.resource_name), as Kafka's. */
const CLUSTER_RESOURCE_NAME = 'kafka-cluster';

interface AclsOptions extends CommonOptions {
  add?: boolean;
  remove?: boolean;
  list?: boolean;
  topic?: string[];
  group?: string[];
  subject?: string[];
  cluster?: boolean;
  resourcePatternType?: string;
  allowPrincipal?: string[];
  denyPrincipal?: string[];
  allowHost?: string[];
  denyHost?: string[];
  operation?: string[];
  principal?: string;
  force?: boolean;
}

interface Resource {
  type: ResourceType;
  name: string;
}

interface AclRow {
  resource_type: string;
  resource_name: string;
  pattern_type: string;
  principal: string;
  host: string;
  operation: string;
  permission: string;
}

export function registerAclsCommand(program: Command, io: CliIo): void {
  const command = program
    .command('acls')
    .description('add, remove and list ACLs (kafka-acls)')
    .option('--add', 'add ACLs')
    .option('--remove', 'remove ACLs (all of the resource when no principal or operation is given)')
    .option('--list', 'list ACLs (of the resources given, or all)')
    .option('--topic <name>', 'a topic resource (repeatable)', collect)
    .option('--group <name>', 'a consumer group resource (repeatable)', collect)
    .option('--subject <name>', 'a schema registry subject resource (repeatable)', collect)
    .option('--cluster', 'the cluster resource')
    .option('--resource-pattern-type <type>', 'literal (default) or prefixed; any or match for --list/--remove')
    .option('--allow-principal <principal>', 'User:name to allow (repeatable)', collect)
    .option('--deny-principal <principal>', 'User:name to deny (repeatable)', collect)
    .option('--allow-host <host>', 'host the allowed principals may come from (repeatable; default *)', collect)
    .option('--deny-host <host>', 'host the denied principals are denied from (repeatable; default *)', collect)
    .option('--operation <op>', `${OPERATIONS.map(kafkaSpelling).join(', ')} (repeatable)`, collect)
    .option('--principal <principal>', '--list: only the ACLs of this principal')
    .option('--force', 'accepted for kafka-acls compatibility (Brook never prompts)');
  addCommonOptions(command);
  withExamples(command, [
    'brook acls --add --allow-principal User:alice --operation Read --topic test',
    'brook acls --add --allow-principal User:alice --operation Read --group my-group',
    'brook acls --add --deny-principal User:bob --operation Write --topic orders- --resource-pattern-type prefixed',
    'brook acls --add --allow-principal User:alice --operation Read --subject orders- --resource-pattern-type prefixed',
    'brook acls --list --topic test',
    'brook acls --remove --allow-principal User:alice --operation Read --topic test',
  ]);
  command.action(async (options: AclsOptions) => {
    const action = exactlyOneAction(options, ACTIONS);
    const resources = resourcesOf(options);
    const patternType = patternTypeOf(options.resourcePatternType, action);
    const operations = (options.operation ?? []).map(operationOf);
    if (action === 'add') {
      const bindings = bindingsToAdd(resources, patternType, operations, options);
      const connection = await connectFrom(options, io.signal);
      for (const binding of bindings) {
        unwrap(
          await connection.api.POST('/v3/clusters/{cluster_id}/acls', {
            params: { path: { cluster_id: connection.clusterId } },
            body: binding,
          }),
        );
      }
      if (options.output === 'kafka') {
        io.stdout.write(kafkaAcls('Adding', bindings));
        return void io.stdout.write(kafkaAcls('Current', await listAcls(connection, resources, patternType)));
      }
      return report(io, options, `Adding ACLs:`, bindings);
    }
    if (action === 'remove') {
      if (resources.length === 0)
        throw new UsageError('--remove needs a resource: --topic, --group, --subject or --cluster');
      const connection = await connectFrom(options, io.signal);
      const removed: AclRow[] = [];
      for (const filter of removalFilters(resources, patternType, operations, options)) {
        removed.push(...(await deleteAcls(connection, filter)));
      }
      // as kafka-acls: what is left of the resources' ACLs
      if (options.output === 'kafka') {
        return void io.stdout.write(kafkaAcls('Current', await listAcls(connection, resources, patternType)));
      }
      return report(io, options, 'Removed ACLs:', removed);
    }
    const connection = await connectFrom(options, io.signal);
    const listed = await listAcls(connection, resources, patternType, options.principal);
    if (options.output === 'kafka') {
      const title = options.principal === undefined ? '' : `ACLs for principal \`${options.principal}\`\n`;
      return void io.stdout.write(title + kafkaAcls('Current', listed));
    }
    return report(io, options, 'Current ACLs:', listed);
  });
}

/** The ACLs of the resources (every ACL when none is given), of one principal when given. */
async function listAcls(
  connection: Connection,
  resources: readonly Resource[],
  patternType: PatternType,
  principal?: string,
): Promise<AclRow[]> {
  const filters =
    resources.length === 0
      ? [{ resource_type: 'ANY' as const, pattern_type: patternType }]
      : resources.map((resource) => ({
          resource_type: resource.type,
          resource_name: resource.name,
          pattern_type: patternType,
        }));
  const listed: AclRow[] = [];
  for (const filter of filters) {
    const found = unwrap(
      await connection.api.GET('/v3/clusters/{cluster_id}/acls', {
        params: { path: { cluster_id: connection.clusterId }, query: { ...filter, principal } },
      }),
    ).data;
    listed.push(...found.map(rowOf));
  }
  return listed;
}

function resourcesOf(options: AclsOptions): Resource[] {
  const resources: Resource[] = [
    ...(options.topic ?? []).map((name): Resource => ({ type: 'TOPIC', name })),
    ...(options.group ?? []).map((name): Resource => ({ type: 'GROUP', name })),
    ...(options.subject ?? []).map((name): Resource => ({ type: 'SUBJECT', name })),
  ];
  if (options.cluster === true) resources.push({ type: 'CLUSTER', name: CLUSTER_RESOURCE_NAME });
  for (const resource of resources) {
    if (resource.name === '') throw new UsageError(`--${resource.type.toLowerCase()} must not be empty`);
  }
  return resources;
}

function patternTypeOf(value: string | undefined, action: (typeof ACTIONS)[number]): PatternType {
  if (value === undefined) return action === 'add' ? 'LITERAL' : action === 'list' ? 'ANY' : 'LITERAL';
  const upper = value.toUpperCase() as PatternType;
  if (!PATTERN_TYPES.includes(upper)) {
    throw new UsageError(`--resource-pattern-type must be literal, prefixed, any or match, not ${value}`);
  }
  if (action === 'add' && upper !== 'LITERAL' && upper !== 'PREFIXED') {
    throw new UsageError('--add takes --resource-pattern-type literal or prefixed');
  }
  return upper;
}

/** Kafka's spelling (Read, DescribeConfigs, describe-configs) or the API's (READ, DESCRIBE_CONFIGS). */
export function operationOf(value: string): Operation {
  const normalized = value
    .trim()
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toUpperCase() as Operation;
  if (!OPERATIONS.includes(normalized)) {
    throw new UsageError(`unknown operation ${value}: one of ${OPERATIONS.map(kafkaSpelling).join(', ')}`);
  }
  return normalized;
}

function kafkaSpelling(operation: string): string {
  return operation
    .toLowerCase()
    .split('_')
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
}

function bindingsToAdd(
  resources: readonly Resource[],
  patternType: PatternType,
  operations: readonly Operation[],
  options: AclsOptions,
) {
  if (resources.length === 0) throw new UsageError('--add needs a resource: --topic, --group, --subject or --cluster');
  if (operations.length === 0) throw new UsageError('--add needs --operation');
  const grants = [
    ...(options.allowPrincipal ?? []).map((principal) => ({ principal, permission: 'ALLOW' as const })),
    ...(options.denyPrincipal ?? []).map((principal) => ({ principal, permission: 'DENY' as const })),
  ];
  if (grants.length === 0) throw new UsageError('--add needs --allow-principal or --deny-principal');
  for (const { principal } of grants) checkPrincipal(principal);
  return resources.flatMap((resource) =>
    grants.flatMap(({ principal, permission }) =>
      hostsFor(permission, options).flatMap((host) =>
        operations.map((operation) => ({
          resource_type: resource.type,
          resource_name: resource.name,
          pattern_type: patternType as 'LITERAL' | 'PREFIXED',
          principal,
          host,
          operation,
          permission,
        })),
      ),
    ),
  );
}

function removalFilters(
  resources: readonly Resource[],
  patternType: PatternType,
  operations: readonly Operation[],
  options: AclsOptions,
) {
  const grants = [
    ...(options.allowPrincipal ?? []).map((principal) => ({ principal, permission: 'ALLOW' as const })),
    ...(options.denyPrincipal ?? []).map((principal) => ({ principal, permission: 'DENY' as const })),
  ];
  for (const { principal } of grants) checkPrincipal(principal);
  const byGrant: Array<{ principal?: string; permission: 'ALLOW' | 'DENY' | 'ANY' }> =
    grants.length > 0 ? grants : [{ permission: 'ANY' }];
  const byOperation: Array<Operation | 'ANY'> = operations.length > 0 ? [...operations] : ['ANY'];
  return resources.flatMap((resource) =>
    byGrant.flatMap(({ principal, permission }) =>
      byOperation.map((operation) => ({
        resource_type: resource.type,
        resource_name: resource.name,
        pattern_type: patternType,
        principal,
        operation,
        permission,
      })),
    ),
  );
}

function hostsFor(permission: 'ALLOW' | 'DENY', options: AclsOptions): string[] {
  const hosts = permission === 'ALLOW' ? options.allowHost : options.denyHost;
  return hosts !== undefined && hosts.length > 0 ? hosts : ['*'];
}

function checkPrincipal(principal: string): void {
  if (!/^[A-Za-z]+:.+$/.test(principal)) {
    throw new UsageError(`principal ${principal} is not of the form User:name`);
  }
}

async function deleteAcls(connection: Connection, query: ReturnType<typeof removalFilters>[number]): Promise<AclRow[]> {
  const answer = unwrap(
    await connection.api.DELETE('/v3/clusters/{cluster_id}/acls', {
      params: { path: { cluster_id: connection.clusterId }, query },
    }),
  );
  return answer.data.map(rowOf);
}

function rowOf(acl: AclRow): AclRow {
  return {
    resource_type: acl.resource_type,
    resource_name: acl.resource_name,
    pattern_type: acl.pattern_type,
    principal: acl.principal,
    host: acl.host,
    operation: acl.operation,
    permission: acl.permission,
  };
}

function report(io: CliIo, options: AclsOptions, title: string, rows: readonly AclRow[]): void {
  if (options.output === 'json') return writeJson(io, rows);
  io.stdout.write(`${title}\n`);
  io.stdout.write(
    formatTable(
      ['RESOURCE', 'NAME', 'PATTERN', 'PRINCIPAL', 'HOST', 'OPERATION', 'PERMISSION'],
      rows.map((row) => [
        row.resource_type,
        row.resource_name,
        row.pattern_type,
        row.principal,
        row.host,
        kafkaSpelling(row.operation),
        row.permission,
      ]),
    ),
  );
}
