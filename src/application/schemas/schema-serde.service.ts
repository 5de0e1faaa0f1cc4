// Records with schemas on the produce and read paths, over this broker's registry (schema-store.service.ts).
// Produce: the schema a record names (an inline schema, looked up under its subject or registered there; an id; a
// subject and version; a subject's latest version) and its data in Confluent's wire format. Read: the schemas the
// read paths decode with, and a read barrier before decoding records that name an id this broker does not know
// yet (an id never changes once known, so known ids need none).
// Errors are the REST Proxy's: 42205 an inline schema that does not parse, 42203 data that does not match its
// schema, 42207 a schema that cannot be found or registered (the registry's reason in the message).
import { Injectable } from '@nestjs/common';
import { BrookError } from '../../common/brook-error.js';
import { batchesIn, decodeRecords } from '../../partition-log/record-batch.js';
import type { JsonValue, ParsedSchema } from './parsed-schema.js';
import { schemaFingerprint } from './parse-schema.js';
import { encodeRecord, schemaRecordName, type SchemaLookup } from './record-codec.js';
import { findUnderSubject } from './registry-commands.js';
import { InvalidSchemaError } from './schema-errors.js';
import { schemaIdOf } from './schema-fields.js';
import { SchemaRegistry } from './schema-registry.service.js';
import { SchemaStore } from './schema-store.service.js';
import type { SchemaType } from './schema-types.js';
import { subjectName, type SubjectNameStrategy } from './subject-names.js';

/** A schema to produce with, and where it is registered. */
export interface ResolvedSchema {
  readonly id: number;
  readonly schema: ParsedSchema;
  /** The subject and version holding it, when the record named or implied one that does. */
  readonly subject: string | null;
  readonly version: number | null;
}

/** How a produce request names the schema of a key or value. */
export type SchemaChoice =
  | { readonly by: 'inline'; readonly schemaType: SchemaType; readonly schema: string }
  | { readonly by: 'id'; readonly id: number }
  | { readonly by: 'version'; readonly version: number }
  | { readonly by: 'latest' };

export interface SchemaRequest {
  readonly topic: string;
  readonly isKey: boolean;
  readonly choice: SchemaChoice;
  /** The subject given; else the strategy's. */
  readonly subject?: string;
  readonly strategy: SubjectNameStrategy;
  /** The type the request says the schema is, checked against the schema found. */
  readonly schemaType?: SchemaType;
}

/** The REST Proxy's code for a schema that cannot be found or registered ("Error serializing message"). */
export const SCHEMA_SERIALIZATION_CODE = 42207;
export const serializationError = (message: string) =>
  new BrookError(422, SCHEMA_SERIALIZATION_CODE, `Error serializing message. ${message}`);

@Injectable()
export class SchemaSerde {
  constructor(
    private readonly store: SchemaStore,
    private readonly registry: SchemaRegistry,
  ) {}

  /** The registry's schemas by id, for decoding. */
  readonly lookup: SchemaLookup = (id) => this.store.parsedById(id);

  /** Before decoding `batches` with schemas: the read barrier, when a record names an id not known here yet. */
  async prepare(batches: Buffer): Promise<void> {
    const state = this.store.state;
    for (const { header, position } of batchesIn(batches)) {
      for (const record of decodeRecords(batches.subarray(position, position + header.sizeBytes))) {
        for (const bytes of [record.key, record.value]) {
          const id = bytes === null ? undefined : schemaIdOf(bytes);
          if (id !== undefined && state.schemaById(id) === undefined) {
            await this.store.sync();
            return;
          }
        }
      }
    }
  }

  /** The latest live version of a subject as this broker knows it now (no barrier: the produce path's look-up). */
  latestCached(subject: string): ResolvedSchema | undefined {
    const latest = this.store.state.version(subject, 'latest', false);
    if (latest === undefined) return undefined;
    return this.resolved(latest.id, latest.subject, latest.version);
  }

