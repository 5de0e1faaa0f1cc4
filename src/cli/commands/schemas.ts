// `brook schemas`: the built-in schema registry (Confluent's API at the broker's root paths) from the command line.
//   --list                                    the subjects, one per line (as `topics --list`)
//   --describe --subject S [--version V]      a version (the latest by default): id, type, the other versions and the
//                                             compatibility level that applies, then the schema text
//   --register --subject S --schema-file F [--type AVRO|JSON|PROTOBUF]   registers F, prints its id and version
//   --delete --subject S [--version V] [--permanent]   soft-deletes the subject (or one version); --permanent
//                                             deletes for good, soft-deleting first what is still live
//   --compatibility [--subject S] [--level L] prints the level (global, or the subject's), or sets it
// Every call goes through the client generated from openapi.yaml; the registry's errors (40401 subject not found,
// 409 incompatible, 42201 invalid schema...) end the command with exit code 1 and the registry's message.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { BrokerError, UsageError } from '../errors.js';
import { unwrap, type Connection } from '../client.js';
import {
  addCommonOptions,
  connectFrom,
  withExamples,
  writeJson,
  type CliIo,
  type CommonOptions,
} from '../command-context.js';
import type { components } from '../generated/brook-api.js';
import { exactlyOneAction } from '../options.js';
import { formatTable } from '../table.js';

const ACTIONS = ['list', 'describe', 'register', 'delete', 'compatibility'] as const;
type SchemaType = components['schemas']['RegistrySchemaType'];
type Level = components['schemas']['RegistryCompatibilityLevel'];
const LEVELS: readonly Level[] = [
  'BACKWARD',
  'BACKWARD_TRANSITIVE',
  'FORWARD',
  'FORWARD_TRANSITIVE',
  'FULL',
  'FULL_TRANSITIVE',
  'NONE',
];
/** A schema file larger than this is refused before it is sent (the registry's own bound is lower by default). */
const SCHEMA_FILE_BYTES_MAX = 16 * 1024 * 1024;

interface SchemasOptions extends CommonOptions {
  list?: boolean;
  describe?: boolean;
  register?: boolean;
  delete?: boolean;
  compatibility?: boolean;
  subject?: string;
  version?: string;
  schemaFile?: string;
  type?: string;
  level?: string;
  permanent?: boolean;
  deleted?: boolean;
}

export function registerSchemasCommand(program: Command, io: CliIo): void {
  const command = program
    .command('schemas')
    .description("list, describe, register and delete schemas in Brook's schema registry, and set compatibility")
    .option('--list', 'list the subjects (one per line)')
    .option('--describe', "describe a subject's version (--subject; the latest unless --version)")
    .option('--register', 'register --schema-file under --subject')
    .option('--delete', 'delete a subject, or one --version of it (soft unless --permanent)')
    .option('--compatibility', 'show the compatibility level (global, or of --subject), or set it with --level')
    .option('--subject <name>', 'the subject (by the default strategy <topic>-value or <topic>-key)')
    .option('--version <version>', '--describe, --delete: a version number or latest')
    .option('--schema-file <file>', '--register: the schema text (an .avsc, JSON Schema or .proto file)')
    .option('--type <type>', '--register: AVRO (default), JSON (JSONSCHEMA) or PROTOBUF')
    .option('--level <level>', `--compatibility: set the level to ${LEVELS.join(', ')}`)
    .option('--permanent', '--delete: delete for good (what is still live is soft-deleted first)')
    .option('--deleted', '--list, --describe: include soft-deleted subjects and versions');
  addCommonOptions(command);
  withExamples(command, [
    'brook schemas --register --subject orders-value --schema-file order.avsc',
    'brook schemas --register --subject docs-value --schema-file doc.json --type JSON',
    'brook schemas --list',
    'brook schemas --describe --subject orders-value',
    'brook schemas --compatibility --subject orders-value --level FULL',
    'brook schemas --delete --subject orders-value --version 1 --permanent',
  ]);
  command.action(async (options: SchemasOptions) => {
    const action = exactlyOneAction(options, ACTIONS);
    checkFlags(action, options);
    const connection = await connectFrom(options, io.signal);
    switch (action) {
      case 'list':
        return list(connection, options, io);
      case 'describe':
        return describeSubject(connection, options, io);
      case 'register':
        return register(connection, options, io);
      case 'delete':
        return deleteSchemas(connection, options, io);
      case 'compatibility':
        return compatibility(connection, options, io);
    }
  });
}

