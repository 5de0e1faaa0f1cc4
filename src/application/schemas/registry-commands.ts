// What each write to the registry decides, as a pure function of the registry's state (registry-state.ts) and the
// command: the records to append to `_schemas` and the answer, or Confluent's error. A registration that needs a
// new schema id says so (allocate-id) and is completed once the writer has one, so that ids come from one place.
// Rules, as Confluent's registry applies them:
//   register    refused in READONLY mode; an explicit id only in IMPORT mode, no id only in READWRITE mode; a
//               schema the subject already has (same fingerprint, normalized with `normalize` or the subject's
//               normalize setting) answers its id and writes nothing; else it is checked against the subject's
//               live versions at the subject's compatibility level (not in IMPORT mode), takes the id the same
//               schema has under any subject or a new one, and becomes version max(all versions) + 1
//   delete      refused in READONLY mode; a soft delete marks live versions deleted, a permanent one removes
//               versions soft-deleted first; a version other schemas reference stays (42206); removing a
//               subject's last version also removes its compatibility and mode
//   config/mode set and delete the subject's (null: the global) compatibility or mode; IMPORT on a registry or
//               subject that has schemas needs `force`
import type { JsonValue, ParsedSchema } from './parsed-schema.js';
import { checkCompatibility, type CompatibilityLevel } from './compatibility.js';
import { schemaFingerprint } from './parse-schema.js';
import { registryErrors } from './registry-errors.js';
import type { CompatibilityConfig, RegistryMode, RegistryRecord, SchemaVersionValue } from './registry-records.js';
import type { RegistryState } from './registry-state.js';
import type { SchemaInput, SchemaReference } from './schema-types.js';

export type RegistryCommand =
  | {
      readonly op: 'register';
      readonly subject: string;
      readonly schema: SchemaInput;
      readonly normalize: boolean;
      /** IMPORT mode: the id and (optionally) the version to register under. */
      readonly id?: number;
      readonly version?: number;
    }
  | {
      readonly op: 'delete-version';
      readonly subject: string;
      readonly version: number | 'latest';
      readonly permanent: boolean;
    }
  | { readonly op: 'delete-subject'; readonly subject: string; readonly permanent: boolean }
  | { readonly op: 'set-config'; readonly subject: string | null; readonly config: CompatibilityConfig }
  | { readonly op: 'delete-config'; readonly subject: string | null }
  | { readonly op: 'set-mode'; readonly subject: string | null; readonly mode: RegistryMode; readonly force: boolean }
  | { readonly op: 'delete-mode'; readonly subject: string | null };

export interface Outcome {
  readonly records: RegistryRecord[];
  readonly response: JsonValue;
}

export type Decision =
  ({ readonly kind: 'done' } & Outcome) | { readonly kind: 'allocate-id'; complete(id: number): Outcome };

export interface DecisionContext {
  /** Parses a schema to register, its references resolved against the state; throws InvalidSchemaError. */
  parse(input: SchemaInput): ParsedSchema;
  /** The parsed schema of a stored version. */
  parsedVersion(value: SchemaVersionValue): ParsedSchema;
  readonly schemaBytesMax: number;
  /** Versions the registry may hold, over all subjects. */
  readonly versionsMax: number;
}

export function decide(state: RegistryState, command: RegistryCommand, context: DecisionContext): Decision {
  switch (command.op) {
    case 'register':
      return decideRegister(state, command, context);
    case 'delete-version':
      return done(deleteVersion(state, command.subject, command.version, command.permanent));
    case 'delete-subject':
      return done(deleteSubject(state, command.subject, command.permanent));
    case 'set-config':
      return done({
        records: [{ kind: 'config', subject: command.subject, value: command.config }],
        response: configUpdateAnswer(command.config),
      });
    case 'delete-config':
      return done(deleteConfig(state, command.subject));
    case 'set-mode':
      return done(setMode(state, command.subject, command.mode, command.force));
    case 'delete-mode':
      return done(deleteMode(state, command.subject));
  }
}

const done = (outcome: Outcome): Decision => ({ kind: 'done', ...outcome });

/** The answer to a compatibility change, as Confluent echoes the request. */
function configUpdateAnswer(config: CompatibilityConfig): JsonValue {
  return config.normalize === undefined
    ? { compatibility: config.compatibilityLevel }
    : { compatibility: config.compatibilityLevel, normalize: config.normalize };
}

/** A stored configuration as GET /config answers it. */
export function configAnswer(config: CompatibilityConfig): JsonValue {
  return config.normalize === undefined
    ? { compatibilityLevel: config.compatibilityLevel }
    : { compatibilityLevel: config.compatibilityLevel, normalize: config.normalize };
}

// ---- register ----

