// The schema registry as of some offset of `_schemas`: the replay of its records (registry-records.ts), with the
// look-ups the registry's routes and the record codecs need. Pure: records in, answers out; a record replaces
// whatever its key held before, as compaction would. Invariants kept by apply():
//   - a subject's versions are its schema records not tombstoned (soft-deleted ones included, flagged);
//   - an id is known while at least one version holds it, and then names the schema of its first holder;
//   - highestId() never decreases: it counts every id any record ever named, and the id floor records.
import { DEFAULT_COMPATIBILITY_LEVEL } from './compatibility.js';
import type { CompatibilityConfig, RegistryMode, RegistryRecord, SchemaVersionValue } from './registry-records.js';
import type { SchemaType, StoredSchema } from './schema-types.js';

/** The schema an id names (any version holding the id has the same content). */
export interface SchemaById extends StoredSchema {
  readonly id: number;
  readonly fingerprint: string;
  readonly normalizedFingerprint: string;
}

export interface SubjectVersion {
  readonly subject: string;
  readonly version: number;
}

interface IdEntry {
  schema: SchemaById;
  /** `subject\0version` of every version holding the id. */
  holders: Set<string>;
}

const holderKey = (subject: string, version: number) => `${subject}\u0000${version}`;

export class RegistryState {
  /** Versions by subject, each map in ascending version order once sorted by versions(). */
  private readonly subjectVersions = new Map<string, Map<number, SchemaVersionValue>>();
  private readonly ids = new Map<number, IdEntry>();
  private readonly byFingerprint = new Map<string, Set<number>>();
  private readonly byNormalizedFingerprint = new Map<string, Set<number>>();
  private readonly configs = new Map<string | null, CompatibilityConfig>();
  private readonly modes = new Map<string | null, RegistryMode>();
  private highest = 0;
  private versionsTotal = 0;

  apply(record: RegistryRecord): void {
    switch (record.kind) {
      case 'schema':
        this.removeVersion(record.subject, record.version);
        if (record.value !== null) this.addVersion(record.value);
        return;
      case 'config':
        if (record.value === null) this.configs.delete(record.subject);
        else this.configs.set(record.subject, record.value);
        return;
      case 'mode':
        if (record.value === null) this.modes.delete(record.subject);
        else this.modes.set(record.subject, record.value);
        return;
      case 'max-schema-id':
        this.highest = Math.max(this.highest, record.id);
        return;
    }
  }

  // ---- subjects and versions ----

  subjects(includeDeleted: boolean): string[] {
    const names: string[] = [];
    for (const [subject, versions] of this.subjectVersions) {
      if (includeDeleted || [...versions.values()].some((v) => !v.deleted)) names.push(subject);
    }
    return names.sort();
  }

  /** Whether the subject has a version (a live one unless includeDeleted). */
  hasSubject(subject: string, includeDeleted: boolean): boolean {
    const versions = this.subjectVersions.get(subject);
    if (versions === undefined) return false;
    return includeDeleted || [...versions.values()].some((v) => !v.deleted);
  }

  /** The subject's versions, oldest first (live ones unless includeDeleted). */
  versions(subject: string, includeDeleted: boolean): SchemaVersionValue[] {
    const versions = this.subjectVersions.get(subject);
    if (versions === undefined) return [];
    return [...versions.values()].filter((v) => includeDeleted || !v.deleted).sort((a, b) => a.version - b.version);
  }

  /** A version; `latest` (or -1) is the highest one (live unless includeDeleted). */
  version(subject: string, version: number | 'latest', includeDeleted: boolean): SchemaVersionValue | undefined {
    if (version === 'latest' || version === -1) return this.versions(subject, includeDeleted).at(-1);
    const found = this.subjectVersions.get(subject)?.get(version);
    return found !== undefined && (includeDeleted || !found.deleted) ? found : undefined;
  }

  /** The highest version number the subject has ever kept (soft-deleted ones included); 0 for none. */
  highestVersion(subject: string): number {
    let highest = 0;
    for (const version of this.subjectVersions.get(subject)?.keys() ?? []) highest = Math.max(highest, version);
    return highest;
  }

  /** Every version held, over all subjects (soft-deleted ones included). */
  versionCount(): number {
    return this.versionsTotal;
  }

  /** What a reference resolves to: the version's schema (version -1: the latest live one). */
  resolve(subject: string, version: number): StoredSchema | undefined {
    return this.version(subject, version, version !== -1);
  }

  // ---- ids ----

  schemaById(id: number): SchemaById | undefined {
    return this.ids.get(id)?.schema;
  }