function checkFlags(action: (typeof ACTIONS)[number], options: SchemasOptions): void {
  const needsSubject = action === 'describe' || action === 'register' || action === 'delete';
  if (needsSubject && (options.subject === undefined || options.subject === '')) {
    throw new UsageError(`--${action} needs --subject`);
  }
  const only = (flag: keyof SchemasOptions, name: string, actions: readonly string[]): void => {
    if (options[flag] !== undefined && !actions.includes(action)) {
      throw new UsageError(`${name} is for ${actions.map((a) => `--${a}`).join(' and ')} only`);
    }
  };
  only('version', '--version', ['describe', 'delete']);
  only('schemaFile', '--schema-file', ['register']);
  only('type', '--type', ['register']);
  only('level', '--level', ['compatibility']);
  only('permanent', '--permanent', ['delete']);
  only('deleted', '--deleted', ['list', 'describe']);
  if (action === 'register' && options.schemaFile === undefined) throw new UsageError('--register needs --schema-file');
  if (options.version !== undefined) versionOf(options.version);
  if (options.type !== undefined) schemaTypeOf(options.type);
  if (options.level !== undefined) levelOf(options.level);
}

function versionOf(text: string): string {
  if (text === 'latest' || /^[1-9]\d{0,9}$/.test(text)) return text;
  throw new UsageError(`--version must be a version number (1 or more) or latest, not ${text}`);
}

export function schemaTypeOf(text: string): SchemaType {
  const upper = text.toUpperCase();
  if (upper === 'AVRO' || upper === 'PROTOBUF') return upper;
  if (upper === 'JSON' || upper === 'JSONSCHEMA') return 'JSON';
  throw new UsageError(`--type must be AVRO, JSON (JSONSCHEMA) or PROTOBUF, not ${text}`);
}

function levelOf(text: string): Level {
  const upper = text.toUpperCase() as Level;
  if (!LEVELS.includes(upper)) throw new UsageError(`--level must be one of ${LEVELS.join(', ')}, not ${text}`);
  return upper;
}

