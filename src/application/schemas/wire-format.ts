// Confluent's wire format for records with schemas:
//
//   byte 0      magic byte, always 0
//   bytes 1-4   the schema id, a 32-bit big-endian integer
//   Protobuf only: the message indexes, the path from the file's top-level messages to the record's message
//               (`[1, 0]`: the first message nested in the second top-level one), as a zig-zag varint count
//               followed by that many zig-zag varint indexes; the common path `[0]` is written as the single
//               byte 0 (a count of zero)
//   the rest    the payload: Avro binary, JSON text, or the Protobuf message
//
// Decoding is defensive: a buffer that is not in this format, or whose message indexes are cut short or past the
// named bounds, is a typed failure, never an exception.

export const MAGIC_BYTE = 0;
export const WIRE_HEADER_BYTES = 5;
/** The most message indexes (nesting levels) a record may name. */
export const MAX_MESSAGE_INDEXES = 64;
/** Schema ids and message indexes are Java ints: at most 2^31 - 1. */
const MAX_INT = 0x7fff_ffff;

export type WireFailureKind = 'not-wire-format' | 'bad-message-indexes' | 'unknown-schema' | 'invalid-payload';

export interface WireFailure {
  readonly ok: false;
  readonly kind: WireFailureKind;
  readonly message: string;
  readonly schemaId?: number;
}

export interface WireHeader {
  readonly ok: true;
  readonly schemaId: number;
  /** Everything after the schema id: for Protobuf the message indexes, then the payload. */
  readonly body: Buffer;
}

export const wireFailure = (kind: WireFailureKind, message: string, schemaId?: number): WireFailure => ({
  ok: false,
  kind,
  message,
  ...(schemaId === undefined ? {} : { schemaId }),
});

function assertSchemaId(schemaId: number): void {
  if (!Number.isInteger(schemaId) || schemaId < 0 || schemaId > MAX_INT) {
    throw new RangeError(`schema id ${schemaId} is not an integer from 0 to ${MAX_INT}`);
  }
}

/** Magic byte, schema id and `payload` (for Protobuf, `payload` already starts with the message indexes). */
export function encodeWireFormat(schemaId: number, payload: Uint8Array): Buffer {
  assertSchemaId(schemaId);
  const out = Buffer.allocUnsafe(WIRE_HEADER_BYTES + payload.length);
  out[0] = MAGIC_BYTE;
  out.writeInt32BE(schemaId, 1);
  out.set(payload, WIRE_HEADER_BYTES);
  return out;
}

export function decodeWireHeader(bytes: Uint8Array): WireHeader | WireFailure {
  if (bytes.length < WIRE_HEADER_BYTES) {
    return wireFailure('not-wire-format', `${bytes.length} bytes are too few for the wire format's 5-byte header`);
  }
  if (bytes[0] !== MAGIC_BYTE) return wireFailure('not-wire-format', `unknown magic byte ${bytes[0]}`);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const schemaId = buffer.readInt32BE(1);
  if (schemaId < 0) return wireFailure('not-wire-format', `negative schema id ${schemaId}`);
  return { ok: true, schemaId, body: buffer.subarray(WIRE_HEADER_BYTES) };
}

function pushZigZagVarint(out: number[], value: number): void {
  let zigzag = value >= 0 ? value * 2 : -value * 2 - 1;
  while (zigzag >= 0x80) {
    out.push((zigzag % 0x80) | 0x80);
    zigzag = Math.floor(zigzag / 0x80);
  }
  out.push(zigzag);
}

/** The message-index prefix of a Protobuf payload; `[0]` is the single byte 0. */
export function encodeMessageIndexes(indexes: readonly number[]): Buffer {
  if (indexes.length === 0 || indexes.length > MAX_MESSAGE_INDEXES) {
    throw new RangeError(`a message is named by 1 to ${MAX_MESSAGE_INDEXES} indexes, not ${indexes.length}`);
  }
  if (indexes.some((index) => !Number.isInteger(index) || index < 0 || index > MAX_INT)) {
    throw new RangeError(`message indexes must be integers from 0 to ${MAX_INT}: [${indexes.join(', ')}]`);
  }
  if (indexes.length === 1 && indexes[0] === 0) return Buffer.from([0]);
  const out: number[] = [];
  pushZigZagVarint(out, indexes.length);
  for (const index of indexes) pushZigZagVarint(out, index);
  return Buffer.from(out);
}

export interface MessageIndexes {
  readonly ok: true;
  readonly indexes: readonly number[];
  /** The Protobuf message after the indexes. */
  readonly payload: Buffer;
}

/** Reads the message indexes at the start of a Protobuf body; a typed failure when they are malformed. */
export function decodeMessageIndexes(body: Buffer): MessageIndexes | WireFailure {
  let offset = 0;
  const readZigZag = (): number | undefined => {
    let value = 0;
    let scale = 1;
    for (let shift = 0; shift < 35; shift += 7) {
      if (offset >= body.length) return undefined;
      const byte = body[offset++];
      value += (byte & 0x7f) * scale;
      scale *= 0x80;
      if ((byte & 0x80) === 0) return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
    }
    return undefined;
  };
  const count = readZigZag();
  if (count === undefined) return wireFailure('bad-message-indexes', 'the message indexes are cut short');
  if (count === 0) return { ok: true, indexes: [0], payload: body.subarray(offset) };
  if (count < 0 || count > MAX_MESSAGE_INDEXES) {
    return wireFailure(
      'bad-message-indexes',
      `a message index count of ${count} is outside 0 to ${MAX_MESSAGE_INDEXES}`,
    );
  }
  const indexes: number[] = [];
  for (let i = 0; i < count; i++) {
    const index = readZigZag();
    if (index === undefined) return wireFailure('bad-message-indexes', 'the message indexes are cut short');
    if (index < 0 || index > MAX_INT)
      return wireFailure('bad-message-indexes', `message index ${index} is out of range`);
    indexes.push(index);
  }
  return { ok: true, indexes, payload: body.subarray(offset) };
}
