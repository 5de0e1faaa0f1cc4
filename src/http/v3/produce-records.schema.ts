// The bodies of v3 produce as compiled JSON schemas (see compiled-schema.ts): one record (Confluent's
// ProduceRequest: partition_id, headers [{name, value (base64)}], key and value {type, data} or with a schema,
// timestamp), also each record of a streamed body and each entry of `records:batch` ({entries: [{id, ...record}]}).
// A record that is not a JSON object, or a header that is not one, is 400 (40002); any other bad field 422 (42206);
// the batch's own fields 400 (42208). The schema checks the fields in the order partition_id, headers, timestamp,
// the first failure answered; then parseRecord, as it decodes them once, what needs decoding: header values and
// the timestamp's date, then the key and the value, each an object whose data, type and schema fields
// (schema, schema_id, schema_version, subject, subject_name_strategy) application/schemas/produce-fields.ts
// reads, finding or registering the schema through SchemaSerde.
import { BrookError, errors } from '../../common/brook-error.js';
import type { ProduceInput } from '../../application/produce/produce.service.js';
import { decodeBase64Strict } from '../../application/record-format.js';
import { v3Field, type FieldBytes, type FieldReport } from '../../application/schemas/produce-fields.js';
import type { SchemaSerde } from '../../application/schemas/schema-serde.service.js';
import type { RecordHeader } from '../../partition-log/record-batch.js';
import { compileSchema } from '../validation/compiled-schema.js';
import { INVALID_PAYLOAD, INVALID_REQUEST, type Rejection } from '../validation/rest-validation.pipe.js';

/** Confluent's code for a bad records:batch request (the list of entries itself, or an entry's id). */
export const INVALID_BATCH: Rejection = { status: 400, errorCode: 42208 };
export const ENTRY_ID_CHARS_MAX = 80;
const TIMESTAMP_RULE = 'must be an RFC 3339 date-time.';

const recordProperties = {
  partition_id: {
    type: ['integer', 'null'],
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    'x-message': 'must be a non-negative integer.',
  },
  headers: {
    type: ['array', 'null'],
    'x-message': 'must be an array.',
    items: {
      type: 'object',
      'x-shape': true,
      'x-message': 'must be a JSON object.',
      required: ['name'],
      properties: {
        name: { type: 'string', 'x-message': 'must be a string.' },
        value: { type: ['string', 'null'], 'x-message': 'must be base64.' },
      },
    },
  },
  timestamp: { type: ['string', 'null'], 'x-message': TIMESTAMP_RULE },
};

const validRecord = compileSchema(
  { type: 'object', 'x-shape': true, 'x-message': 'must be a JSON object.', properties: recordProperties },
  { fields: INVALID_PAYLOAD, shape: INVALID_REQUEST },
);

/** A record as the v3 routes hold it: what to produce, and the key's and value's report (type, size, schema). */
export interface ParsedRecord {
  input: ProduceInput;
  key: FieldReport | null;
  value: FieldReport | null;
}

interface RecordBody {
  key?: unknown;
  value?: unknown;
  partition_id?: number | null;
  headers?: Array<{ name: string; value?: string | null }> | null;
  timestamp?: string | null;
}

/**
 * One record of a v3 produce body, `what` naming it in errors ("record", "entries[3]"); a Promise only when its key
 * or value needs a schema found or registered first.
 */
export function parseRecord(
  serde: SchemaSerde,
  topic: string,
  record: unknown,
  what: string,
  nowMs: number,
): ParsedRecord | Promise<ParsedRecord> {
  if (!validRecord(record)) throw validRecord.failure(what);
  const { key: keyData, value: valueData, partition_id: partition, headers, timestamp } = record as RecordBody;
  const recordHeaders = headersOf(headers, `${what}.headers`);
  const timestampMs = timestamp === undefined || timestamp === null ? nowMs : Date.parse(timestamp);
  if (!(timestampMs >= 0)) throw errors.invalidPayload(`${what}.timestamp ${TIMESTAMP_RULE}`);
  const assemble = (key: FieldBytes, value: FieldBytes): ParsedRecord => ({
    input: { key: key.bytes, value: value.bytes, headers: recordHeaders, timestamp: timestampMs, partition },
    key: key.report,
    value: value.report,
  });
  const key = v3Field(serde, topic, true, keyData, `${what}.key`);
  const value = v3Field(serde, topic, false, valueData, `${what}.value`);
  if (key instanceof Promise || value instanceof Promise) {
    return Promise.all([key, value]).then(([k, v]) => assemble(k, v));
  }
  return assemble(key, value);
}

function headersOf(headers: RecordBody['headers'], field: string): RecordHeader[] {
  if (headers === undefined || headers === null) return [];
  return headers.map(({ name, value }, i) => ({
    key: name,
    value: value === undefined || value === null ? null : base64Bytes(value, `${field}[${i}].value`),
  }));
}

function base64Bytes(text: string, field: string): Buffer {
  const bytes = decodeBase64Strict(text);
  if (bytes === null) throw errors.invalidPayload(`${field} is not valid base64.`);
  return bytes;
}

/** The records:batch body, without its records: {entries: [{id, ...}]}, at most `entriesMax` of them. */
const validBatch = compileSchema(
  {
    type: 'object',
    'x-shape': true,
    'x-message': 'must be a JSON object.',
    required: ['entries'],
    properties: {
      entries: {
        type: 'array',
        'x-shape': true,
        'x-message': { type: 'must be an array.', minItems: 'must not be empty.' },
        minItems: 1,
      },
    },
  },
  { fields: INVALID_BATCH, shape: INVALID_REQUEST },
);

const validEntry = compileSchema(
  {
    type: 'object',
    'x-shape': true,
    'x-message': 'must be a JSON object.',
    required: ['id'],
    properties: {
      id: {
        type: 'string',
        minLength: 1,
        maxLength: ENTRY_ID_CHARS_MAX,
        'x-message': `must be a string of 1 to ${ENTRY_ID_CHARS_MAX} characters.`,
      },
    },
  },
  { fields: INVALID_BATCH, shape: INVALID_REQUEST },
);

/** The entries of a records:batch body, each with its distinct id; their records are parsed one by one after. */
export function batchEntries(body: unknown, entriesMax: number): Array<{ id: string } & Record<string, unknown>> {
  if (!validBatch(body)) throw validBatch.failure('');
  const entries = (body as { entries: unknown[] }).entries;
  if (entries.length > entriesMax) {
    throw new BrookError(400, 42208, `entries holds ${entries.length} records; at most ${entriesMax} are allowed.`);
  }
  const ids = new Set<string>();
  entries.forEach((entry, i) => {
    if (!validEntry(entry)) throw validEntry.failure(`entries[${i}]`);
    const { id } = entry as { id: string };
    if (ids.has(id)) throw new BrookError(400, 42208, `entries ids must be distinct; '${id}' repeats.`);
    ids.add(id);
  });
  return entries as Array<{ id: string } & Record<string, unknown>>;
}
