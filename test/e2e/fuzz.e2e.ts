// Hostile input: fast-check generates garbage requests for every operation in openapi.yaml (wrong types, huge and
// negative numbers, deep JSON, long strings, invalid UTF-8 in bodies and URLs, bad base64, wrong content types,
// truncated JSON) and sends them to a real broker. Required: no 500 and no 5xx the operation does not document,
// every error answer is {"error_code", "message"}, the process never exits, its RSS stays bounded, and the records,
// configs and committed offsets stored before are unchanged. Short form by default; BROOK_SOAK=1 runs the long
// form. The counts (requests, statuses, crashes) are printed at the end and written to .test-results/fuzz.json.
// The WebSocket /v3/ws gets the same treatment with generated frames (non-JSON, deep JSON, huge numbers, wrong
// types, unknown ops, binary, oversized, invalid UTF-8): every answer is an error frame {error_code, message} or
// another frame of the protocol, every close has a documented code, and the counts go to .test-results/ws-fuzz.json.
// Both runs are made by a quota-bearing principal (client quotas on User:ANONYMOUS, low enough to be hit: 429s on
// REST, `throttled` notices and paused reading on the WebSocket). Generated topic patterns (catastrophic
// backtracking shapes, constructs RE2 lacks, huge repetitions, random syntax) go into the request bodies and, in a
// run of their own, to a v2 subscription: each is taken (204) or refused (422, 42206) with a message, /healthz keeps
// answering, and the counts go to .test-results/pattern-fuzz.json.
import fc from 'fast-check';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BrokerProcess } from './support/broker-process.js';
import { call } from './support/http.js';
import { openapi } from './support/openapi-validator.js';

const SOAK = process.env.BROOK_SOAK === '1';
const REQUESTS = Number(process.env.BROOK_FUZZ_REQUESTS ?? (SOAK ? 20_000 : 600));
const PATTERNS = Number(process.env.BROOK_FUZZ_PATTERNS ?? (SOAK ? 5_000 : 300));
/** The client quotas of the fuzzing principal (User:ANONYMOUS: the fuzzed broker has no authentication). */
const FUZZ_QUOTAS = { request_rate: 100, producer_byte_rate: 1_000_000, consumer_byte_rate: 200_000 };
const WS_FRAMES = Number(process.env.BROOK_FUZZ_WS_FRAMES ?? (SOAK ? 20_000 : 1_000));
/** BROOK_WS_FRAME_BYTES_MAX of the fuzzed broker: small, so that oversized frames are cheap to send. */
const WS_FRAME_BYTES_MAX = 65_536;
/** Close codes asyncapi.yaml documents for a client's frames: protocol error, invalid UTF-8, limits, slow consumer. */
const WS_CLOSE_CODES = new Set([1002, 1007, 1008, 1009, 4001]);
const isDocumentedClose = (code: number) => WS_CLOSE_CODES.has(code);
const SEED = Number(process.env.BROOK_FUZZ_SEED ?? Date.now() % 2 ** 31);
/** Bound on the broker's resident memory during the run. */
const RSS_BYTES_MAX = 768 * 1024 * 1024;
const V2 = 'application/vnd.kafka.v2+json';

interface Operation {
  method: string;
  path: string;
  query: string[];
  responses: Record<string, unknown>;
}

type Json = Record<string, unknown>;
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

let broker: BrokerProcess;
let cid: string;

