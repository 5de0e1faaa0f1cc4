// The one request-body parser for every JSON media type Brook accepts (application/json, the REST Proxy's
// application/vnd.kafka[.json|.binary|.avro|.jsonschema|.protobuf].v2+json and the schema registry's
// application/vnd.schemaregistry[.v1]+json). It bounds the body (413), rejects invalid UTF-8, malformed
// JSON and JSON nested deeper than JSON_DEPTH_MAX (400: recursive code such as JSON.stringify of a JSON record value
// would otherwise overflow the stack), and hands the streaming produce route its raw body: a v3 `.../records` POST
// sent chunked (no Content-Length) is a stream of concatenated records, parsed by the route as it arrives. A v2
// binary produce body goes through the fast scanner (v2-binary-body.ts) first, a v2 avro one through the schema body
// scanner (v2-schema-body.ts); what they do not take is parsed here the full way.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { BATCHES_MEDIA_TYPE, INTERNAL_PREFIX } from '../../cluster/peer-client.js';
import { BrookError } from '../../common/brook-error.js';
import { scanV2BinaryBody } from '../v2-binary/v2-binary-body.js';
import { scanV2SchemaBody } from '../v2/v2-schema-body.js';
import { v2SchemaType } from '../v2/v2-schema-produce.js';

export const JSON_MEDIA_TYPES =
  /^application\/(?:vnd\.kafka(?:\.(?:json|binary|avro|jsonschema|protobuf))?\.v2\+|vnd\.schemaregistry(?:\.v1)?\+)?json$/;
const STREAMING_PRODUCE_ROUTE = /^\/v3\/clusters\/[^/]+\/topics\/[^/]+\/records(?:\?.*)?$/;