function checkRegisterMode(state: RegistryState, subject: string, importing: boolean): void {
  const mode = state.effectiveMode(subject);
  if (mode === 'READONLY') throw registryErrors.operationNotPermitted(`Subject ${subject} is in read-only mode`);
  if (importing && mode !== 'IMPORT') {
    throw registryErrors.operationNotPermitted(`Subject ${subject} is not in import mode`);
  }
  if (!importing && mode !== 'READWRITE') {
    throw registryErrors.operationNotPermitted(`Subject ${subject} is not in read-write mode`);
  }
}

/** References as stored: version -1 (latest) replaced by the version it names now. */
function pinnedReferences(state: RegistryState, references: readonly SchemaReference[]): SchemaReference[] {
  return references.map((reference) => {
    if (reference.version !== -1) return reference;
    const latest = state.version(reference.subject, 'latest', false);
    return latest === undefined ? reference : { ...reference, version: latest.version };
  });
}

/** The subject's live version whose schema has this fingerprint. */
export function findUnderSubject(
  state: RegistryState,
  subject: string,
  fingerprint: string,
  normalized: boolean,
  includeDeleted: boolean,
): SchemaVersionValue | undefined {
  return state
    .versions(subject, includeDeleted)
    .find((v) => (normalized ? v.normalizedFingerprint : v.fingerprint) === fingerprint);
}

function decideRegister(
  state: RegistryState,
  command: Extract<RegistryCommand, { op: 'register' }>,
  context: DecisionContext,
): Decision {
  const { subject } = command;
  const importing = command.id !== undefined;
  checkRegisterMode(state, subject, importing);
  const bytes = Buffer.byteLength(command.schema.schema, 'utf8');
  if (bytes > context.schemaBytesMax) throw registryErrors.schemaTooLarge(bytes, context.schemaBytesMax);
  const references = pinnedReferences(state, command.schema.references ?? []);
  const parsed = context.parse({ ...command.schema, references });
  const normalize = command.normalize || state.effectiveConfig(subject).normalize === true;
  const fingerprint = schemaFingerprint(parsed, false);
  const normalizedFingerprint = schemaFingerprint(parsed, true);
  const matching = normalize ? normalizedFingerprint : fingerprint;
  const existing = findUnderSubject(state, subject, matching, normalize, false);
  if (existing !== undefined) {
    if (command.id !== undefined && command.id !== existing.id) throw registryErrors.idDoesNotMatch(command.id);
    return done({ records: [], response: { id: existing.id } });
  }
  if (state.versionCount() >= context.versionsMax) {
    throw registryErrors.operationNotPermitted(
      `The registry holds ${state.versionCount()} schema versions, its limit; delete unused ones permanently first.`,
    );
  }
  if (!importing) checkAgainstPrevious(state, subject, parsed, context);
  const version = nextVersion(state, subject, command.version, importing);
  const build = (id: number): Outcome => ({
    records: [
      {
        kind: 'schema',
        subject,
        version,
        value: {
          subject,
          version,
          id,
          schemaType: parsed.schemaType,
          references,
          schema: normalize ? parsed.normalized : command.schema.schema,
          deleted: false,
          fingerprint,
          normalizedFingerprint,
        },
      },
    ],
    response: { id },
  });
  if (command.id !== undefined) {
    const holder = state.schemaById(command.id);
    if (
      holder !== undefined &&
      holder.fingerprint !== fingerprint &&
      holder.normalizedFingerprint !== normalizedFingerprint
    ) {
      throw registryErrors.idDoesNotMatch(command.id);
    }
    return done(build(command.id));
  }
  const known = state.idByFingerprint(matching, normalize);
  if (known !== undefined) return done(build(known));
  return { kind: 'allocate-id', complete: build };
}

function checkAgainstPrevious(
  state: RegistryState,
  subject: string,
  parsed: ParsedSchema,
  context: DecisionContext,
): void {
  const level: CompatibilityLevel = state.effectiveConfig(subject).compatibilityLevel;
  const previous = state.versions(subject, false).map((value) => ({
    version: value.version,
    schema: context.parsedVersion(value),
  }));
  const result = checkCompatibility(parsed, previous, level);
  if (!result.compatible) throw registryErrors.incompatible(subject, result.messages);
}

function nextVersion(state: RegistryState, subject: string, given: number | undefined, importing: boolean): number {
  const next = state.highestVersion(subject) + 1;
  if (given === undefined || given === next) return next;
  if (!importing) {
    throw registryErrors.operationNotPermitted(
      `Subject ${subject} is not in import mode: a new version can only be ${next}, not ${given}`,
    );
  }
  if (state.version(subject, given, true) !== undefined) {
    throw registryErrors.operationNotPermitted(`Subject ${subject} already has a version ${given}`);
  }
  return given;
}

// ---- deletes ----

function checkNotReadOnly(state: RegistryState, subject: string): void {
  if (state.effectiveMode(subject) === 'READONLY') {
    throw registryErrors.operationNotPermitted(`Subject ${subject} is in read-only mode`);
  }
}