  /** The versions holding the id, by subject then version (live ones unless includeDeleted). */
  holdersOf(id: number, includeDeleted: boolean): SubjectVersion[] {
    const entry = this.ids.get(id);
    if (entry === undefined) return [];
    const holders: SubjectVersion[] = [];
    for (const key of entry.holders) {
      const [subject, version] = key.split('\u0000');
      const value = this.subjectVersions.get(subject)?.get(Number(version));
      if (value !== undefined && (includeDeleted || !value.deleted)) holders.push({ subject, version: value.version });
    }
    return holders.sort((a, b) => (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : a.version - b.version));
  }

  /** The lowest id whose schema has this fingerprint (plain or normalized, as the fingerprint was made). */
  idByFingerprint(fingerprint: string, normalized: boolean): number | undefined {
    const ids = (normalized ? this.byNormalizedFingerprint : this.byFingerprint).get(fingerprint);
    return ids === undefined || ids.size === 0 ? undefined : Math.min(...ids);
  }

  /** The highest schema id any record has named: ids up to it are never handed out again. */
  highestId(): number {
    return this.highest;
  }

  /** The versions whose references name this subject and version (live ones unless includeDeleted). */
  referencedBy(subject: string, version: number, includeDeleted: boolean): SchemaVersionValue[] {
    const referrers: SchemaVersionValue[] = [];
    for (const versions of this.subjectVersions.values()) {
      for (const value of versions.values()) {
        if (!includeDeleted && value.deleted) continue;
        if (value.references.some((r) => r.subject === subject && r.version === version)) referrers.push(value);
      }
    }
    return referrers;
  }

  // ---- configuration ----

  /** The compatibility configured for the subject (null: the global one), if any. */
  config(subject: string | null): CompatibilityConfig | undefined {
    return this.configs.get(subject);
  }

  mode(subject: string | null): RegistryMode | undefined {
    return this.modes.get(subject);
  }

  /** The level a subject is checked at: its own, else the global one, else the default (BACKWARD). */
  effectiveConfig(subject: string | null): CompatibilityConfig {
    return (
      (subject === null ? undefined : this.configs.get(subject)) ??
      this.configs.get(null) ?? { compatibilityLevel: DEFAULT_COMPATIBILITY_LEVEL }
    );
  }

  /** The mode a subject is in: its own, else the global one, else READWRITE. */
  effectiveMode(subject: string | null): RegistryMode {
    return (subject === null ? undefined : this.modes.get(subject)) ?? this.modes.get(null) ?? 'READWRITE';
  }

  // ---- replay ----

  private addVersion(value: SchemaVersionValue): void {
    let versions = this.subjectVersions.get(value.subject);
    if (versions === undefined) this.subjectVersions.set(value.subject, (versions = new Map()));
    versions.set(value.version, value);
    this.versionsTotal++;
    this.highest = Math.max(this.highest, value.id);
    let entry = this.ids.get(value.id);
    if (entry === undefined) {
      entry = { schema: byIdOf(value), holders: new Set() };
      this.ids.set(value.id, entry);
      index(this.byFingerprint, value.fingerprint, value.id);
      index(this.byNormalizedFingerprint, value.normalizedFingerprint, value.id);
    }
    entry.holders.add(holderKey(value.subject, value.version));
  }

  private removeVersion(subject: string, version: number): void {
    const versions = this.subjectVersions.get(subject);
    const old = versions?.get(version);
    if (versions === undefined || old === undefined) return;
    versions.delete(version);
    this.versionsTotal--;
    if (versions.size === 0) this.subjectVersions.delete(subject);
    const entry = this.ids.get(old.id);
    if (entry === undefined) return;
    entry.holders.delete(holderKey(subject, version));
    if (entry.holders.size > 0) return;
    this.ids.delete(old.id);
    unindex(this.byFingerprint, entry.schema.fingerprint, old.id);
    unindex(this.byNormalizedFingerprint, entry.schema.normalizedFingerprint, old.id);
  }
}

function byIdOf(value: SchemaVersionValue): SchemaById {
  return {
    id: value.id,
    schemaType: value.schemaType as SchemaType,
    schema: value.schema,
    references: value.references,
    fingerprint: value.fingerprint,
    normalizedFingerprint: value.normalizedFingerprint,
  };
}

function index(map: Map<string, Set<number>>, fingerprint: string, id: number): void {
  let ids = map.get(fingerprint);
  if (ids === undefined) map.set(fingerprint, (ids = new Set()));
  ids.add(id);
}

function unindex(map: Map<string, Set<number>>, fingerprint: string, id: number): void {
  const ids = map.get(fingerprint);
  if (ids === undefined) return;
  ids.delete(id);
  if (ids.size === 0) map.delete(fingerprint);
}
