import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Logger } from '@nestjs/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { frontRouteServer, type FrontRouteServer } from '../../test/support/front-route-server.js';
import { PeerAuthenticator } from '../cluster/peer-auth.js';
import { CLUSTER_SECRET_HEADER } from '../cluster/peer-client.js';
import { errors } from '../common/brook-error.js';
import { loadBrokerConfig } from '../config/broker-config.js';
import { Metrics } from '../metrics/metrics.service.js';
import type { LeaderFetchAnswer, ReplicaFetchRequest } from '../replication/replica-fetch-protocol.js';
import type { ReplicaManager } from '../replication/replica-manager.service.js';
import { plainFetchOf, REPLICA_FETCH_ROUTE, ReplicaFetchRoute } from './replica-fetch-route.js';

const SECRET = 'a-cluster-secret-long-enough';
const QUERY =
  'replica_id=2&broker_epoch=7&fetch_offset=1000&last_fetched_epoch=0&leader_epoch=3&max_bytes=1048576&wait_ms=500';
const PATH = `/internal/v1/partitions/bench/0/replica-fetch?${QUERY}`;

function requestOf(url: string, method = 'GET', headers: Record<string, string> = {}): IncomingMessage {
  return { method, url, headers } as unknown as IncomingMessage;
}

describe('plainFetchOf (the follower fetches the route takes before Fastify)', () => {
  it('takes a plain fetch: its topic, partition and the seven parameters as they are', () => {
    expect(plainFetchOf(requestOf(PATH))).toEqual({
      topic: 'bench',
      partitionText: '0',
      query: {
        replica_id: '2',
        broker_epoch: '7',
        fetch_offset: '1000',
        last_fetched_epoch: '0',
        leader_epoch: '3',
        max_bytes: '1048576',
        wait_ms: '500',
      },
    });
  });

  it('leaves anything else to Fastify: other methods, routes, escapes, unknown or repeated parameters, bodies, Origin', () => {
    const others = [
      requestOf(PATH, 'HEAD'),
      requestOf(PATH, 'POST'),
      requestOf(PATH.replace('replica-fetch', 'records')),
      requestOf(PATH.replace('bench', 'be%20nch')),
      requestOf(PATH.replace('bench/0', 'bench/x')),
      requestOf(PATH.replace('bench/0', 'bench/0/1')),
      requestOf(`${PATH}&extra=1`),
      requestOf(`${PATH}&wait_ms=1`),
      requestOf(`${PATH}&wait_ms`),
      requestOf(PATH.replace('wait_ms=500', 'wait_ms=5%30')),
      requestOf(PATH.split('?')[0]),
      requestOf(PATH, 'GET', { 'content-length': '3' }),
      requestOf(PATH, 'GET', { 'transfer-encoding': 'chunked' }),
      requestOf(PATH, 'GET', { origin: 'http://example.com' }),
    ];
    for (const other of others) expect(plainFetchOf(other), `${other.method} ${other.url}`).toBeNull();
    expect(plainFetchOf(requestOf(PATH, 'GET', { 'content-length': '0' }))).not.toBeNull();
  });
});

