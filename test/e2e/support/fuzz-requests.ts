// The generated requests of the REST fuzz run (fuzz.e2e.ts): every operation in openapi.yaml, fast-check
// arbitraries of hostile values (huge and negative numbers, deep JSON, long strings, invalid UTF-8, bad base64,
// wrong content types, truncated JSON) and of topic patterns, the path segments they are put in, and the raw HTTP
// client that sends them to the fuzzed broker (support/fuzz-broker.ts) whatever they are.
import fc from 'fast-check';
import { request as httpRequest } from 'node:http';
import { broker, cid, type Json, V2 } from './fuzz-broker.js';
import { openapi } from './openapi-validator.js';

interface Operation {
  method: string;
  path: string;
  query: string[];
  responses: Record<string, unknown>;
}

const operations: Operation[] = Object.entries(openapi.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      query: [
        ...(((item as Json).parameters as Json[] | undefined) ?? []),
        ...(((operation as Json).parameters as Json[]) ?? []),
      ]
        .map((p) => resolveParameter(p))
        .filter((p) => p.in === 'query')
        .map((p) => p.name as string),
      responses: (operation as Json).responses as Record<string, unknown>,
    })),
);

function resolveParameter(parameter: Json): Json {
  const ref = parameter.$ref;
  if (typeof ref !== 'string') return parameter;
  const name = ref.split('/').pop()!;
  return ((openapi.components as Json).parameters as Record<string, Json>)[name];
}

const huge = fc.constantFrom(
  '9'.repeat(400),
  '18446744073709551616',
  '-1',
  '-9007199254740993',
  '1e308',
  'NaN',
  '0x10',
  '1.5',
);
export const garbageText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  huge,
  fc.constantFrom('..', '%', '%C3%28', '%FF%FE', '%00', '%2F', 'a%2Fb', ' ', '-', '*', '__consumer_offsets'),
  fc.integer({ min: 1, max: 3000 }).map((n) => 'x'.repeat(n)),
);
/** Mostly a value that gets past the first checks (so deeper code runs), sometimes garbage. */
const VALID_PATH_VALUES: Record<string, string[]> = {
  cluster_id: ['@cid'],
  topic_name: ['fuzz', 'fuzz', 'nope'],
  partition_id: ['0', '1', '2'],
  broker_id: ['0', '1'],
  name: ['retention.ms', 'cleanup.policy', 'max.message.bytes'],
  consumer_group_id: ['g-fuzz', 'nope'],
  group_name: ['g-fuzz'],
  instance: ['i-fuzz', 'nope'],
  consumer_id: ['nope'],
};
const pathValue = (name: string) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...(VALID_PATH_VALUES[name] ?? ['x'])) },
    { weight: 1, arbitrary: garbageText },
  );
