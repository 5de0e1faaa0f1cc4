// Kafka frames to typed messages and back, for both directions: a broker decodes requests and encodes responses;
// a client (the tests' capture peers, the benchmark's load generator) encodes requests and decodes responses.
//
// A frame is an int32 size (of what follows) and then:
//   request:  header v1 = api key int16, api version int16, correlation id int32, client id (int16-length nullable
//             string, never compact); header v2 (flexible versions) = v1 + tagged fields; then the body.
//   response: header v0 = correlation id int32; header v1 (flexible versions, except ApiVersions, which always
//             answers v0) = v0 + tagged fields; then the body.
// The body layouts are the message table's (apis.ts), compiled per (API, version) on first use (layout.ts).
//
// Decoding never throws: it answers { ok: false, error } with a typed error for anything a peer can send
// (truncated or over-long frames, bad lengths or counts, unknown APIs or versions, invalid UTF-8). When the error
// comes after the fixed part of a request header, the error carries it: a broker answers an unsupported
// ApiVersions version with a v0 ApiVersions body (error UNSUPPORTED_VERSION) and closes the connection on any
// other error, as Kafka does. Bytes and record batches in a decoded body are slices of the frame, not copies.
import { apiByKey, apiByName, type ApiKeyOf, type ApiName } from './apis.js';
import type { RequestBody, RequestInput, ResponseBody, ResponseInput } from './apis.js';
import { DecodeFailure, type KafkaDecodeError, ProtocolEncodeError, type RequestHeaderPrefix } from './errors.js';
import { type ApiLayout, layoutOf } from './layout.js';
import { ProtocolReader } from './reader.js';
import { inVersions } from './schema.js';
import { ProtocolWriter } from './writer.js';

export const FRAME_SIZE_BYTES = 4;
const REQUEST_HEADER_PREFIX_BYTES = 8;

interface RequestOf<N extends ApiName> {
  readonly apiName: N;
  readonly apiKey: ApiKeyOf<N>;
  readonly apiVersion: number;
  readonly correlationId: number;
  readonly clientId: string | null;
  readonly body: RequestBody<N>;
}

/** A decoded request; `apiName` (or `apiKey`) narrows `body` to that API's type. */
export type KafkaRequest = { [N in ApiName]: RequestOf<N> }[ApiName];

export interface KafkaResponse<N extends ApiName> {
  readonly correlationId: number;
  readonly body: ResponseBody<N>;
}

export type DecodeResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: KafkaDecodeError };

function failed(failure: DecodeFailure, header?: RequestHeaderPrefix): { ok: false; error: KafkaDecodeError } {
  return { ok: false, error: { code: failure.code, message: failure.message, header } };
}

/** A reader over the frame's payload, once its size prefix is checked against its length. */
function frameReader(frame: Buffer): ProtocolReader {
  if (frame.length < FRAME_SIZE_BYTES) {
    throw new DecodeFailure('truncated', `frame of ${frame.length} bytes has no size prefix`);
  }
  const size = frame.readInt32BE(0);
  if (size !== frame.length - FRAME_SIZE_BYTES) {
    throw new DecodeFailure(
      'frame-size',
      `size prefix ${size} for a frame of ${frame.length - FRAME_SIZE_BYTES} bytes`,
    );
  }
  return new ProtocolReader(frame, FRAME_SIZE_BYTES, frame.length);
}

function skipHeaderTaggedFields(reader: ProtocolReader, where: string): void {
  const count = reader.uvarint(`${where} tagged field count`);
  for (let i = 0; i < count; i++) {
    reader.uvarint(`${where} tag`);
    const size = reader.uvarint(`${where} tagged field size`);
    if (size > reader.remaining()) throw new DecodeFailure('invalid-length', `${where}: tagged field past the end`);
    reader.position += size;
  }
}

function checkConsumed(reader: ProtocolReader, what: string): void {
  if (reader.position !== reader.end) {
    throw new DecodeFailure('trailing-bytes', `${what}: ${reader.remaining()} bytes after the body`);
  }
}