// ---- generators
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
const garbageText = fc.oneof(
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
const scalar = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(2 ** 53, -(2 ** 63), 1e308, -1, 0, 0.5, Number.MAX_SAFE_INTEGER + 2),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 30 }),
  garbageText,
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 5 }) },
);
/** Topic patterns: shapes that stall backtracking engines, what RE2 refuses, huge repetitions, random syntax. */
const patternText: fc.Arbitrary<string> = fc.oneof(
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
const fuzzRequest = fc.record({
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

function encodeSegment(value: string): string {
  if (value === '@cid') return cid;
  // deliberate raw escapes (invalid UTF-8, %2F), sent as they are when they are otherwise printable ASCII
  if (/%[0-9A-F]{2}/.test(value) && /^[\x21-\x7e]{1,20}$/.test(value)) return value;
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80'; // a lone surrogate: send its (invalid) UTF-8 encoding
  }
}

interface Answer {
  status: number;
  body: string;
  contentType: string;
}

/** The answer; 'refused' when the HTTP client would not send the request; 'reset' when the connection failed. */
function send(
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

function rssBytes(): number {
  const status = readFileSync(`/proc/${broker.child!.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** A GET retried while the fuzzing principal is over its request quota (429). */
async function getPast429(path: string) {
  for (;;) {
    const answer = await call(broker.url, 'GET', path);
    if (answer.status !== 429) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function snapshot() {
  const records = await getPast429(`/v3/clusters/${cid}/topics/keep/partitions/0/records?offset=0&max_records=1000`);
  const configs = await getPast429(`/v3/clusters/${cid}/topics/keep/configs/retention.ms`);
  const topic = await getPast429(`/v3/clusters/${cid}/topics/keep`);
  const lags = await getPast429(`/v3/clusters/${cid}/consumer-groups/keepers/lags`);
  return {
    records: records.body.records,
    retention: configs.body.value,
    partitions: topic.body.partitions_count,
    committed: lags.body.data.map((lag: Json) => [lag.topic_name, lag.partition_id, lag.current_offset]),
  };
}

/** Re-creates what generated requests may legitimately delete (the fuzz topic, the fuzz consumer instance), so that
 * later requests reach deeper code instead of 404s. */
async function replenish(): Promise<void> {
  await call(broker.url, 'POST', `/v3/clusters/${cid}/topics`, { body: { topic_name: 'fuzz', partitions_count: 2 } });
  await call(broker.url, 'POST', '/consumers/g-fuzz', { body: { name: 'i-fuzz', format: 'binary' }, contentType: V2 });
  await call(broker.url, 'POST', '/consumers/g-fuzz/instances/i-fuzz/subscription', {
    body: { topics: ['fuzz'] },
    contentType: V2,
  });
}

beforeAll(async () => {
  broker = await BrokerProcess.start({
    env: {
      BROOK_READ_WAIT_MS_MAX: '200',
      BROOK_SOCKET_REQUEST_MAX_BYTES: String(2 * 1024 * 1024),
      BROOK_WS_FRAME_BYTES_MAX: String(WS_FRAME_BYTES_MAX),
    },
  });
  cid = await broker.clusterId();
  expect(
    (
      await call(broker.url, 'POST', `/v3/clusters/${cid}/topics`, {
        body: { topic_name: 'keep', partitions_count: 1, configs: [{ name: 'retention.ms', value: '123456789' }] },
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await call(broker.url, 'POST', `/v3/clusters/${cid}/topics`, {
        body: { topic_name: 'fuzz', partitions_count: 2 },
      })
    ).status,
  ).toBe(201);
  for (const value of ['one', 'two', 'three'])
    expect(
      (
        await call(broker.url, 'POST', `/v3/clusters/${cid}/topics/keep/records`, {
          body: { value: { type: 'STRING', data: value }, headers: [{ name: 'h', value: 'aGk=' }] },
        })
      ).status,
    ).toBe(200);
  expect(
    (
      await call(broker.url, 'POST', '/consumers/g-fuzz', {
        body: { name: 'i-fuzz', format: 'binary' },
        contentType: V2,
      })
    ).status,
  ).toBe(200);
  const consumer = '/consumers/keepers/instances/k1';
  expect(
    (
      await call(broker.url, 'POST', '/consumers/keepers', {
        body: { name: 'k1', format: 'binary', 'auto.commit.enable': 'false' },
        contentType: V2,
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await call(broker.url, 'POST', `${consumer}/assignments`, {
        body: { partitions: [{ topic: 'keep', partition: 0 }] },
        contentType: V2,
      })
    ).status,
  ).toBe(204);
  expect(
    (
      await call(broker.url, 'POST', `${consumer}/offsets`, {
        body: { offsets: [{ topic: 'keep', partition: 0, offset: 1 }] },
        contentType: V2,
      })
    ).status,
  ).toBe(200);
  expect(
    (await call(broker.url, 'POST', '/consumers/g-pattern', { body: { name: 'p' }, contentType: V2 })).status,
  ).toBe(200);
  const quotas = await call(broker.url, 'PUT', `/v3/clusters/${cid}/client-quotas/User:ANONYMOUS`, {
    body: FUZZ_QUOTAS,
  });
  expect(quotas.status, quotas.text).toBe(200);
});
afterAll(async () => {
  await broker?.stop();
});

describe('fuzzing every route in openapi.yaml', () => {
  it(
    `${REQUESTS} generated requests: no 500, no undocumented 5xx, no crash, bounded memory, stored data unchanged`,
    { timeout: SOAK ? 3_600_000 : 300_000 },
    async () => {
      const before = await snapshot();
      expect(before.records).toHaveLength(3);
      expect(before.committed).toEqual([['keep', 0, 2]]);
      const statuses: Record<string, number> = {};
      const errorCodes: Record<string, number> = {};
      const failures: string[] = [];
      let sent = 0;
      let refusedByClient = 0;
      let connectionErrors = 0;
      let rssMax = 0;
      const samples = fc.sample(fuzzRequest, { numRuns: REQUESTS, seed: SEED });
      for (const [i, sample] of samples.entries()) {
        if (i % 20 === 0) await replenish();
        const path = sample.operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          encodeSegment(sample.pathValues[name] ?? 'x'),
        );
        const query = sample.query.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join('&');
        const headers: Record<string, string> = {};
        if (sample.body !== undefined && sample.contentType !== '') headers['content-type'] = sample.contentType;
        if (sample.accept !== undefined) headers.accept = sample.accept;
        const url = query ? `${path}?${query}` : path;
        const answer = await send(sample.operation.method, url, headers, sample.body);
        if (answer === 'refused') {
          refusedByClient++;
          continue;
        }
        if (answer === 'reset') {
          connectionErrors++;
          continue;
        }
        sent++;
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        const what = `${sample.operation.method} ${url.slice(0, 120)} [${sample.contentType}, ${sample.body?.length ?? 0} bytes]`;
        if (
          answer.status >= 500 &&
          (answer.status === 500 || sample.operation.responses[String(answer.status)] === undefined)
        )
          failures.push(`${answer.status} for ${what}: ${answer.body.slice(0, 300)}`);
        if (answer.status >= 400) {
          let parsed: Json | null = null;
          try {
            parsed = JSON.parse(answer.body) as Json;
          } catch {
            // reported below
          }
          if (parsed !== null) {
            const key = `${parsed.error_code} ${String(parsed.message).slice(0, 40)}`;
            errorCodes[key] = (errorCodes[key] ?? 0) + 1;
          }
          if (parsed === null || typeof parsed.error_code !== 'number' || typeof parsed.message !== 'string')
            failures.push(
              `error without {error_code, message} (${answer.status}) for ${what}: ${answer.body.slice(0, 200)}`,
            );
        }
        if (sent % 50 === 0) rssMax = Math.max(rssMax, rssBytes());
        if (broker.child?.exitCode !== null) {
          failures.push(`broker exited after ${what}`);
          break;
        }
      }
      rssMax = Math.max(rssMax, rssBytes());
      const crashes = broker.child?.exitCode === null ? 0 : 1;
      const report = {
        seed: SEED,
        generated: samples.length,
        sent,
        refusedByClient,
        connectionErrors,
        statuses,
        crashes,
        rssMaxBytes: rssMax,
        failures: failures.length,
      };
      console.log(`fuzz: ${JSON.stringify(report)}`);
      mkdirSync('.test-results', { recursive: true });
      writeFileSync(
        '.test-results/fuzz.json',
        `${JSON.stringify({ ...report, failureSamples: failures.slice(0, 50), errorCodes }, null, 2)}\n`,
      );
      expect(failures.slice(0, 20), `seed ${SEED}`).toEqual([]);
      expect(crashes).toBe(0);
      expect((await fetch(`${broker.url}/healthz`)).status).toBe(200);
      expect(rssMax).toBeLessThan(RSS_BYTES_MAX);
      expect(sent).toBeGreaterThan(REQUESTS * 0.9);
      expect(await snapshot()).toEqual(before);
    },
  );
});

describe('fuzzing topic patterns', () => {
  it(
    `${PATTERNS} generated patterns: 204 or 422 with a message, the broker keeps answering, subscriptions list real topics`,
    { timeout: SOAK ? 3_600_000 : 300_000 },
    async () => {
      const path = '/consumers/g-pattern/instances/p';
      const counts = { accepted: 0, refused: 0, throttled: 0, probeMsMax: 0 };
      const reasons: Record<string, number> = {};
      const failures: string[] = [];
      for (const pattern of fc.sample(patternText, { numRuns: PATTERNS, seed: SEED })) {
        const answer = await call(broker.url, 'POST', `${path}/subscription`, {
          body: { topic_pattern: pattern },
          contentType: V2,
        });
        if (answer.status === 429) counts.throttled++;
        else if (answer.status === 204) {
          counts.accepted++;
          const listed = await getPast429(`${path}/subscription`);
          const topics = await getPast429(`/v3/clusters/${cid}/topics`);
          const names = new Set(topics.body.data.map((topic: Json) => topic.topic_name));
          for (const name of listed.body.topics as string[])
            if (!names.has(name)) failures.push(`pattern ${JSON.stringify(pattern)} lists ${name}`);
        } else if (
          answer.status === 422 &&
          answer.body.error_code === 42206 &&
          typeof answer.body.message === 'string'
        ) {
          counts.refused++;
          const reason = String(answer.body.message).replace(/: .*/, '').slice(0, 60);
          reasons[reason] = (reasons[reason] ?? 0) + 1;
        } else
          failures.push(`${answer.status} for ${JSON.stringify(pattern).slice(0, 80)}: ${answer.text.slice(0, 200)}`);
        const sent = performance.now();
        const health = await fetch(`${broker.url}/healthz`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
        counts.probeMsMax = Math.max(counts.probeMsMax, Math.round(performance.now() - sent));
        if (health?.status !== 200) failures.push(`/healthz did not answer in 2 s after ${JSON.stringify(pattern)}`);
      }
      const report = { seed: SEED, patterns: PATTERNS, ...counts, reasons, failures: failures.length };
      console.log(`pattern fuzz: ${JSON.stringify(report)}`);
      mkdirSync('.test-results', { recursive: true });
      writeFileSync(
        '.test-results/pattern-fuzz.json',
        `${JSON.stringify({ ...report, failureSamples: failures.slice(0, 50) }, null, 2)}\n`,
      );
      expect(failures.slice(0, 20), `seed ${SEED}`).toEqual([]);
      expect(counts.accepted).toBeGreaterThan(0);
      expect(counts.refused).toBeGreaterThan(0);
      expect(broker.child?.exitCode).toBeNull();
    },
  );
});

// ---- WebSocket frames
const WS_FIELDS = [
  'id',
  'topic',
  'topics',
  'records',
  'acks',
  'format',
  'assign',
  'group',
  'group_instance_id',
  'from',
  'timestamp',
  'credits',
  'n',
  'offsets',
];
/** Topics and groups a frame may name: never `keep` or `keepers`, whose stored state must not change. */
const wsPlausible: Record<string, fc.Arbitrary<unknown>> = {
  op: fc.constantFrom('produce', 'subscribe', 'credit', 'commit', 'unsubscribe', 'PRODUCE', '', 'nope', 'ack'),
  id: fc.oneof(fc.constantFrom('a', 'b', 1, 2), scalar),
  topic: fc.constantFrom('fuzz', 'nope', '', '__consumer_offsets'),
  topics: fc.array(fc.constantFrom('fuzz', 'nope', 'fu*'), { maxLength: 3 }),
  records: fc.array(
    fc.record({ key: anyValue, value: anyValue, partition: scalar, headers: anyValue }, { requiredKeys: ['value'] }),
    { maxLength: 4 },
  ),
  acks: fc.constantFrom('0', '1', 'all', 'none', 2),
  format: fc.constantFrom('json', 'binary', 'string', 'avro'),
  assign: fc.array(fc.record({ topic: fc.constantFrom('fuzz', 'nope'), partition: scalar, offset: scalar }), {
    maxLength: 3,
  }),
  group: fc.constantFrom('g-ws', 'g-ws-2', ''),
  group_instance_id: fc.constantFrom('m1', ''),
  from: fc.constantFrom('earliest', 'latest', 'timestamp', 'yesterday'),
  timestamp: scalar,
  credits: scalar,
  n: scalar,
  offsets: fc.array(fc.record({ topic: fc.constantFrom('fuzz', 'nope'), partition: scalar, offset: scalar }), {
    maxLength: 3,
  }),
};
const wsShaped = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...WS_FIELDS), anyValue, { maxKeys: 4 }),
    fc.subarray(['op', ...WS_FIELDS]),
    fc.tuple(...['op', ...WS_FIELDS].map((name) => wsPlausible[name])),
  )
  .map(([wrong, plausibleNames, plausibleValues]) => {
    const frame: Json = { ...wrong };
    const names = ['op', ...WS_FIELDS];
    for (const name of plausibleNames) frame[name] = plausibleValues[names.indexOf(name)];
    return frame;
  });

/** Valid frames (on topic fuzz, group g-ws, ids a, b, c), each maybe with one field replaced by garbage. */
const wsNearValid = fc
  .tuple(
    fc.constantFrom('a', 'b', 'c'),
    fc.constantFrom<Json[]>(
      [{ op: 'produce', topic: 'fuzz', records: [{ value: 'v' }, { key: 'k', value: '{"a":1}' }], acks: '1' }],
      [{ op: 'subscribe', assign: [{ topic: 'fuzz', partition: 0, offset: 0 }], credits: 10, format: 'string' }],
      [{ op: 'subscribe', topics: ['fuzz'], group: 'g-ws', from: 'earliest' }],
      [{ op: 'credit', n: 5 }],
      [{ op: 'commit', offsets: [{ topic: 'fuzz', partition: 0, offset: 1 }] }],
      [{ op: 'unsubscribe' }],
    ),
    fc.option(fc.tuple(fc.constantFrom('op', ...WS_FIELDS), anyValue), { freq: 2 }),
  )
  .map(([id, [template], mutation]) => {
    const frame: Json = { ...template, id };
    if (mutation !== null) frame[mutation[0]] = mutation[1];
    return frame;
  });

type WsFrame = { kind: 'text'; text: string } | { kind: 'binary' | 'invalid-utf8'; bytes: Buffer };
const wsFrame: fc.Arbitrary<WsFrame> = fc.oneof(
  { weight: 10, arbitrary: wsShaped.map((frame) => ({ kind: 'text' as const, text: JSON.stringify(frame) })) },
  { weight: 8, arbitrary: wsNearValid.map((frame) => ({ kind: 'text' as const, text: JSON.stringify(frame) })) },
  { weight: 2, arbitrary: garbageText.map((text) => ({ kind: 'text' as const, text })) },
  {
    weight: 2,
    arbitrary: fc.jsonValue({ maxDepth: 5 }).map((v) => ({ kind: 'text' as const, text: JSON.stringify(v) ?? 'null' })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 100, max: 30_000 }).map((n) => ({
      kind: 'text' as const,
      text: `{"op":"produce","id":1,"topic":"fuzz","records":${'['.repeat(n)}${']'.repeat(n)}}`,
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        '{"op":"credit","id":"a","n":1e308}',
        `{"op":"credit","id":"a","n":${'9'.repeat(400)}}`,
        '{"op":"subscribe","id":"h","assign":[{"topic":"fuzz","partition":18446744073709551616,"offset":-9007199254740993}]}',
        '{"op":"produce","id":-0,"topic":"fuzz","records":[{"value":"x","partition":1e21}]}',
        '{"op":"commit","id":"a","offsets":[{"topic":"fuzz","partition":0,"offset":NaN}]}',
        '{"op":"produce","id":1,"topic":"fuzz","format":"binary","records":[{"value":"!!!not base64"}]}',
        '{"op":"produce","id":1,"topic":"fuzz","records":[{"value":"\\uD800"}]}',
        '{"op":"produce","op":"subscribe","id":1}',
        '{"__proto__":{"op":"produce"},"id":1}',
      )
      .map((text) => ({ kind: 'text' as const, text })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: WS_FRAME_BYTES_MAX + 1, max: 4 * WS_FRAME_BYTES_MAX }).map((n) => ({
      kind: 'text' as const,
      text: JSON.stringify({ op: 'produce', id: 'big', topic: 'fuzz', records: [{ value: 'x'.repeat(n) }] }),
    })),
  },
  {
    weight: 2,
    arbitrary: fc
      .uint8Array({ maxLength: 300 })
      .map((bytes) => ({ kind: 'binary' as const, bytes: Buffer.from(bytes) })),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 100 }).map((bytes) => ({
      kind: 'invalid-utf8' as const,
      bytes: Buffer.concat([
        Buffer.from('{"op":"produce","id":"'),
        Buffer.from(bytes),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
        Buffer.from('"}'),
      ]),
    })),
  },
);

/** One socket of the WebSocket fuzz run: every frame it receives is checked and counted, and so is its close. */
class FuzzSocket {
  closeCode: number | null = null;
  private constructor(readonly socket: WebSocket) {}

  static open(
    received: Record<string, number>,
    failures: string[],
    closes: Record<string, number>,
  ): Promise<FuzzSocket> {
    const socket = new WebSocket(`${broker.url.replace(/^http/, 'ws')}/v3/ws`, { maxPayload: 64 * 1024 * 1024 });
    const fuzz = new FuzzSocket(socket);
    socket.on('message', (data, isBinary) => {
      const text = String(data);
      let frame: Json | null = null;
      try {
        frame = isBinary ? null : (JSON.parse(text) as Json);
      } catch {
        // reported below
      }
      if (frame === null || typeof frame.op !== 'string') {
        failures.push(`a frame that is not a protocol frame: ${text.slice(0, 200)}`);
        return;
      }
      received[frame.op] = (received[frame.op] ?? 0) + 1;
      if (frame.op === 'error' && (typeof frame.error_code !== 'number' || typeof frame.message !== 'string'))
        failures.push(`an error frame without {error_code, message}: ${text.slice(0, 200)}`);
    });
    socket.on('close', (code) => {
      fuzz.closeCode = code;
      closes[code] = (closes[code] ?? 0) + 1;
    });
    socket.on('error', () => undefined); // the close event follows with its code
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(fuzz));
      socket.once('unexpected-response', (_, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
      socket.once('close', () => reject(new Error('closed before opening')));
    });
  }

  send(frame: WsFrame): void {
    if (frame.kind === 'text') this.socket.send(frame.text);
    else this.socket.send(frame.bytes, { binary: frame.kind === 'binary' });
  }

  /** Resolves once the broker has handled what was sent before (a pong behind it), or the socket closed. */
  settled(timeoutMs: number): Promise<'pong' | 'closed' | 'timeout'> {
    if (this.closeCode !== null) return Promise.resolve('closed');
    return new Promise((resolve) => {
      const done = (outcome: 'pong' | 'closed' | 'timeout') => {
        clearTimeout(timer);
        this.socket.off('pong', onPong);
        this.socket.off('close', onClose);
        resolve(outcome);
      };
      const onPong = () => done('pong');
      const onClose = () => done('closed');
      const timer = setTimeout(() => done('timeout'), timeoutMs);
      this.socket.on('pong', onPong);
      this.socket.on('close', onClose);
      try {
        this.socket.ping();
      } catch {
        done('closed');
      }
    });
  }
}

describe('fuzzing the WebSocket /v3/ws', () => {
  it(
    `${WS_FRAMES} generated frames: error frames or documented closes, no crash, stored data unchanged`,
    { timeout: SOAK ? 3_600_000 : 300_000 },
    async () => {
      const before = await snapshot();
      const received: Record<string, number> = {};
      const closes: Record<string, number> = {};
      const failures: string[] = [];
      const kinds: Record<string, number> = {};
      let sockets = 1;
      let fuzz = await FuzzSocket.open(received, failures, closes);
      const samples = fc.sample(wsFrame, { numRuns: WS_FRAMES, seed: SEED });
      for (const [i, frame] of samples.entries()) {
        if (i % 50 === 0) await replenish();
        if (fuzz.closeCode !== null) {
          fuzz = await FuzzSocket.open(received, failures, closes);
          sockets++;
        }
        kinds[frame.kind] = (kinds[frame.kind] ?? 0) + 1;
        fuzz.send(frame);
        const outcome = await fuzz.settled(5_000);
        const what = frame.kind === 'text' ? frame.text.slice(0, 120) : `${frame.kind} ${frame.bytes.length} bytes`;
        if (outcome === 'timeout') failures.push(`no pong within 5 s after ${what}`);
        if (fuzz.closeCode !== null && !isDocumentedClose(fuzz.closeCode))
          failures.push(`closed with ${fuzz.closeCode} after ${what}`);
        if (broker.child?.exitCode !== null) {
          failures.push(`broker exited after ${what}`);
          break;
        }
      }
      fuzz.socket.close();
      const crashes = broker.child?.exitCode === null ? 0 : 1;
      const report = {
        seed: SEED,
        frames: samples.length,
        kinds,
        sockets,
        errorFrames: received.error ?? 0,
        received,
        closes,
        crashes,
        failures: failures.length,
      };
      console.log(`ws fuzz: ${JSON.stringify(report)}`);
      mkdirSync('.test-results', { recursive: true });
      writeFileSync(
        '.test-results/ws-fuzz.json',
        `${JSON.stringify({ ...report, failureSamples: failures.slice(0, 50) }, null, 2)}\n`,
      );
      expect(failures.slice(0, 20), `seed ${SEED}`).toEqual([]);
      expect(crashes).toBe(0);
      expect(report.errorFrames).toBeGreaterThan(WS_FRAMES / 4);
      expect(received.ack ?? 0).toBeGreaterThan(0); // valid frames got through too: the deeper code ran
      expect((await fetch(`${broker.url}/healthz`)).status).toBe(200);
      expect(await snapshot()).toEqual(before);
    },
  );
});

describe('hostile connections', () => {
  /** Sends raw bytes (in timed chunks) and returns what the broker answers before closing or `waitMs`. */
  function raw(port: number, chunks: Array<string | Buffer>, options: { gapMs?: number; endAfter?: boolean } = {}) {
    return new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
      socket.on('close', () => resolve(answer));
      socket.on('error', () => resolve(answer));
      socket.on('connect', async () => {
        for (const chunk of chunks) {
          socket.write(chunk);
          if (options.gapMs) await new Promise((r) => setTimeout(r, options.gapMs));
        }
        if (options.endAfter) socket.end();
      });
      setTimeout(() => socket.destroy(), 10_000).unref();
    });
  }
  const errorBody = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Json;

  it('oversized headers, a garbage request line, truncated and slow bodies: clear errors, no crash', async () => {
    const huge = await raw(broker.port, [
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    ]);
    expect(huge).toMatch(/^HTTP\/1.1 431 /);
    expect(errorBody(huge)).toEqual({ error_code: 431, message: expect.any(String) });
    const garbage = await raw(broker.port, ['\u0000\u0001GARBAGE / NOT-HTTP\r\n\r\n']);
    expect(garbage).toMatch(/^HTTP\/1.1 400 /);
    expect(errorBody(garbage).error_code).toBe(400);
    // a body shorter than its Content-Length, then the client goes away
    const path = `/v3/clusters/${cid}/topics/keep/records`;
    const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n`;
    await raw(broker.port, [`${head}Content-Length: 100000\r\n\r\n{"value":{"type":"ST`], { endAfter: true });
    // a slow body, a few bytes every 100 ms, is still served (and appends to a topic the snapshot does not watch)
    const body = JSON.stringify({ value: { type: 'STRING', data: 'slow' } });
    const slow = await raw(
      broker.port,
      [
        `POST /v3/clusters/${cid}/topics/fuzz/records HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`,
        ...(body.match(/.{1,4}/g) ?? []),
      ],
      { gapMs: 100 },
    );
    expect(slow).toMatch(/^HTTP\/1.1 (200|404) /); // 404 when a fuzz request deleted the topic
    expect((await fetch(`${broker.url}/healthz`)).status).toBe(200);
    expect(broker.child?.exitCode).toBeNull();
  });

  it('bounds open connections (BROOK_CONNECTIONS_MAX): past it 503 (50302), and serves again once they close', async () => {
    const limited = await BrokerProcess.start({ env: { BROOK_CONNECTIONS_MAX: '20' } });
    const idle: Socket[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        const socket = connect(limited.port, '127.0.0.1');
        await new Promise((resolve) => socket.once('connect', resolve));
        idle.push(socket);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      const refused = await raw(limited.port, ['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n']);
      expect(refused).toMatch(/^HTTP\/1.1 503 /);
      expect(errorBody(refused).error_code).toBe(50302);
      for (const socket of idle) socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await fetch(`${limited.url}/healthz`)).status).toBe(200);
    } finally {
      for (const socket of idle) socket.destroy();
      await limited.stop();
    }
  });
});
