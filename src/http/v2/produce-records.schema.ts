// The body of REST Proxy v2 produce ({records: [{key?, value, partition?}]}) as compiled JSON schemas (see
// compiled-schema.ts), one per embedded format: binary (keys and values base64 strings) and json (any JSON value,
// also the records of the schema formats).
// Checked as Confluent does: 400 (40002) for a body or record that is not an object or records that is not an
// array; 422 (422) for an empty records array, a partition that is not an integer, a key or value that is not
// base64 (binary format). Bodies the binary fast scanner reads (v2-binary-body.ts) never get here.
import type { SchemaObject } from 'ajv';
import type { ProduceInput } from '../../application/produce/produce.service.js';
import { compileSchema, type CompiledSchema } from '../validation/compiled-schema.js';
import { INVALID_REQUEST, type Rejection } from '../validation/rest-validation.pipe.js';

const UNPROCESSABLE: Rejection = { status: 422, errorCode: 422 };

const base64: SchemaObject = {
  type: ['string', 'null'],
  format: 'base64',
  'x-message': { type: 'must be a base64 string in the binary format.', format: 'is not valid base64.' },
};

function bodySchema(embedded: SchemaObject | true): SchemaObject {
  return {
    type: 'object',
    'x-shape': true,
    'x-message': 'must be a JSON object.',
    required: ['records'],
    properties: {
      records: {
        type: 'array',
        'x-shape': true,
        'x-message': { type: 'must be an array.', minItems: 'must not be empty.' },
        minItems: 1,
        items: {
          type: 'object',
          'x-shape': true,
          'x-message': 'must be a JSON object.',
          properties: {
            partition: {
              type: ['integer', 'null'],
              minimum: Number.MIN_SAFE_INTEGER,
              maximum: Number.MAX_SAFE_INTEGER,
              'x-message': 'must be an integer.',
            },
            key: embedded,
            value: embedded,
          },
        },
      },
    },
  };
}

const codes = { fields: UNPROCESSABLE, shape: INVALID_REQUEST };
const validBinary = compileSchema(bodySchema(base64), codes);
const validJson = compileSchema(bodySchema(true), codes);

export interface V2Record {
  key?: unknown;
  value?: unknown;
  partition?: number | null;
}

/**
 * The records of a v2 produce body in a schema format (avro, jsonschema, protobuf: keys and values any JSON, checked
 * against their schemas later), shaped as in the json format; the body's schema fields are v2-schema-produce.ts's.
 */
export function v2SchemaRecords(body: unknown): V2Record[] {
  if (!validJson(body)) throw validJson.failure('');
  return (body as { records: V2Record[] }).records;
}

/**
 * The records of a v2 produce body parsed the full way (any shape JSON allows), in the json or the binary format.
 * `partition` is the route's partition, when it names one.
 */
export function v2ProduceInputs(
  body: unknown,
  json: boolean,
  partition: number | undefined,
  now: number,
): ProduceInput[] {
  const valid: CompiledSchema = json ? validJson : validBinary;
  if (!valid(body)) throw valid.failure('');
  return (body as { records: V2Record[] }).records.map((record) => ({
    key: embedded(record.key, json),
    value: embedded(record.value, json),
    headers: [],
    timestamp: now,
    partition: partition ?? record.partition,
  }));
}

function embedded(value: unknown, json: boolean): Buffer | null {
  if (value === undefined || value === null) return null;
  return json ? Buffer.from(JSON.stringify(value), 'utf8') : Buffer.from(value as string, 'base64');
}
