// The v2 binary produce's front route (src/http/v2/v2-produce-route.ts) answers byte for byte as Fastify and Nest
// answer: each request is sent over a raw socket to two brokers of the same settings, one that answers it in front
// of Fastify and one logging at debug level, where the route leaves every request to Fastify (and Fastify logs
// each), each to its own fresh topic so that the offsets agree. Only the Date line differs. (That the route takes
// the plain shape, and only it, is v2-produce-route.spec.ts's part.)
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { call } from './support/http.js';

const BINARY = 'application/vnd.kafka.binary.v2+json';
const SETTINGS = { BROOK_SOCKET_REQUEST_MAX_BYTES: '1048576' };

let broker: BrokerProcess;
let debugBroker: BrokerProcess;
let cid: string;
let topics = 0;

beforeAll(async () => {
  [broker, debugBroker] = await Promise.all([
    BrokerProcess.start({ env: SETTINGS }),
    BrokerProcess.start({ env: SETTINGS, logLevel: 'debug' }),
  ]);
  cid = await broker.clusterId();
});
afterAll(async () => {
  await Promise.all([broker?.stop(), debugBroker?.stop()]);
});

async function freshTopic(on: BrokerProcess, partitions = 2): Promise<string> {
  const topic = `route-${topics++}`;
  const clusterId = on === broker ? cid : await on.clusterId();
  const created = await call(on.url, 'POST', `/v3/clusters/${clusterId}/topics`, {
    body: { topic_name: topic, partitions_count: partitions },
  });
  expect(created.status, created.text).toBe(201);
  return topic;
}

