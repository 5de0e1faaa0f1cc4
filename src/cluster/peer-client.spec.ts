import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BrookError, OUTCOME_HEADER } from '../common/brook-error.js';
import type { BrokerConfig } from '../config/broker-config.js';
import type { CoordinationStore } from '../coordination/coordination-store.js';
import { CLUSTER_SECRET_HEADER, PeerClient, PeerUnreachableError, searchOf } from './peer-client.js';

let server: Server | null = null;
const sockets = new Set<Socket>();
let peers: PeerClient;

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeEach(() => {
  // no peer call may go through global fetch (undici's WebAssembly parser: peer-http-request.ts)
  vi.stubGlobal('fetch', () => {
    throw new Error('global fetch used');
  });
  const config = { clusterSecret: 'secret-0123', security: { tls: null } } as unknown as BrokerConfig;
  peers = new PeerClient(config, {} as CoordinationStore);
});

afterEach(async () => {
  vi.unstubAllGlobals();
  peers.onModuleDestroy();
  for (const socket of sockets) socket.destroy();
  if (server !== null) await new Promise((resolve) => server!.close(resolve));
  server = null;
});

describe('PeerClient over plain HTTP', () => {
  it('calls an internal route with the secret, a JSON body and the query; a 2xx answer reads as JSON', async () => {
    const seen: Array<{ url?: string; secret?: unknown; type?: unknown; body: string }> = [];
    const base = await serve((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({
          url: request.url,
          secret: request.headers[CLUSTER_SECRET_HEADER],
          type: request.headers['content-type'],
          body,
        });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"result":7}');
      });
    });
    const answer = await peers.call(base, { method: 'POST', path: '/controller/commands', query: { a: 1 }, json: [1] });
    expect(await answer.json()).toEqual({ result: 7 });
    expect(seen).toEqual([
      { url: '/internal/v1/controller/commands?a=1', secret: 'secret-0123', type: 'application/json', body: '[1]' },
    ]);
  });

  it("throws the peer's Brook error, with an unknown outcome when the peer says so", async () => {
    const base = await serve((request, response) => {
      response.writeHead(503, { 'content-type': 'application/json', [OUTCOME_HEADER]: 'unknown' });
      response.end('{"error_code":50003,"message":"not enough replicas"}');
    });
    const error = await peers.call(base, { method: 'GET', path: '/x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BrookError);
    expect(error).toMatchObject({ status: 503, errorCode: 50003, message: 'not enough replicas', outcome: 'unknown' });
  });

  it('tells a peer that cannot have seen the request from one that may have', async () => {
    const base = await serve(() => {}); // never answers
    const timedOut = await peers
      .call(base, { method: 'POST', path: '/x', json: {}, timeoutMs: 200 })
      .catch((caught: unknown) => caught);
    expect(timedOut).toBeInstanceOf(PeerUnreachableError);
    expect(timedOut).toMatchObject({ requestMayHaveArrived: true });
    expect((timedOut as Error).message).toMatch(/did not answer: The operation was aborted due to timeout/);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server!.close(resolve));
    server = null;
    const refused = await peers.call(base, { method: 'POST', path: '/x', json: {} }).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(PeerUnreachableError);
    expect(refused).toMatchObject({ requestMayHaveArrived: false });
  });

  it('gets a binary answer through getBinary without a fetch connection, and maps its error answers', async () => {
    const body = Buffer.from([0, 1, 2, 255, 254]);
    const base = await serve((request, response) => {
      if (request.url!.startsWith('/internal/v1/bad')) {
        response.writeHead(409, { 'content-type': 'application/json' });
        response.end('{"error_code":40901,"message":"fenced"}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/vnd.brook.batches', 'x-next': '5' });
      response.end(body);
    });
    const answer = await peers.getBinary(base, { path: '/good', query: { offset: 3 } });
    expect(answer.body.equals(body)).toBe(true);
    expect(answer.headers['x-next']).toBe('5');
    await expect(peers.getBinary(base, { path: '/bad' })).rejects.toMatchObject({ status: 409, errorCode: 40901 });
  });

  it('gets over a fetch connection the URL getBinary would request, its secret sent, from either form of the base', async () => {
    const seen: Array<{ url?: string; host?: string; secret?: string | string[] }> = [];
    const base = await serve((request, response) => {
      seen.push({ url: request.url, host: request.headers.host, secret: request.headers['x-brook-cluster-secret'] });
      response.writeHead(200, { 'content-type': 'application/vnd.brook.batches', 'content-length': '1' });
      response.end('b');
    });
    const connection = peers.fetchConnection(1 << 20);
    const query = { replica_id: 2, fetch_offset: -1, name: 'a b&c', big: 1e21 };
    for (const from of [base, `${base}/`, `${base}/ignored/path`]) {
      const answer = await peers.getBinary(from, { path: '/partitions/t%2Cx/0/replica-fetch', query }, connection);
      expect(answer.body.toString()).toBe('b');
      answer.release?.();
    }
    const expected = new URL(`/internal/v1/partitions/t%2Cx/0/replica-fetch${searchOf(query)}`, base);
    expect(seen).toHaveLength(3);
    for (const request of seen) {
      expect(request).toEqual({
        url: `${expected.pathname}${expected.search}`,
        host: expected.host,
        secret: 'secret-0123',
      });
    }
    expect(seen[0].url).toBe(
      '/internal/v1/partitions/t%2Cx/0/replica-fetch?replica_id=2&fetch_offset=-1&name=a+b%26c&big=1e%2B21',
    );
    connection.close();
  });
});

describe('searchOf', () => {
  it('encodes a query as URLSearchParams does, plain names and values as they are', () => {
    const queries: Array<Record<string, string | number>> = [
      {},
      { replica_id: 2, fetch_offset: 9_007_199_254_740_991, last_fetched_epoch: -1, wait_ms: 500 },
      { topic: 'a.b_c-d*', 'odd name': 'x y&z=1+2/é', empty: '', ünï: '%41' },
    ];
    for (const query of queries) {
      const expected = new URLSearchParams(
        Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]),
      );
      expect(searchOf(query)).toBe(expected.size === 0 ? '' : `?${expected.toString()}`);
    }
    expect(searchOf(undefined)).toBe('');
    expect(searchOf({ fetch_offset: 12, leader_epoch: 3 })).toBe('?fetch_offset=12&leader_epoch=3');
  });
});