describe('ReplicaFetchRoute (in front of the HTTP server)', () => {
  let server: FrontRouteServer;
  let port: number;
  let metrics: Metrics;
  let route: ReplicaFetchRoute;
  /** What the fake replica manager was asked, and what the listener behind the route (Fastify's place) got. */
  let fetches: Array<{ topic: string; partition: number; request: ReplicaFetchRequest }>;
  let passedOn: string[];
  let answerWith: (request: ReplicaFetchRequest) => LeaderFetchAnswer;

  beforeEach(async () => {
    // the broker's default level (info): each answered request is not logged
    Logger.overrideLogger(['fatal', 'error', 'warn', 'log']);
    fetches = [];
    answerWith = () => ({
      leaderEpoch: 3,
      highWatermark: 900,
      logStartOffset: 0,
      diverging: null,
      batches: [Buffer.from('first-'), Buffer.from('second')],
    });
    const replicas = {
      replicaFetch: async (topic: string, partition: number, request: ReplicaFetchRequest) => {
        fetches.push({ topic, partition, request });
        return answerWith(request);
      },
    } as unknown as ReplicaManager;
    const config = loadBrokerConfig({ BROOK_REDIS_URL: 'redis://127.0.0.1:1', BROOK_CLUSTER_SECRET: SECRET });
    metrics = new Metrics();
    route = new ReplicaFetchRoute(replicas, new PeerAuthenticator(config), metrics, config, true);
    server = await frontRouteServer(route);
    ({ port, passedOn } = server);
  });

  afterEach(async () => {
    await server.close();
  });

  const get = (path: string, headers: Record<string, string> = { [CLUSTER_SECRET_HEADER]: SECRET }) =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      })
        .on('error', reject)
        .end();
    });

  const series = async (name: string) =>
    (await metrics.registry.metrics())
      .split('\n')
      .filter((line) => line.startsWith(`${name}{`) && line.includes(`route="${REPLICA_FETCH_ROUTE}"`));

  it("answers a peer's plain fetch itself: the batches end to end, the answer headers, its request id, counted", async () => {
    const answer = await get(PATH, { [CLUSTER_SECRET_HEADER]: SECRET, 'x-request-id': 'fetch-1' });
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('first-second');
    expect(answer.headers).toMatchObject({
      'content-type': 'application/vnd.brook.batches',
      'content-length': '12',
      'x-request-id': 'fetch-1',
      'x-brook-leader-epoch': '3',
      'x-brook-high-watermark': '900',
      'x-brook-log-start-offset': '0',
    });
    expect(passedOn).toEqual([]);
    expect(fetches).toEqual([
      {
        topic: 'bench',
        partition: 0,
        request: {
          replicaId: 2,
          brokerEpoch: 7,
          fetchOffset: 1000,
          lastFetchedEpoch: 0,
          leaderEpoch: 3,
          maxBytes: 1048576,
          waitMs: 500,
        },
      },
    ]);
    expect(await series('brook_http_requests_total')).toEqual([
      `brook_http_requests_total{method="GET",route="${REPLICA_FETCH_ROUTE}",status="200"} 1`,
    ]);
    expect(await series('brook_http_request_duration_seconds_count')).toEqual([
      `brook_http_request_duration_seconds_count{method="GET",route="${REPLICA_FETCH_ROUTE}"} 1`,
    ]);
  });

  it("answers the replica manager's refusal as the error filter does, and counts it by its error code", async () => {
    answerWith = () => {
      throw errors.fencedLeaderEpoch('leader epoch 3 is older than 4');
    };
    const answer = await get(PATH);
    expect(answer.status).toBe(409);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(answer.body.toString()) as { error_code: number; message: string };
    expect(body).toEqual({ error_code: 40905, message: 'leader epoch 3 is older than 4' });
    expect(await series('brook_http_request_errors_total')).toEqual([
      `brook_http_request_errors_total{method="GET",route="${REPLICA_FETCH_ROUTE}",error_code="40905"} 1`,
    ]);
    expect(await series('brook_http_requests_total')).toEqual([
      `brook_http_requests_total{method="GET",route="${REPLICA_FETCH_ROUTE}",status="409"} 1`,
    ]);
  });

  it('answers a wrong parameter 400 naming it, before the replica manager is asked', async () => {
    const answer = await get(PATH.replace('max_bytes=1048576', 'max_bytes=0'));
    expect(answer.status).toBe(400);
    expect((JSON.parse(answer.body.toString()) as { message: string }).message).toMatch(/^max_bytes /);
    expect(fetches).toEqual([]);
  });

  it('passes on a fetch without the cluster secret (the guard refuses it there), any other request, and all once closing', async () => {
    expect((await get(PATH, {})).status).toBe(418);
    expect((await get(PATH, { [CLUSTER_SECRET_HEADER]: 'not-the-cluster-secret' })).status).toBe(418);
    expect((await get(`${PATH}&extra=1`)).status).toBe(418);
    route.close();
    expect((await get(PATH)).status).toBe(418);
    expect(passedOn).toHaveLength(4);
    expect(fetches).toEqual([]);
  });

  it('passes on every request while each answered request is logged (debug), as Fastify logs it', async () => {
    Logger.overrideLogger(['fatal', 'error', 'warn', 'log', 'debug']);
    expect((await get(PATH)).status).toBe(418);
    expect(fetches).toEqual([]);
  });
});
