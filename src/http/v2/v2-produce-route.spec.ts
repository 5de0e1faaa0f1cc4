import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Logger } from '@nestjs/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { frontRouteServer, type FrontRouteServer } from '../../../test/support/front-route-server.js';
import { LaidOutRecords } from '../../application/produce/laid-out-records.js';
import { errors } from '../../common/brook-error.js';
import { Metrics } from '../../metrics/metrics.service.js';
import type { QuotaKind } from '../../security/quota.js';
import { plainV2ProduceOf, V2_BINARY_MEDIA_TYPE, V2ProduceRoute } from './v2-produce-route.js';
import type { ProduceReply } from './v2.controller.js';

const PATH = '/topics/bench/partitions/0';
const ROUTE = '/topics/{topic_name}/partitions/{partition_id}';
const BODY_BYTES_MAX = 1_000_000;
const value = Buffer.alloc(100, 'x').toString('base64');
const BODY = JSON.stringify({ records: Array.from({ length: 1000 }, () => ({ value })) });
const PLAIN_HEADERS = { 'content-type': V2_BINARY_MEDIA_TYPE, 'content-length': String(BODY.length) };

function requestOf(url: string, headers: Record<string, string> = PLAIN_HEADERS, method = 'POST'): IncomingMessage {
  return { method, url, headers } as unknown as IncomingMessage;
}

describe('plainV2ProduceOf (the produces the route takes before Fastify)', () => {
  it('takes a plain v2 binary produce to a partition: its topic, partition and acks as given', () => {
    expect(plainV2ProduceOf(requestOf(PATH), BODY_BYTES_MAX)).toEqual({
      topic: 'bench',
      partitionText: '0',
      acksText: undefined,
      answerType: 'application/vnd.kafka.v2+json',
    });
    for (const acks of ['all', '-1', '0', '1'])
      expect(plainV2ProduceOf(requestOf(`/topics/a.b_c-9/partitions/12?acks=${acks}`), BODY_BYTES_MAX)).toEqual({
        topic: 'a.b_c-9',
        partitionText: '12',
        acksText: acks,
        answerType: 'application/vnd.kafka.v2+json',
      });
  });

  it('takes an Idempotency-Key and the producer headers, which the controller reads', () => {
    for (const name of ['idempotency-key', 'brook-producer-id', 'brook-producer-epoch', 'brook-producer-sequence'])
      expect(plainV2ProduceOf(requestOf(PATH, { ...PLAIN_HEADERS, [name]: '1' }), BODY_BYTES_MAX), name).not.toBeNull();
  });

  it('takes an Accept header that admits a v2 answer, with the type negotiated from it', () => {
    const answerTypes = Object.fromEntries(
      ['*/*', 'application/vnd.kafka.v2+json', 'application/json', 'text/html, application/json;q=0.5'].map(
        (accept) => [
          accept,
          plainV2ProduceOf(requestOf(PATH, { ...PLAIN_HEADERS, accept }), BODY_BYTES_MAX)?.answerType,
        ],
      ),
    );
    expect(answerTypes).toEqual({
      '*/*': 'application/vnd.kafka.v2+json',
      'application/vnd.kafka.v2+json': 'application/vnd.kafka.v2+json',
      'application/json': 'application/json',
      'text/html, application/json;q=0.5': 'application/json',
    });
  });

  it('leaves anything else to Fastify: methods, paths, queries, media types, lengths, and the headers of other shapes', () => {
    const others = [
      requestOf(PATH, PLAIN_HEADERS, 'PUT'),
      requestOf(PATH, PLAIN_HEADERS, 'GET'),
      requestOf('/topics/bench'),
      requestOf(`${PATH}/`),
      requestOf('/topics/be%20nch/partitions/0'),
      requestOf('/topics/bench/partitions/x'),
      requestOf('/topics/bench/partitions/01234567890'),
      requestOf(`/topics/${'t'.repeat(250)}/partitions/0`),
      requestOf(`${PATH}?acks=2`),
      requestOf(`${PATH}?acks=`),
      requestOf(`${PATH}?acks=all&acks=1`),
      requestOf(`${PATH}?other=1`),
      requestOf(`${PATH}?`),
      requestOf('/TOPICS/bench/partitions/0'),
      requestOf(PATH, { ...PLAIN_HEADERS, 'content-type': 'application/vnd.kafka.json.v2+json' }),
      requestOf(PATH, { ...PLAIN_HEADERS, 'content-type': `${V2_BINARY_MEDIA_TYPE}; charset=utf-8` }),
      requestOf(PATH, { ...PLAIN_HEADERS, 'content-type': 'application/json' }),
      requestOf(PATH, { 'content-type': V2_BINARY_MEDIA_TYPE }),
      requestOf(PATH, { ...PLAIN_HEADERS, 'content-length': '0' }),
      requestOf(PATH, { ...PLAIN_HEADERS, 'content-length': String(BODY_BYTES_MAX + 1) }),
      // Fastify answers these 406 (registerV2AcceptCheck)
      requestOf(PATH, { ...PLAIN_HEADERS, accept: 'text/html' }),
      requestOf(PATH, { ...PLAIN_HEADERS, accept: 'application/json;q=0' }),
      ...['origin', 'authorization', 'transfer-encoding', 'content-encoding'].map((name) =>
        requestOf(PATH, { ...PLAIN_HEADERS, [name]: '1' }),
      ),
    ];
    for (const other of others)
      expect(
        plainV2ProduceOf(other, BODY_BYTES_MAX),
        `${other.method} ${other.url} ${JSON.stringify(other.headers)}`,
      ).toBeNull();
  });
});