/** What the parser hands a streaming produce request instead of a parsed body. */
export class StreamingBody {
  constructor(readonly stream: Readable) {}
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Deepest nesting of arrays and objects accepted in a request body. */
export const JSON_DEPTH_MAX = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * The deepest nesting in JSON text, counted on the bytes (UTF-8 continuation bytes never equal these ASCII ones).
 * A string is skipped whole: its closing quote is the next quote not escaped, i.e. not preceded by an odd run of
 * backslashes, found with indexOf rather than byte by byte (most of a produce body is strings).
 */
export function jsonDepth(body: Buffer, stopAbove = JSON_DEPTH_MAX): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (byte === QUOTE) {
      let close = body.indexOf(QUOTE, i + 1);
      while (close >= 0 && isEscaped(body, close)) close = body.indexOf(QUOTE, close + 1);
      // an unterminated string: nothing after it nests (JSON.parse refuses the body)
      if (close < 0) return deepest;
      i = close;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return deepest;
}

/** Whether the byte at `at` (inside a string) is escaped: an odd run of backslashes before it. */
function isEscaped(body: Buffer, at: number): boolean {
  let backslashes = 0;
  while (body[at - 1 - backslashes] === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}

export function registerJsonBodyParser(app: FastifyInstance, bodyLimitBytes: number): void {
  app.removeAllContentTypeParsers();
  registerBatchBodyParser(app, bodyLimitBytes);
  app.addContentTypeParser(
    JSON_MEDIA_TYPES,
    { bodyLimit: bodyLimitBytes },
    (request: FastifyRequest, payload, done) => {
      if (
        request.method === 'POST' &&
        request.headers['content-length'] === undefined &&
        STREAMING_PRODUCE_ROUTE.test(request.url)
      ) {
        done(null, new StreamingBody(payload));
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      let failed = false;
      payload.on('data', (chunk: Buffer) => {
        if (failed) return;
        received += chunk.length;
        if (received > bodyLimitBytes) {
          failed = true;
          done(new BrookError(413, 413, `Request body is larger than ${bodyLimitBytes} bytes.`), undefined);
          return;
        }
        chunks.push(chunk);
      });
      payload.on('error', (error) => {
        if (!failed) done(error, undefined);
        failed = true;
      });
      payload.on('end', () => {
        if (failed) return;
        try {
          const produce = v2ProduceScan(request);
          // the schema body scanner's answer keeps the body: it gets one of its own, not the reused gather buffer
          const body = produce === 'avro' ? owned(chunks, received) : gatheredBody(chunks, received);
          if (produce === 'binary') {
            done(null, v2BinaryBody(body));
            return;
          }
          const scanned = produce === 'avro' ? scanV2SchemaBody(body, JSON_DEPTH_MAX) : null;
          done(null, scanned ?? parseJson(body));
        } catch (error) {
          done(error as Error, undefined);
        }
      });
    },
  );
}

/**
 * Bodies of several chunks up to this size are gathered into one buffer kept for the next body, not a new one each
 * time: the parser reads a body synchronously, and neither the scanner's records nor the parsed JSON refer to it.
 */
const GATHER_BYTES_MAX = 1024 * 1024;
let gatherBuffer = Buffer.alloc(0);

/**
 * The body in one buffer: its only chunk, a view of the reused gather buffer, or (past GATHER_BYTES_MAX) a copy. A
 * view is only good until the next body is gathered: read it synchronously.
 */
export function gatheredBody(chunks: Buffer[], received: number): Buffer {
  if (chunks.length === 1) return chunks[0];
  if (received > GATHER_BYTES_MAX) return Buffer.concat(chunks, received);
  if (gatherBuffer.length < received)
    gatherBuffer = Buffer.allocUnsafe(Math.min(GATHER_BYTES_MAX, Math.max(received, 2 * gatherBuffer.length)));
  let at = 0;
  for (const chunk of chunks) at += chunk.copy(gatherBuffer, at);
  return gatherBuffer.subarray(0, received);
}

/** The body in one buffer nothing else writes: its only chunk (each is a buffer of its own), or the chunks joined. */
function owned(chunks: Buffer[], received: number): Buffer {
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received);
}

/** The routes of REST Proxy v2 produce, as registered. */
const V2_PRODUCE_ROUTES = new Set(['/topics/:topic_name', '/topics/:topic_name/partitions/:partition_id']);
/** The v2 embedded format the controller reads as JSON; every other accepted media type is read as binary. */
export const V2_JSON_FORMAT = 'application/vnd.kafka.json.v2+json';
/** The v2 embedded formats read as JSON (json, and the schema formats): every other one is binary. */
const V2_JSON_EMBEDDED = /^application\/vnd\.kafka\.(?:json|avro|jsonschema|protobuf)\.v2\+json/;

/**
 * Which fast scanner a v2 produce with a declared length goes through first: the binary one in the binary format,
 * the schema body one in the avro format, none otherwise (a chunked body is charged to the producer quota by its
 * parsed size, so it keeps the full path).
 */
function v2ProduceScan(request: FastifyRequest): 'binary' | 'avro' | null {
  if (
    request.method !== 'POST' ||
    request.headers['content-length'] === undefined ||
    !V2_PRODUCE_ROUTES.has(request.routeOptions.url ?? '')
  ) {
    return null;
  }
  const contentType = request.headers['content-type'] ?? '';
  if (v2SchemaType(contentType) === 'AVRO') return 'avro';
  return V2_JSON_EMBEDDED.test(contentType) ? null : 'binary';
}

/**
 * A v2 binary produce body with a declared length, as the route gets it: the fast scanner's records, or (for
 * anything but the plain shape) the body parsed the full way, which answers errors as every JSON body's parse does.
 */
export function v2BinaryBody(body: Buffer): unknown {
  return scanV2BinaryBody(body) ?? parseJson(body);
}

/** Raw record batches, accepted on the internal broker-to-broker routes only. */
function registerBatchBodyParser(app: FastifyInstance, bodyLimitBytes: number): void {
  app.addContentTypeParser(
    BATCHES_MEDIA_TYPE,
    { parseAs: 'buffer', bodyLimit: bodyLimitBytes },
    (request: FastifyRequest, body: Buffer, done) => {
      if (!request.url.startsWith(`${INTERNAL_PREFIX}/`)) {
        done(new BrookError(415, 415, `${BATCHES_MEDIA_TYPE} is accepted by internal routes only.`), undefined);
        return;
      }
      done(null, body);
    },
  );
}

export function parseJson(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  if (body.length > JSON_DEPTH_MAX && jsonDepth(body) > JSON_DEPTH_MAX)
    throw new BrookError(400, 400, `Request body nests arrays and objects deeper than ${JSON_DEPTH_MAX} levels.`);
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new BrookError(400, 400, 'Request body is not valid UTF-8.');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BrookError(400, 400, `Malformed JSON: ${(error as Error).message}`);
  }
}