/** The text of a schema file, bounded; a missing or unreadable file is a usage error naming it. */
export async function readSchemaFile(path: string, flag = '--schema-file'): Promise<string> {
  let text: Buffer;
  try {
    text = await readFile(path);
  } catch (error) {
    throw new UsageError(`${flag} ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (text.length > SCHEMA_FILE_BYTES_MAX) throw new UsageError(`${flag} ${path} is larger than 16 MiB`);
  if (text.toString('utf8').trim() === '') throw new UsageError(`${flag} ${path} is empty`);
  return text.toString('utf8');
}

async function list({ api }: Connection, options: SchemasOptions, io: CliIo): Promise<void> {
  const subjects = unwrap(await api.GET('/subjects', { params: { query: { deleted: flag(options.deleted) } } }));
  if (options.output === 'json') return writeJson(io, subjects);
  if (options.output === 'table')
    return void io.stdout.write(
      formatTable(
        ['SUBJECT'],
        subjects.map((s) => [s]),
      ),
    );
  io.stdout.write(subjects.map((subject) => `${subject}\n`).join(''));
}

async function describeSubject(connection: Connection, options: SchemasOptions, io: CliIo): Promise<void> {
  const { api } = connection;
  const subject = options.subject as string;
  const deleted = flag(options.deleted);
  const path = { subject, version: versionOf(options.version ?? 'latest') };
  const version = unwrap(
    await api.GET('/subjects/{subject}/versions/{version}', { params: { path, query: { deleted } } }),
  );
  const versions = unwrap(
    await api.GET('/subjects/{subject}/versions', { params: { path: { subject }, query: { deleted } } }),
  );
  const level = await levelThatApplies(connection, subject);
  const type = version.schemaType ?? 'AVRO';
  if (options.output === 'json') {
    return writeJson(io, { ...version, schemaType: type, versions, compatibilityLevel: level });
  }
  if (options.output === 'table') {
    io.stdout.write(
      formatTable(
        ['SUBJECT', 'VERSION', 'ID', 'TYPE', 'VERSIONS', 'COMPATIBILITY'],
        [[subject, String(version.version), String(version.id), type, versions.join(','), level]],
      ),
    );
    return void io.stdout.write(`${prettySchema(version.schema, type)}\n`);
  }
  io.stdout.write(
    `Subject: ${subject}\tVersion: ${version.version}\tId: ${version.id}\tType: ${type}\t` +
      `Versions: ${versions.join(',')}\tCompatibility: ${level}\n`,
  );
  for (const reference of version.references ?? []) {
    io.stdout.write(`\tReference: ${reference.name}\tSubject: ${reference.subject}\tVersion: ${reference.version}\n`);
  }
  io.stdout.write(`${prettySchema(version.schema, type)}\n`);
}

/** The subject's own level, else the global one (`defaultToGlobal`). */
async function levelThatApplies({ api }: Connection, subject: string | undefined): Promise<Level> {
  if (subject === undefined) return unwrap(await api.GET('/config')).compatibilityLevel;
  const config = unwrap(
    await api.GET('/config/{subject}', { params: { path: { subject }, query: { defaultToGlobal: true } } }),
  );
  return config.compatibilityLevel;
}

function prettySchema(schema: string, type: SchemaType): string {
  if (type === 'PROTOBUF') return schema.trimEnd();
  try {
    return JSON.stringify(JSON.parse(schema), null, 2);
  } catch {
    return schema;
  }
}

async function register({ api }: Connection, options: SchemasOptions, io: CliIo): Promise<void> {
  const subject = options.subject as string;
  const schema = await readSchemaFile(options.schemaFile as string);
  const schemaType = schemaTypeOf(options.type ?? 'AVRO');
  const body = { schema, ...(schemaType === 'AVRO' ? {} : { schemaType }) };
  const { id } = unwrap(await api.POST('/subjects/{subject}/versions', { params: { path: { subject } }, body }));
  // the registration answers the id only; the version holding it under this subject is looked up
  const found = unwrap(await api.POST('/subjects/{subject}', { params: { path: { subject } }, body }));
  const row = { subject, id, version: found.version, schemaType };
  if (options.output === 'json') return writeJson(io, row);
  if (options.output === 'table') {
    return void io.stdout.write(
      formatTable(['SUBJECT', 'VERSION', 'ID', 'TYPE'], [[subject, String(found.version), String(id), schemaType]]),
    );
  }
  io.stdout.write(`Registered schema under subject ${subject}: id ${id}, version ${found.version}.\n`);
}

async function deleteSchemas({ api }: Connection, options: SchemasOptions, io: CliIo): Promise<void> {
  const subject = options.subject as string;
  const permanent = options.permanent === true;
  let deleted: number[];
  if (options.version === undefined) {
    const params = { path: { subject } };
    if (permanent) await softFirst(() => api.DELETE('/subjects/{subject}', { params }), 40404);
    deleted = unwrap(
      await api.DELETE('/subjects/{subject}', { params: { ...params, query: { permanent: permanent || undefined } } }),
    );
  } else {
    let version = versionOf(options.version);
    if (version === 'latest') {
      // resolved first: after the soft delete, "latest" would name another version
      version = String(
        unwrap(await api.GET('/subjects/{subject}/versions/{version}', { params: { path: { subject, version } } }))
          .version,
      );
    }
    const params = { path: { subject, version } };
    if (permanent) await softFirst(() => api.DELETE('/subjects/{subject}/versions/{version}', { params }), 40406);
    deleted = [
      unwrap(
        await api.DELETE('/subjects/{subject}/versions/{version}', {
          params: { ...params, query: { permanent: permanent || undefined } },
        }),
      ),
    ];
  }
  const how = permanent ? 'permanently' : 'soft';
  if (options.output === 'json') return writeJson(io, { subject, permanent, versions: deleted });
  if (options.output === 'table') {
    return void io.stdout.write(
      formatTable(
        ['SUBJECT', 'VERSION', 'DELETED'],
        deleted.map((version) => [subject, String(version), how]),
      ),
    );
  }
  const what = options.version === undefined ? `subject ${subject}` : `subject ${subject} version`;
  io.stdout.write(
    `Deleted ${what}${options.version === undefined ? ` (versions ${deleted.join(', ')})` : ` ${deleted.join(', ')}`}` +
      ` (${how}).\n`,
  );
}

/** The soft delete before a permanent one; already soft-deleted (`alreadyCode`) is fine. */
async function softFirst(
  call: () => Promise<{ data?: unknown; error?: unknown; response: Response }>,
  alreadyCode: number,
): Promise<void> {
  try {
    unwrap(await call());
  } catch (error) {
    if (!(error instanceof BrokerError) || error.errorCode !== alreadyCode) throw error;
  }
}

async function compatibility(connection: Connection, options: SchemasOptions, io: CliIo): Promise<void> {
  const { api } = connection;
  const subject = options.subject;
  if (options.level !== undefined) {
    const body = { compatibility: levelOf(options.level) };
    const set =
      subject === undefined
        ? unwrap(await api.PUT('/config', { body }))
        : unwrap(await api.PUT('/config/{subject}', { params: { path: { subject } }, body }));
    const level = set.compatibility ?? set.compatibilityLevel ?? body.compatibility;
    if (options.output === 'json') return writeJson(io, { subject: subject ?? null, compatibilityLevel: level });
    return void io.stdout.write(`Set the compatibility level of ${scope(subject)} to ${level}.\n`);
  }
  const level = await levelThatApplies(connection, subject);
  if (options.output === 'json') return writeJson(io, { subject: subject ?? null, compatibilityLevel: level });
  if (options.output === 'table') {
    return void io.stdout.write(formatTable(['SUBJECT', 'COMPATIBILITY'], [[subject ?? '(global)', level]]));
  }
  io.stdout.write(`Compatibility level of ${scope(subject)}: ${level}\n`);
}

function scope(subject: string | undefined): string {
  return subject === undefined ? 'the registry (global)' : `subject ${subject}`;
}

function flag(value: boolean | undefined): true | undefined {
  return value === true ? true : undefined;
}
