// Protobuf records: which message of the schema's file a record is (by name, the first one by default), and the
// payload Confluent's format writes for it, message indexes first. A message name may be given in full
// (`acme.Outer.Inner`, with or without a leading dot) or without the file's package (`Outer.Inner`).
import { DataConversionError } from './schema-errors.js';
import type { JsonValue, ParsedProtobufSchema, ProtobufMessage } from './parsed-schema.js';
import { messageFromJson, messageToJson } from './protobuf-json.js';
import { encodeMessageIndexes } from './wire-format.js';

/** The schema's message called `name` (the first one without a name), or undefined when it has none such. */
export function findProtobufMessage(schema: ParsedProtobufSchema, name?: string): ProtobufMessage | undefined {
  if (name === undefined) return schema.messages[0];
  const full = name.startsWith('.') ? name : `.${name}`;
  const inPackage = schema.packageName ? `.${schema.packageName}${full}` : full;
  return schema.messages.find((message) => message.type.fullName === full || message.type.fullName === inPackage);
}

export function protobufMessageAt(
  schema: ParsedProtobufSchema,
  indexes: readonly number[],
): ProtobufMessage | undefined {
  return schema.messages.find(
    (message) => message.indexes.length === indexes.length && message.indexes.every((index, i) => index === indexes[i]),
  );
}

/** Message indexes and the binary message for proto3 JSON `data`; throws DataConversionError. */
export function encodeProtobufData(schema: ParsedProtobufSchema, data: unknown, messageName?: string): Buffer {
  const message = findProtobufMessage(schema, messageName);
  if (!message) {
    throw new DataConversionError(
      messageName === undefined ? 'the schema has no message' : `the schema has no message ${messageName}`,
    );
  }
  const payload = message.type.encode(messageFromJson(message.type, data)).finish();
  return Buffer.concat([encodeMessageIndexes(message.indexes), payload]);
}

/** The proto3 JSON of a binary message; throws when the bytes are not a message of that type. */
export function decodeProtobufData(message: ProtobufMessage, payload: Buffer): JsonValue {
  return messageToJson(message.type, message.type.decode(payload) as unknown as Record<string, unknown>);
}