export const scalar = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(2 ** 53, -(2 ** 63), 1e308, -1, 0, 0.5, Number.MAX_SAFE_INTEGER + 2),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 30 }),
  garbageText,
);
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 5 }) },
);
/** Topic patterns: shapes that stall backtracking engines, what RE2 refuses, huge repetitions, random syntax. */
export const patternText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '(.?.*)*Q',
    '(a+)+$',
    '(x+x+)+y',
    '(.*){1000}',
    '\\pL{50}',
    '(a)\\1',
    '(?=a)b',
    '(?<!a)b',
    'a++',
    '(?>a)',
    '[',
    '(',
    '*',
    '\\',
    'a{99999}',
    '(?i)FUZZ',
    'fu.*|ke.*',
    '.*',
    '',
    '\uD800',
    'x'.repeat(513),
    `(${'a|'.repeat(200)}b)`,
  ),
  fc
    .array(
      fc.constantFrom(
        '(',
        ')',
        '.',
        '*',
        '+',
        '?',
        '|',
        '[',
        ']',
        '{',
        '}',
        ',',
        '1',
        '9',
        'a',
        'f',
        'u',
        'z',
        '\\',
        '^',
        '$',
        '\\p',
        'L',
        '{1000}',
        '(?',
        '<',
        '=',
        '!',
        '\\1',
      ),
      { maxLength: 60 },
    )
    .map((parts) => parts.join('')),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
);
const data = fc.record(
  {
    type: fc.oneof(fc.constantFrom('BINARY', 'JSON', 'STRING', 'AVRO', 'binary'), scalar),
    data: fc.oneof(anyValue, fc.constantFrom('!!!not base64', 'YQ', '====', 'YWJj\u0000', '\uD800')),
  },
  { requiredKeys: [] },
);
const FIELDS = [
  'topic_name',
  'partitions_count',
  'replication_factor',
  'configs',
  'validate_only',
  'value',
  'data',
  'operation',
  'name',
  'partition_id',
  'timestamp',
  'headers',
  'entries',
  'id',
  'records',
  'partition',
  'format',
  'auto.offset.reset',
  'auto.commit.enable',
  'fetch.min.bytes',
  'consumer.request.timeout.ms',
  'topics',
  'topic_pattern',
  'partitions',
  'offsets',
  'offset',
  'topic',
  'metadata',
  'to',
  'dry_run',
  'resource_type',
  'resource_name',
  'pattern_type',
  'principal',
  'host',
  'permission',
  'key',
];
const shaped: fc.Arbitrary<unknown> = fc.dictionary(
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...FIELDS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
  ),
  fc.oneof(
    anyValue,
    data,
    fc.array(fc.oneof(data, fc.dictionary(fc.constantFrom(...FIELDS), anyValue, { maxKeys: 5 })), { maxLength: 4 }),
  ),
  { maxKeys: 6 },
);
const body: fc.Arbitrary<Buffer | undefined> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: patternText.map((pattern) => Buffer.from(JSON.stringify({ topic_pattern: pattern }))) },
  { weight: 6, arbitrary: shaped.map((v) => Buffer.from(JSON.stringify(v))) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 6 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1000, max: 200_000 }).map((n) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`)),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1000, max: 50_000 })
      .map((n) =>
        Buffer.from(
          `{"records":[{"value":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}],"value":{"type":"JSON","data":${'['.repeat(n)}${']'.repeat(n)}}}`,
        ),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 3 * 1024 * 1024 })
      .map((n) =>
        Buffer.from(JSON.stringify({ value: { type: 'STRING', data: 'x'.repeat(n) }, records: [{ value: 'eA==' }] })),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ maxLength: 200 })
      .map((bytes) =>
        Buffer.concat([
          Buffer.from('{"a":"'),
          Buffer.from(bytes),
          Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
          Buffer.from('"}'),
        ]),
      ),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(shaped, fc.nat()).map(([v, cut]) => {
      const text = JSON.stringify(v);
      return Buffer.from(text.slice(0, cut % Math.max(text.length, 1)));
    }),
  },
);
const contentType = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'application/json',
      V2,
      'application/vnd.kafka.binary.v2+json',
      'application/vnd.kafka.json.v2+json',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'text/plain',
      'application/xml',
      'application/json; charset=latin1',
      'multipart/form-data; boundary=x',
      'application/x-www-form-urlencoded',
      '',
      'application/json, text/plain',
      'application/vnd.brook.batches',
    ),
  },
);
export const fuzzRequest = fc.record({
  operation: fc.constantFrom(...operations),
  pathValues: fc.record(
    Object.fromEntries(Object.keys(VALID_PATH_VALUES).map((name) => [name, pathValue(name)])) as Record<
      string,
      fc.Arbitrary<string>
    >,
  ),
  query: fc.array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          'offset',
          'from',
          'max_bytes',
          'wait_ms',
          'format',
          'acks',
          'timeout',
          'max_records',
          'partition',
          'timestamp',
          'offset_type',
          'resource_type',
          'pattern_type',
          'operation',
        ),
        fc.string({ maxLength: 8 }),
      ),
      fc.oneof(garbageText, scalar.map(String)),
    ),
    { maxLength: 4 },
  ),
  body,
  contentType,
  accept: fc.constantFrom(
    undefined,
    'application/json',
    'text/html',
    'application/vnd.brook.batches',
    'application/vnd.kafka.json.v2+json',
    '*/*',
    'image/png',
  ),
});

export function encodeSegment(value: string): string {
  if (value === '@cid') return cid;
  // deliberate raw escapes (invalid UTF-8, %2F), sent as they are when they are otherwise printable ASCII
  if (/%[0-9A-F]{2}/.test(value) && /^[\x21-\x7e]{1,20}$/.test(value)) return value;
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80'; // a lone surrogate: send its (invalid) UTF-8 encoding
  }
}

export interface Answer {
  status: number;
  body: string;
  contentType: string;
}

/** The answer; 'refused' when the HTTP client would not send the request; 'reset' when the connection failed. */
export function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  payload?: Buffer,
): Promise<Answer | 'refused' | 'reset'> {
  return new Promise((resolve) => {
    let request: ReturnType<typeof httpRequest>;
    try {
      request = httpRequest(
        {
          host: '127.0.0.1',
          port: broker.port,
          method,
          path,
          headers: payload ? { ...headers, 'content-length': String(payload.length) } : headers,
        },
        (response) => {
          const contentType = String(response.headers['content-type'] ?? '');
          if (contentType.startsWith('text/event-stream')) {
            // an SSE stream that opened: it never ends by itself (heartbeats keep it busy); its status is the answer
            resolve({ status: response.statusCode ?? 0, body: '', contentType });
            response.destroy();
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size < 1024 * 1024) chunks.push(chunk);
          });
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              contentType: String(response.headers['content-type'] ?? ''),
            }),
          );
          response.on('error', () => resolve('reset'));
        },
      );
    } catch {
      resolve('refused'); // e.g. a path or header the client will not put on the wire
      return;
    }
    request.setTimeout(30_000, () => request.destroy());
    // e.g. the broker answered 413 and closed while the client was still sending the body
    request.on('error', () => resolve('reset'));
    request.end(payload);
  });
}
