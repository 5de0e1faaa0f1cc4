// The registry's reads, served from this broker's copy of `_schemas` (schema-store.service.ts). Reads of what can
// change (subjects, versions, latest, configuration) pass the read barrier first, so that they see every write
// acknowledged before they began, through any broker; a schema id never changes once known, so a look-up by id
// passes it only when the id is not known yet.
import { Injectable } from '@nestjs/common';
import { checkCompatibility } from './compatibility.js';
import { configAnswer, findUnderSubject } from './registry-commands.js';
import {
  parseVersionId,
  schemaByIdAnswer,
  schemaByIdOrThrow,
  versionAnswer,
  versionOrThrow,
} from './registry-answers.js';
import { registryErrors } from './registry-errors.js';
import type { JsonValue } from './parsed-schema.js';
import { schemaFingerprint } from './parse-schema.js';
import type { RegistryState, SchemaById, SubjectVersion } from './registry-state.js';
import { InvalidSchemaError } from './schema-errors.js';
import { SchemaStore } from './schema-store.service.js';
import { SCHEMA_TYPES, type SchemaInput } from './schema-types.js';

@Injectable()
export class SchemaQueries {
  constructor(private readonly store: SchemaStore) {}

  private async state(): Promise<RegistryState> {
    await this.store.sync();
    return this.store.state;
  }

  async subjects(includeDeleted: boolean, prefix: string): Promise<string[]> {
    return (await this.state()).subjects(includeDeleted).filter((subject) => subject.startsWith(prefix));
  }

  async versions(subject: string, includeDeleted: boolean): Promise<number[]> {
    const state = await this.state();
    if (!state.hasSubject(subject, includeDeleted)) throw registryErrors.subjectNotFound(subject);
    return state.versions(subject, includeDeleted).map((value) => value.version);
  }

  async version(subject: string, version: string, includeDeleted: boolean): Promise<JsonValue> {
    const id = parseVersionId(version);
    return versionAnswer(versionOrThrow(await this.state(), subject, id, includeDeleted));
  }

  async versionSchemaText(subject: string, version: string, includeDeleted: boolean): Promise<string> {
    const id = parseVersionId(version);
    return versionOrThrow(await this.state(), subject, id, includeDeleted).schema;
  }

  async referencedBy(subject: string, version: string): Promise<number[]> {
    const state = await this.state();
    const value = versionOrThrow(state, subject, parseVersionId(version), true);
    const ids = new Set(state.referencedBy(subject, value.version, false).map((referrer) => referrer.id));
    return [...ids].sort((a, b) => a - b);
  }

  /** POST /subjects/{s}: the version of the subject that holds this schema. */
  async lookUp(subject: string, input: SchemaInput, normalize: boolean, includeDeleted: boolean): Promise<JsonValue> {
    const state = await this.state();
    const parsed = this.store.parse(input);
    const normalized = normalize || state.effectiveConfig(subject).normalize === true;
    if (!state.hasSubject(subject, includeDeleted)) throw registryErrors.subjectNotFound(subject);
    const found = findUnderSubject(state, subject, schemaFingerprint(parsed, normalized), normalized, includeDeleted);
    if (found === undefined) throw registryErrors.schemaNotFound();
    return versionAnswer(found);
  }

  async schemaById(id: number): Promise<SchemaById> {
    if (this.store.state.schemaById(id) === undefined) await this.store.sync();
    return schemaByIdOrThrow(this.store.state, id);
  }

  async schemaByIdAnswer(id: number): Promise<JsonValue> {
    return schemaByIdAnswer(await this.schemaById(id));
  }

  async subjectsOfId(id: number, includeDeleted: boolean): Promise<string[]> {
    await this.schemaById(id);
    const subjects = new Set(this.store.state.holdersOf(id, includeDeleted).map((holder) => holder.subject));
    return [...subjects];
  }

  async versionsOfId(id: number, includeDeleted: boolean): Promise<SubjectVersion[]> {
    await this.schemaById(id);
    return this.store.state.holdersOf(id, includeDeleted);
  }

  types(): string[] {
    return [...SCHEMA_TYPES].sort();
  }

  async config(subject: string | null, defaultToGlobal: boolean): Promise<JsonValue> {
    const state = await this.state();
    if (subject === null) return configAnswer(state.effectiveConfig(null));
    const config = state.config(subject);
    if (config !== undefined) return configAnswer(config);
    if (defaultToGlobal) return configAnswer(state.effectiveConfig(null));
    throw registryErrors.subjectConfigNotConfigured(subject);
  }

  async mode(subject: string | null, defaultToGlobal: boolean): Promise<JsonValue> {
    const state = await this.state();
    if (subject === null) return { mode: state.effectiveMode(null) };
    const mode = state.mode(subject);
    if (mode !== undefined) return { mode };
    if (defaultToGlobal) return { mode: state.effectiveMode(null) };
    throw registryErrors.subjectModeNotConfigured(subject);
  }

  /**
   * POST /compatibility/subjects/{s}/versions[/{v}]: whether the schema could be registered after the version (or
   * after all the subject's live versions, with version null) at the subject's level; `verbose` adds the reasons.
   */
  async compatibility(
    subject: string,
    version: string | null,
    input: SchemaInput,
    verbose: boolean,
  ): Promise<JsonValue> {
    const state = await this.state();
    let previous = state.versions(subject, false);
    if (version !== null) {
      const id = parseVersionId(version);
      const found = state.version(subject, id, false);
      if (found === undefined && id !== 'latest') throw registryErrors.versionNotFound(id);
      previous = found === undefined ? [] : [found];
    }
    let messages: string[];
    try {
      const parsed = this.store.parse(input);
      const level = state.effectiveConfig(subject).compatibilityLevel;
      const result = checkCompatibility(
        parsed,
        previous.map((value) => ({ version: value.version, schema: this.parsedVersion(value.id) })),
        level,
      );
      messages = result.compatible ? [] : [...result.messages];
    } catch (error) {
      if (!(error instanceof InvalidSchemaError) || !verbose) throw error;
      messages = [error.message];
    }
    return verbose ? { is_compatible: messages.length === 0, messages } : { is_compatible: messages.length === 0 };
  }

  private parsedVersion(id: number) {
    const parsed = this.store.parsedById(id);
    if (parsed === undefined) throw registryErrors.schemaNotFound(id);
    return parsed;
  }
}
