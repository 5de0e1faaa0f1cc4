// What goes wrong reading or writing Kafka frames. Decoding never throws: decodeRequest and decodeResponse answer
// a KafkaDecodeError (a code for the listener to act on, a message naming the field, and the fixed part of the
// request header when it could be read, so that an unsupported ApiVersions version can still be answered).
// Encoding throws ProtocolEncodeError: an encoder's input comes from Brook's own handlers, so a bad one is a bug.

export type KafkaDecodeErrorCode =
  /** The 4-byte size prefix does not match the frame's length. */
  | 'frame-size'
  /** A field runs past the end of the frame (or of its tagged field). */
  | 'truncated'
  | 'unknown-api'
  | 'unsupported-version'
  /** A negative string, bytes or tagged-field length (other than -1 for null), or one past the frame's end. */
  | 'invalid-length'
  /** A negative array count (other than -1 for null), or more elements than the frame has bytes for. */
  | 'invalid-count'
  /** Null where the version does not allow it. */
  | 'invalid-null'
  | 'invalid-utf8'
  /** An unsigned varint longer than 5 bytes or above 2^31 - 1. */
  | 'invalid-varint'
  /** An int64 outside JavaScript's safe integer range. */
  | 'invalid-int64'
  /** A known tagged field whose value does not fill exactly its stated size. */
  | 'invalid-tagged-field'
  /** Bytes left after the body. */
  | 'trailing-bytes';

/** The fixed part of a request header: enough to answer a request the broker cannot decode further. */
export interface RequestHeaderPrefix {
  readonly apiKey: number;
  readonly apiVersion: number;
  readonly correlationId: number;
}

export interface KafkaDecodeError {
  readonly code: KafkaDecodeErrorCode;
  readonly message: string;
  readonly header?: RequestHeaderPrefix;
}

/** Thrown inside the decoder only; decodeRequest and decodeResponse turn it into a KafkaDecodeError. */
export class DecodeFailure {
  constructor(
    readonly code: KafkaDecodeErrorCode,
    readonly message: string,
  ) {}
}

export class ProtocolEncodeError extends Error {}
