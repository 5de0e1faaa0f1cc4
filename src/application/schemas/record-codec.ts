// Records with schemas, both ways, in Confluent's wire format (wire-format.ts). Encoding takes the data in the JSON
// form the REST Proxy uses for the schema's type (Avro's JSON encoding, plain JSON, proto3 JSON) and throws a
// DataConversionError (42203) when it does not match. Decoding takes stored bytes and a look-up of schemas by id and
// never throws: bytes not in the wire format, an unknown id, malformed message indexes or a payload the schema
// cannot read are each a typed failure, for a per-record error on the read paths.
import { decodeAvro, encodeAvro } from './avro-data.js';
import { decodeJsonSchemaData, encodeJsonSchemaData } from './json-schema-data.js';
import type { JsonValue, ParsedSchema } from './parsed-schema.js';
import { decodeProtobufData, encodeProtobufData, findProtobufMessage, protobufMessageAt } from './protobuf-data.js';
import { DataConversionError, errorText } from './schema-errors.js';
import type { SchemaType } from './schema-types.js';
import {
  decodeMessageIndexes,
  decodeWireHeader,
  encodeWireFormat,
  wireFailure,
  type WireFailure,
} from './wire-format.js';

export interface EncodeOptions {
  /** Protobuf: the message the data is (full name, or without the package); the file's first by default. */
  readonly messageName?: string;
}

export function encodeRecord(
  schemaId: number,
  schema: ParsedSchema,
  data: unknown,
  options: EncodeOptions = {},
): Buffer {
  return encodeWireFormat(schemaId, encodePayload(schema, data, options));
}

/** The payload of encodeRecord, without the wire format's header: throws DataConversionError (42203) only. */
export function encodePayload(schema: ParsedSchema, data: unknown, options: EncodeOptions = {}): Buffer {
  try {
    if (schema.schemaType === 'AVRO') return encodeAvro(schema.avroType, data);
    if (schema.schemaType === 'JSON') return encodeJsonSchemaData(schema, data);
    return encodeProtobufData(schema, data, options.messageName);
  } catch (error) {
    throw asDataConversionError(error);
  }
}

/** What an encoder threw, as the 42203 refusal. */
export function asDataConversionError(error: unknown): DataConversionError {
  return error instanceof DataConversionError ? error : new DataConversionError(errorText(error));
}

/** The caller's schemas by id; undefined for an id it does not know. */
export type SchemaLookup = (schemaId: number) => ParsedSchema | undefined;

export interface DecodedRecord {
  readonly ok: true;
  readonly schemaId: number;
  readonly schemaType: SchemaType;
  readonly data: JsonValue;
  /** Protobuf: the full name of the record's message. */
  readonly messageName?: string;
}

export function decodeRecord(bytes: Uint8Array, lookup: SchemaLookup): DecodedRecord | WireFailure {
  const header = decodeWireHeader(bytes);
  if (!header.ok) return header;
  const { schemaId, body } = header;
  let schema: ParsedSchema | undefined;
  try {
    schema = lookup(schemaId);
  } catch (error) {
    return wireFailure('unknown-schema', `schema ${schemaId} could not be looked up: ${errorText(error)}`, schemaId);
  }
  if (!schema) return wireFailure('unknown-schema', `schema ${schemaId} not found`, schemaId);
  try {
    if (schema.schemaType === 'AVRO') {
      return { ok: true, schemaId, schemaType: 'AVRO', data: decodeAvro(schema.avroType, body) };
    }
    if (schema.schemaType === 'JSON') {
      return { ok: true, schemaId, schemaType: 'JSON', data: decodeJsonSchemaData(body) };
    }
    const indexes = decodeMessageIndexes(body);
    if (!indexes.ok) return { ...indexes, schemaId };
    const message = protobufMessageAt(schema, indexes.indexes);
    if (!message) {
      return wireFailure(
        'bad-message-indexes',
        `schema ${schemaId} has no message at [${indexes.indexes.join(', ')}]`,
        schemaId,
      );
    }
    const data = decodeProtobufData(message, indexes.payload);
    return { ok: true, schemaId, schemaType: 'PROTOBUF', data, messageName: message.type.fullName.slice(1) };
  } catch (error) {
    return wireFailure(
      'invalid-payload',
      `the payload does not match schema ${schemaId}: ${errorText(error)}`,
      schemaId,
    );
  }
}

/**
 * The record name subject strategies (RECORD_NAME, TOPIC_RECORD_NAME) use: an Avro named type's full name, a JSON
 * Schema's `title`, a Protobuf message's full name; undefined when the schema has none.
 */
export function schemaRecordName(schema: ParsedSchema, options: EncodeOptions = {}): string | undefined {
  if (schema.schemaType === 'AVRO') return schema.avroType.name;
  if (schema.schemaType === 'JSON') {
    const { document } = schema;
    const title =
      typeof document === 'object' && document !== null && !Array.isArray(document) ? document.title : undefined;
    return typeof title === 'string' ? title : undefined;
  }
  return findProtobufMessage(schema, options.messageName)?.type.fullName.slice(1);
}