describe('V2ProduceRoute (in front of the HTTP server)', () => {
  let server: FrontRouteServer;
  let port: number;
  let metrics: Metrics;
  let route: V2ProduceRoute;
  /** What the controller was asked, and what the listener behind the route (Fastify's place) got. */
  let produced: Array<{ topic: string; partitionText: string; acks: string | undefined; body: unknown }>;
  let passedOn: string[];
  let answerWith: (reply: ProduceReply) => unknown;
  let limited: QuotaKind[];

  beforeEach(async () => {
    // the broker's default level (info): each answered request is not logged
    Logger.overrideLogger(['fatal', 'error', 'warn', 'log']);
    produced = [];
    limited = [];
    answerWith = (reply) => {
      void reply.header('content-type', 'application/json; charset=utf-8');
      return Buffer.from('{"offsets":[]}');
    };
    const controller = {
      produceToPartition: async (
        topic: string,
        partitionText: string,
        acks: string | undefined,
        _headers: unknown,
        body: unknown,
        _request: unknown,
        reply: ProduceReply,
      ) => {
        produced.push({ topic, partitionText, acks, body });
        return answerWith(reply) as Buffer;
      },
    };
    metrics = new Metrics();
    const quotas = { limits: (_principal: string, kind: QuotaKind) => limited.includes(kind) };
    route = new V2ProduceRoute(controller, quotas, metrics, BODY_BYTES_MAX, true);
    server = await frontRouteServer(route);
    ({ port, passedOn } = server);
  });

  afterEach(async () => {
    await server.close();
  });

  const post = (path: string, body: string = BODY, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; body: string }>((resolve, reject) => {
      const sent = { ...PLAIN_HEADERS, 'content-length': String(Buffer.byteLength(body)), ...headers };
      httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: sent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      })
        .on('error', reject)
        .end(body);
    });

  const series = async (name: string) =>
    (await metrics.registry.metrics())
      .split('\n')
      .filter((line) => line.startsWith(`${name}{`) && line.includes(`route="${ROUTE}"`));

  it("answers a plain produce itself: the scanner's records to the controller, the v2 answer type, counted", async () => {
    const answer = await post(`${PATH}?acks=1`, BODY, { 'x-request-id': 'produce-1' });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('{"offsets":[]}');
    expect(answer.headers).toMatchObject({
      'x-request-id': 'produce-1',
      'content-type': 'application/vnd.kafka.v2+json',
      'content-length': '14',
    });
    expect(passedOn).toEqual([]);
    expect(produced).toHaveLength(1);
    expect(produced[0]).toMatchObject({ topic: 'bench', partitionText: '0', acks: '1' });
    expect(produced[0].body).toBeInstanceOf(LaidOutRecords);
    expect((produced[0].body as LaidOutRecords).count).toBe(1000);
    expect(await series('brook_http_requests_total')).toEqual([
      `brook_http_requests_total{method="POST",route="${ROUTE}",status="200"} 1`,
    ]);
    expect(await series('brook_http_request_duration_seconds_count')).toEqual([
      `brook_http_request_duration_seconds_count{method="POST",route="${ROUTE}"} 1`,
    ]);
  });

  it('labels the answer and an error with the type negotiated from Accept', async () => {
    expect((await post(PATH, BODY, { accept: 'application/json' })).headers['content-type']).toBe('application/json');
    answerWith = () => {
      throw errors.topicNotFound('bench');
    };
    const refused = await post(PATH, BODY, { accept: 'application/vnd.kafka.v2+json, application/json' });
    expect(refused.status).toBe(404);
    expect(refused.headers['content-type']).toBe('application/vnd.kafka.v2+json');
    expect((await post(PATH, BODY, { accept: 'application/json' })).headers['content-type']).toBe('application/json');
    expect(passedOn).toEqual([]);
  });

  it('gives the controller a body the scanner does not take parsed, and serialises an object answer', async () => {
    answerWith = () => ({ offsets: [{ partition: 0, offset: 5, error_code: null, error: null }] });
    // an escape in a value: the scanner leaves it to JSON.parse
    const answer = await post(PATH, '{"records":[{"value":"eHg\\u003d"}]}');
    expect(produced[0].body).toEqual({ records: [{ value: 'eHg=' }] });
    expect(answer.body).toBe('{"offsets":[{"partition":0,"offset":5,"error_code":null,"error":null}]}');
    expect(answer.headers['content-type']).toBe('application/vnd.kafka.v2+json');
  });

  it("answers the controller's refusal as the error filter does, and counts it by its error code", async () => {
    answerWith = () => {
      throw errors.topicNotFound('bench');
    };
    const answer = await post(PATH);
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('application/vnd.kafka.v2+json');
    expect(answer.headers.connection).toBe('keep-alive');
    expect(JSON.parse(answer.body)).toMatchObject({ error_code: 40401 });
    expect(await series('brook_http_request_errors_total')).toEqual([
      `brook_http_request_errors_total{method="POST",route="${ROUTE}",error_code="40401"} 1`,
    ]);
  });

  it('answers a body JSON cannot parse 400 on a closed connection, as Fastify answers a refused body', async () => {
    const answer = await post(PATH, '{"records": [');
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe('close');
    expect(produced).toEqual([]);
  });

  it('passes on other shapes, a principal with a quota, every request at debug level and all once closing', async () => {
    expect((await post(PATH, BODY, { accept: 'text/html' })).status).toBe(418);
    limited = ['producer_byte_rate'];
    expect((await post(PATH)).status).toBe(418);
    limited = ['request_rate'];
    expect((await post(PATH)).status).toBe(418);
    limited = [];
    Logger.overrideLogger(['fatal', 'error', 'warn', 'log', 'debug']);
    expect((await post(PATH)).status).toBe(418);
    Logger.overrideLogger(['fatal', 'error', 'warn', 'log']);
    route.close();
    expect((await post(PATH)).status).toBe(418);
    expect(passedOn).toHaveLength(5);
    expect(produced).toEqual([]);
  });
});
