// CORS as a browser meets it, against broker processes: with BROOK_CORS_ALLOWED_ORIGINS set, a preflight and a
// cross-origin produce, SSE read and WebSocket from a listed origin are granted (the origin echoed, credentials,
// `Vary: Origin`, Brook's headers allowed and exposed); another origin gets no grant, its SSE stream and its
// WebSocket upgrade are refused; requests without an Origin header work as before. Without the setting no CORS
// header is sent. Raw node:http requests, since fetch treats Origin as the runtime's own.
import { request, type IncomingHttpHeaders } from 'node:http';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { brokerForSuite } from './support/broker-process.js';
import { WsClient } from './support/ws-client.js';

const APP = 'https://app.example';
const OTHER = 'https://other.example';

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

function send(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${baseUrl}${path}`, { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}

/** Opens an SSE stream and answers its head and the text up to the first record event (or the whole refusal). */
function firstEvent(baseUrl: string, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${baseUrl}${path}`, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      const answer = () => ({ status: res.statusCode ?? 0, headers: res.headers, text });
      res.on('data', (chunk: string) => {
        text += chunk;
        if (res.statusCode === 200 && text.includes('\ndata:')) {
          resolve(answer());
          outgoing.destroy();
        }
      });
      res.on('end', () => resolve(answer()));
    });
    outgoing.setTimeout(10_000, () => outgoing.destroy(new Error(`no record event on ${path} in 10 s`)));
    outgoing.once('error', reject);
    outgoing.end();
  });
}

/** The upgrade's refusal status, or 101 when the socket opens. */
function upgradeStatus(baseUrl: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/v3/ws`, { headers });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

const listOf = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value.join(',') : (value ?? '')).split(',').map((part) => part.trim().toLowerCase());

describe('CORS with BROOK_CORS_ALLOWED_ORIGINS set', () => {
  const suite = brokerForSuite({ env: { BROOK_CORS_ALLOWED_ORIGINS: `${APP}, http://localhost:3000` } });
  const records = () => `/v3/clusters/${suite.clusterId}/topics/web/records`;

  it('answers a preflight from a listed origin on any route, before authentication, with its grant', async () => {
    const preflight = await send(suite.url, 'OPTIONS', records(), {
      origin: APP,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, idempotency-key, x-brook-trace, x-evil',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(APP);
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    expect(listOf(preflight.headers.vary)).toContain('origin');
    expect(listOf(preflight.headers['access-control-allow-methods'])).toEqual(
      expect.arrayContaining(['get', 'post', 'put', 'patch', 'delete']),
    );
    const allowed = listOf(preflight.headers['access-control-allow-headers']);
    expect(allowed).toEqual(
      expect.arrayContaining(['content-type', 'authorization', 'idempotency-key', 'last-event-id', 'x-brook-trace']),
    );
    expect(allowed).not.toContain('x-evil');
    for (const path of ['/topics', '/v3/clusters/whatever/acls', '/no/such/route']) {
      const other = await send(suite.url, 'OPTIONS', path, { origin: APP, 'access-control-request-method': 'GET' });
      expect(other.status, path).toBe(204);
      expect(other.headers['access-control-allow-origin'], path).toBe(APP);
    }
  });

  it('grants a cross-origin produce and SSE read from a listed origin, exposing Brook headers', async () => {
    const created = await send(
      suite.url,
      'POST',
      `/v3/clusters/${suite.clusterId}/topics`,
      { 'content-type': 'application/json', origin: APP },
      JSON.stringify({ topic_name: 'web', partitions_count: 1 }),
    );
    expect(created.status, created.text).toBe(201);
    const produced = await send(
      suite.url,
      'POST',
      records(),
      { 'content-type': 'application/json', origin: APP },
      JSON.stringify({ value: { type: 'STRING', data: 'from the browser' } }),
    );
    expect(produced.status, produced.text).toBe(200);
    expect(produced.headers['access-control-allow-origin']).toBe(APP);
    expect(produced.headers['access-control-allow-credentials']).toBe('true');
    expect(listOf(produced.headers.vary)).toContain('origin');
    expect(listOf(produced.headers['access-control-expose-headers'])).toEqual(
      expect.arrayContaining(['retry-after', 'idempotent-replayed', 'x-brook-next-offset', 'brook-outcome']),
    );
    const stream = await firstEvent(
      suite.url,
      `/v3/clusters/${suite.clusterId}/topics/web/records:stream?from=earliest&format=string`,
      { origin: 'http://localhost:3000' },
    );
    expect(stream.status, stream.text).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(stream.text).toContain('from the browser');
  });

  it('gives another origin no grant, and refuses its SSE stream and WebSocket upgrade', async () => {
    const preflight = await send(suite.url, 'OPTIONS', records(), {
      origin: OTHER,
      'access-control-request-method': 'POST',
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.status).not.toBe(204);
    const produced = await send(
      suite.url,
      'POST',
      records(),
      { 'content-type': 'application/json', origin: OTHER },
      JSON.stringify({ value: { type: 'STRING', data: 'x' } }),
    );
    expect(produced.headers['access-control-allow-origin']).toBeUndefined();
    expect(produced.headers['access-control-allow-credentials']).toBeUndefined();
    const stream = await firstEvent(suite.url, `/v3/clusters/${suite.clusterId}/topics/web/records:stream`, {
      origin: OTHER,
    });
    expect(stream.status).toBe(403);
    expect(JSON.parse(stream.text)).toMatchObject({ error_code: 40301 });
    expect(stream.headers['access-control-allow-origin']).toBeUndefined();
    expect(await upgradeStatus(suite.url, { origin: OTHER })).toBe(403);
    expect(await upgradeStatus(suite.url, { origin: APP })).toBe(101);
  });

  it('serves requests without an Origin header as before, without CORS headers', async () => {
    const listed = await send(suite.url, 'GET', '/topics');
    expect(listed.status).toBe(200);
    expect(listed.headers['access-control-allow-origin']).toBeUndefined();
    const socket = await WsClient.connect(suite.url);
    socket.socket.close();
    const stream = await firstEvent(
      suite.url,
      `/v3/clusters/${suite.clusterId}/topics/web/records:stream?from=earliest`,
      {},
    );
    expect(stream.status).toBe(200);
  });
});

describe('CORS without BROOK_CORS_ALLOWED_ORIGINS', () => {
  const suite = brokerForSuite();

  it('sends no CORS header and checks no origin', async () => {
    const preflight = await send(suite.url, 'OPTIONS', '/topics', {
      origin: APP,
      'access-control-request-method': 'GET',
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const listed = await send(suite.url, 'GET', '/topics', { origin: APP });
    expect(listed.status).toBe(200);
    expect(listed.headers['access-control-allow-origin']).toBeUndefined();
    expect(listed.headers.vary ?? '').not.toMatch(/origin/i);
    expect(await upgradeStatus(suite.url, { origin: OTHER })).toBe(101);
  });
});