  /** The schema a produce request names; throws the REST Proxy's errors. */
  async resolve(request: SchemaRequest): Promise<ResolvedSchema> {
    const resolved = await this.find(request);
    if (request.schemaType !== undefined && resolved.schema.schemaType !== request.schemaType) {
      throw serializationError(
        `Schema ${resolved.id} is a ${resolved.schema.schemaType} schema, not ${request.schemaType}.`,
      );
    }
    return resolved;
  }

  /** The data in Confluent's wire format (42203 when it does not match the schema). */
  encode(resolved: ResolvedSchema, data: unknown): Buffer {
    return encodeRecord(resolved.id, resolved.schema, data);
  }

  private async find(request: SchemaRequest): Promise<ResolvedSchema> {
    const { choice } = request;
    if (choice.by === 'inline') return this.inline(request, choice);
    if (choice.by === 'id') return this.byId(request, choice.id);
    const subject = request.subject ?? subjectName(request.strategy, request.topic, request.isKey, undefined);
    if (subject === undefined) {
      throw serializationError(
        `subject_name_strategy ${request.strategy} needs a schema or a schema_id to name the subject.`,
      );
    }
    let found = this.store.state.version(subject, choice.by === 'latest' ? 'latest' : choice.version, false);
    if (found === undefined) {
      await this.store.sync();
      found = this.store.state.version(subject, choice.by === 'latest' ? 'latest' : choice.version, false);
    }
    if (found === undefined) {
      throw serializationError(
        choice.by === 'latest'
          ? `Subject '${subject}' has no schema.`
          : `Schema does not exist for subject: ${subject}, version: ${choice.version}.`,
      );
    }
    return this.resolved(found.id, found.subject, found.version);
  }

  private async byId(request: SchemaRequest, id: number): Promise<ResolvedSchema> {
    if (this.store.state.schemaById(id) === undefined) await this.store.sync();
    if (this.store.state.schemaById(id) === undefined) throw serializationError(`Schema ${id} not found.`);
    const schema = this.parsed(id);
    const subject =
      request.subject ?? subjectName(request.strategy, request.topic, request.isKey, schemaRecordName(schema));
    const holder = this.store.state.holdersOf(id, false).find((h) => h.subject === subject);
    if (holder === undefined && request.subject !== undefined) {
      throw serializationError(`Schema ${id} is not registered under subject '${request.subject}'.`);
    }
    return { id, schema, subject: holder?.subject ?? null, version: holder?.version ?? null };
  }

  /** An inline schema: its version under the subject, registered there first when it has none. */
  private async inline(
    request: SchemaRequest,
    choice: Extract<SchemaChoice, { by: 'inline' }>,
  ): Promise<ResolvedSchema> {
    let schema: ParsedSchema;
    try {
      schema = this.store.parse({ schemaType: choice.schemaType, schema: choice.schema });
    } catch (error) {
      if (error instanceof InvalidSchemaError) throw error.asRestProxyError();
      throw error;
    }
    const subject =
      request.subject ?? subjectName(request.strategy, request.topic, request.isKey, schemaRecordName(schema));
    if (subject === undefined) {
      throw serializationError(`subject_name_strategy ${request.strategy} needs a schema with a record name.`);
    }
    const found = findUnderSubject(this.store.state, subject, schemaFingerprint(schema, false), false, false);
    if (found !== undefined) return { id: found.id, schema, subject, version: found.version };
    let answer: JsonValue;
    try {
      answer = await this.registry.execute({
        op: 'register',
        subject,
        schema: { schemaType: choice.schemaType, schema: choice.schema },
        normalize: false,
      });
    } catch (error) {
      if (!(error instanceof BrookError) || error.status >= 500) throw error;
      throw serializationError(`Error when registering schema under subject '${subject}': ${error.message}`);
    }
    const id = (answer as { id: number }).id;
    const holder = this.store.state.holdersOf(id, false).find((h) => h.subject === subject);
    return { id, schema, subject, version: holder?.version ?? null };
  }

  private resolved(id: number, subject: string, version: number): ResolvedSchema {
    return { id, schema: this.parsed(id), subject, version };
  }

  private parsed(id: number): ParsedSchema {
    const schema = this.store.parsedById(id);
    if (schema === undefined) throw serializationError(`Schema ${id} not found.`);
    return schema;
  }
}