/** The raw answer (head and body) to one request on a new connection, its Date line taken out. */
function rawAnswer(port: number, path: string, body: Buffer | string, headers: Record<string, string>) {
  const bytes = Buffer.from(body);
  const head =
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Request-Id: same-id\r\n` +
    Object.entries({ 'content-type': BINARY, 'content-length': String(bytes.length), ...headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    'Connection: close\r\n\r\n';
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(Buffer.concat([Buffer.from(head, 'latin1'), bytes])));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    // a request id the broker made itself is random: only its form is compared
    const text = (answer: string) =>
      answer.replace(/\r\nDate: [^\r]*/i, '').replace(/^(x-request-id: )[0-9a-f-]{36}\r$/m, '$1<uuid>\r');
    socket.on('close', () => resolve(text(Buffer.concat(chunks).toString('latin1'))));
  });
}

/** The route's answer and Fastify's (the debug broker's), each to a topic of its own (`{topic}` in the path). */
async function bothAnswers(path: string, body: Buffer | string, headers: Record<string, string> = {}) {
  const [plainTopic, otherTopic] = [await freshTopic(broker), await freshTopic(debugBroker)];
  const plain = await rawAnswer(broker.port, path.replace('{topic}', plainTopic), body, headers);
  const other = await rawAnswer(debugBroker.port, path.replace('{topic}', otherTopic), body, headers);
  return { plain: plain.replaceAll(plainTopic, '{topic}'), other: other.replaceAll(otherTopic, '{topic}') };
}

const value = Buffer.alloc(100, 'x').toString('base64');
const W1_BODY = JSON.stringify({ records: Array.from({ length: 1000 }, () => ({ value })) });

/** The route's series in brook_http_requests_total, by status. */
async function requestsCounted(status: number): Promise<number> {
  const text = (await call(broker.url, 'GET', '/metrics')).text;
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('brook_http_requests_total{') &&
        l.includes('method="POST"') &&
        l.includes('route="/topics/{topic_name}/partitions/{partition_id}"') &&
        l.includes(`status="${status}"`),
    );
  return line === undefined ? 0 : Number(line.split(' ').pop());
}

describe('v2 binary produce in front of Fastify: the same answers', () => {
  const cases: Array<[string, string, Buffer | string, Record<string, string>?]> = [
    ["W1's body (1,000 records of 100 bytes)", '/topics/{topic}/partitions/0', W1_BODY],
    ['acks=all', '/topics/{topic}/partitions/1?acks=all', W1_BODY],
    ['acks=1', '/topics/{topic}/partitions/0?acks=1', W1_BODY],
    ['acks=0', '/topics/{topic}/partitions/0?acks=0', W1_BODY],
    ['acks=-1', '/topics/{topic}/partitions/0?acks=-1', W1_BODY],
    [
      'keys and a partition in a record',
      '/topics/{topic}/partitions/0',
      JSON.stringify({
        records: [
          { key: 'a2V5', value },
          { value, partition: 0 },
        ],
      }),
    ],
    [
      'a body the scanner leaves to the full parse (an escape)',
      '/topics/{topic}/partitions/0',
      '{"records":[{"value":"eHg\\u003d"}]}',
    ],
    [
      'a field the scanner does not know',
      '/topics/{topic}/partitions/0',
      JSON.stringify({ records: [{ value }], x: 1 }),
    ],
    ['malformed JSON', '/topics/{topic}/partitions/0', '{"records": [{"value": '],
    ['a body nested too deep', '/topics/{topic}/partitions/0', `${'['.repeat(200)}${']'.repeat(200)}`],
    ['not UTF-8', '/topics/{topic}/partitions/0', Buffer.from([0x7b, 0xff, 0x7d])],
    ['invalid base64', '/topics/{topic}/partitions/0', JSON.stringify({ records: [{ value: '@@' }] })],
    ['no records', '/topics/{topic}/partitions/0', JSON.stringify({ records: [] })],
    ['an empty JSON object', '/topics/{topic}/partitions/0', '{}'],
    ['a partition out of range', '/topics/{topic}/partitions/7', W1_BODY],
    ['a partition id too large', '/topics/{topic}/partitions/9999999999', W1_BODY],
    ['an unknown topic', '/topics/{topic}-missing/partitions/0', W1_BODY],
    ['a request id the broker replaces', '/topics/{topic}/partitions/0', W1_BODY, { 'x-request-id': 'bad id!' }],
    ["curl's Accept", '/topics/{topic}/partitions/0', W1_BODY, { accept: '*/*' }],
    ['Accept: the v2 type', '/topics/{topic}/partitions/0', W1_BODY, { accept: 'application/vnd.kafka.v2+json' }],
    ['Accept: plain JSON', '/topics/{topic}/partitions/0', W1_BODY, { accept: 'application/json' }],
    ['Accept: plain JSON, an error', '/topics/{topic}/partitions/7', W1_BODY, { accept: 'application/json' }],
    ['Accept: plain JSON, malformed', '/topics/{topic}/partitions/0', '{"records": [', { accept: 'application/json' }],
    ['Accept: nothing v2 (406)', '/topics/{topic}/partitions/0', W1_BODY, { accept: 'text/html' }],
  ];

  it.each(cases)('%s', async (_name, path, body, headers) => {
    const { plain, other } = await bothAnswers(path, body, headers);
    expect(plain).toBe(other);
    expect(plain).toMatch(/^HTTP\/1\.1 \d{3} /);
  });

  // each step's answer on one broker's topic, then the same steps on the other's
  it('an Idempotency-Key: the first request, its retry (a replay), the key with another body, a bad key', async () => {
    const other = JSON.stringify({ records: [{ value }] });
    const steps: Array<[string, Record<string, string>]> = [
      [W1_BODY, { 'idempotency-key': 'key-1' }],
      [W1_BODY, { 'idempotency-key': 'key-1' }],
      [other, { 'idempotency-key': 'key-1' }],
      [other, { 'idempotency-key': 'k'.repeat(300) }],
      [other, { 'brook-producer-id': 'x', 'brook-producer-epoch': '0', 'brook-producer-sequence': '0' }],
    ];
    const [plainTopic, otherTopic] = [await freshTopic(broker), await freshTopic(debugBroker)];
    const answers = async (on: BrokerProcess, topic: string) => {
      const all: string[] = [];
      for (const [body, headers] of steps)
        all.push(
          (await rawAnswer(on.port, `/topics/${topic}/partitions/0`, body, headers)).replaceAll(topic, '{topic}'),
        );
      return all;
    };
    const plain = await answers(broker, plainTopic);
    expect(plain).toEqual(await answers(debugBroker, otherTopic));
    expect(plain[1]).toMatch(/\r\nidempotent-replayed: true\r\n/i);
    expect(plain.map((answer) => answer.slice(0, 12))).toEqual([
      'HTTP/1.1 200',
      'HTTP/1.1 200',
      'HTTP/1.1 422',
      'HTTP/1.1 400',
      'HTTP/1.1 400',
    ]);
  });

  it('counts the route in brook_http_requests_total as Fastify does', async () => {
    const before = await requestsCounted(200);
    await bothAnswers('/topics/{topic}/partitions/0', W1_BODY);
    expect(await requestsCounted(200)).toBe(before + 1);
  });
});

describe('a broker logging each request', () => {
  it('leaves the plain request to Fastify, which logs it', async () => {
    const topic = await freshTopic(debugBroker);
    const path = `/topics/${topic}/partitions/0`;
    const answer = await rawAnswer(debugBroker.port, path, W1_BODY, {});
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    // the access line of each request Fastify answers (http/request-id.ts)
    expect(`${debugBroker.stdout}${debugBroker.stderr}`).toContain(
      'POST /topics/:topic_name/partitions/:partition_id 200',
    );
  });
});