/** Refuses when versions outside `exceptSubject` reference the version (soft-deleted ones too when permanent). */
function checkNotReferenced(
  state: RegistryState,
  value: SchemaVersionValue,
  permanent: boolean,
  exceptSubject: string | null,
): void {
  const referrers = state
    .referencedBy(value.subject, value.version, permanent)
    .filter((referrer) => referrer.subject !== exceptSubject);
  if (referrers.length > 0) throw registryErrors.referenceExists(`${value.subject} version ${value.version}`);
}

/** When the subject keeps no version after `records`, its compatibility and mode go too. */
function forgetSubjectSettings(state: RegistryState, subject: string): RegistryRecord[] {
  const records: RegistryRecord[] = [];
  if (state.config(subject) !== undefined) records.push({ kind: 'config', subject, value: null });
  if (state.mode(subject) !== undefined) records.push({ kind: 'mode', subject, value: null });
  return records;
}

const idFloor = (state: RegistryState): RegistryRecord => ({ kind: 'max-schema-id', id: state.highestId() });

function deleteVersion(state: RegistryState, subject: string, version: number | 'latest', permanent: boolean): Outcome {
  checkNotReadOnly(state, subject);
  if (!state.hasSubject(subject, true)) throw registryErrors.subjectNotFound(subject);
  const value = state.version(subject, version, permanent);
  if (value === undefined) {
    const stored = version === 'latest' ? undefined : state.version(subject, version, true);
    if (stored?.deleted === true) throw registryErrors.versionSoftDeleted(subject, stored.version);
    throw registryErrors.versionNotFound(version === 'latest' ? 'latest' : version);
  }
  if (permanent && !value.deleted) throw registryErrors.versionNotSoftDeleted(subject, value.version);
  checkNotReferenced(state, value, permanent, null);
  if (!permanent) {
    return {
      records: [{ kind: 'schema', subject, version: value.version, value: { ...value, deleted: true } }],
      response: value.version,
    };
  }
  const last = state.versions(subject, true).length === 1;
  return {
    records: [
      { kind: 'schema', subject, version: value.version, value: null },
      idFloor(state),
      ...(last ? forgetSubjectSettings(state, subject) : []),
    ],
    response: value.version,
  };
}

function deleteSubject(state: RegistryState, subject: string, permanent: boolean): Outcome {
  checkNotReadOnly(state, subject);
  if (!state.hasSubject(subject, true)) throw registryErrors.subjectNotFound(subject);
  const live = state.versions(subject, false);
  if (!permanent) {
    if (live.length === 0) throw registryErrors.subjectSoftDeleted(subject);
    for (const value of live) checkNotReferenced(state, value, false, subject);
    return {
      records: live.map((value) => ({
        kind: 'schema' as const,
        subject,
        version: value.version,
        value: { ...value, deleted: true },
      })),
      response: live.map((value) => value.version),
    };
  }
  if (live.length > 0) throw registryErrors.subjectNotSoftDeleted(subject);
  const all = state.versions(subject, true);
  for (const value of all) checkNotReferenced(state, value, true, subject);
  return {
    records: [
      ...all.map((value) => ({ kind: 'schema' as const, subject, version: value.version, value: null })),
      idFloor(state),
      ...forgetSubjectSettings(state, subject),
    ],
    response: all.map((value) => value.version),
  };
}

// ---- compatibility and mode ----

function deleteConfig(state: RegistryState, subject: string | null): Outcome {
  const config = state.config(subject);
  if (subject !== null && config === undefined) {
    if (!state.hasSubject(subject, true)) throw registryErrors.subjectNotFound(subject);
    throw registryErrors.subjectConfigNotConfigured(subject);
  }
  return {
    records: config === undefined ? [] : [{ kind: 'config', subject, value: null }],
    response: configAnswer(config ?? state.effectiveConfig(null)),
  };
}

function setMode(state: RegistryState, subject: string | null, mode: RegistryMode, force: boolean): Outcome {
  if (mode === 'IMPORT' && !force) {
    const hasSchemas = subject === null ? state.subjects(true).length > 0 : state.hasSubject(subject, true);
    if (hasSchemas) {
      throw registryErrors.operationNotPermitted(
        'Cannot import since found existing subjects; set force=true to switch to IMPORT mode anyway',
      );
    }
  }
  return { records: [{ kind: 'mode', subject, value: mode }], response: { mode } };
}

function deleteMode(state: RegistryState, subject: string | null): Outcome {
  const mode = state.mode(subject);
  if (mode === undefined) {
    if (subject === null) return { records: [], response: { mode: state.effectiveMode(null) } };
    throw registryErrors.subjectNotFound(subject);
  }
  return { records: [{ kind: 'mode', subject, value: null }], response: { mode } };
}