/** Decodes one size-prefixed request frame. */
export function decodeRequest(frame: Buffer): DecodeResult<KafkaRequest> {
  let header: RequestHeaderPrefix | undefined;
  try {
    const reader = frameReader(frame);
    if (reader.remaining() < REQUEST_HEADER_PREFIX_BYTES) {
      throw new DecodeFailure('truncated', `request of ${reader.remaining()} bytes has no header`);
    }
    header = {
      apiKey: reader.int16('request header api key'),
      apiVersion: reader.int16('request header api version'),
      correlationId: reader.int32('request header correlation id'),
    };
    const clientId = reader.string('request header client id', true);
    const api = apiByKey(header.apiKey);
    if (api === undefined) throw new DecodeFailure('unknown-api', `unknown API key ${header.apiKey}`);
    if (!inVersions(header.apiVersion, api.versions)) {
      throw new DecodeFailure(
        'unsupported-version',
        `${api.name} v${header.apiVersion} is not supported (${api.versions})`,
      );
    }
    const layout = layoutOf(api, header.apiVersion);
    if (layout.requestHeaderVersion >= 2) skipHeaderTaggedFields(reader, 'request header');
    const body = layout.request.decode(reader);
    checkConsumed(reader, `${api.name} request v${header.apiVersion}`);
    const request = { apiName: api.name, ...header, clientId, body } as unknown as KafkaRequest;
    return { ok: true, value: request };
  } catch (error) {
    if (error instanceof DecodeFailure) return failed(error, header);
    throw error;
  }
}

function layoutForEncoding(apiName: ApiName, version: number): ApiLayout {
  const api = apiByName(apiName);
  if (!inVersions(version, api.versions)) {
    throw new ProtocolEncodeError(`${apiName} v${version} is not in Brook's table (${api.versions})`);
  }
  return layoutOf(api, version);
}

/** Encodes a response frame as a list of buffers (for socket.writev; record batches are referenced, not copied). */
export function encodeResponse<N extends ApiName>(
  apiName: N,
  version: number,
  correlationId: number,
  body: ResponseInput<N>,
): Buffer[] {
  const layout = layoutForEncoding(apiName, version);
  const writer = new ProtocolWriter();
  writer.int32(0, 'frame size');
  writer.int32(correlationId, 'response header correlation id');
  if (layout.responseHeaderVersion >= 1) writer.uvarint(0);
  layout.response.encode(writer, body);
  return writer.finishFrame();
}

/** Encodes a request frame as a list of buffers. */
export function encodeRequest<N extends ApiName>(
  apiName: N,
  version: number,
  correlationId: number,
  clientId: string | null,
  body: RequestInput<N>,
): Buffer[] {
  const layout = layoutForEncoding(apiName, version);
  const writer = new ProtocolWriter();
  writer.int32(0, 'frame size');
  writer.int16(layout.api.apiKey, 'request header api key');
  writer.int16(version, 'request header api version');
  writer.int32(correlationId, 'request header correlation id');
  writer.string(clientId, true, 'request header client id');
  if (layout.requestHeaderVersion >= 2) writer.uvarint(0);
  layout.request.encode(writer, body);
  return writer.finishFrame();
}

/** Decodes one size-prefixed response frame to a request of `apiName` at `version` (the client knows which). */
export function decodeResponse<N extends ApiName>(
  apiName: N,
  version: number,
  frame: Buffer,
): DecodeResult<KafkaResponse<N>> {
  try {
    const reader = frameReader(frame);
    const api = apiByName(apiName);
    if (!inVersions(version, api.versions)) {
      throw new DecodeFailure('unsupported-version', `${api.name} v${version} is not supported (${api.versions})`);
    }
    const layout = layoutOf(api, version);
    const correlationId = reader.int32('response header correlation id');
    if (layout.responseHeaderVersion >= 1) skipHeaderTaggedFields(reader, 'response header');
    const body = layout.response.decode(reader) as ResponseBody<N>;
    checkConsumed(reader, `${api.name} response v${version}`);
    return { ok: true, value: { correlationId, body } };
  } catch (error) {
    if (error instanceof DecodeFailure) return failed(error);
    throw error;
  }
}

/** The correlation id of a response frame (to match it with its request before decoding), or null if too short. */
export function responseCorrelationId(frame: Buffer): number | null {
  return frame.length >= FRAME_SIZE_BYTES + 4 ? frame.readInt32BE(FRAME_SIZE_BYTES) : null;
}
