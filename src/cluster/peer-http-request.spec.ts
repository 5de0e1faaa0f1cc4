import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent as HttpAgent, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TestCertificates } from '../../test/e2e/support/certificates.js';
import { NOT_SENT_CODE, PeerAnswer, sendPeerRequest } from './peer-http-request.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const servers: Server[] = [];
const sockets = new Set<Socket>();
const agents: Array<HttpAgent | HttpsAgent> = [];
let connections = 0;

function track(server: Server): Server {
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  servers.push(server);
  return server;
}

async function listen(server: Server, scheme = 'http'): Promise<URL> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new URL(`${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

function serve(handler: Handler): Promise<URL> {
  return listen(track(createServer(handler)));
}

function agent(options: ConstructorParameters<typeof HttpAgent>[0] = {}): HttpAgent {
  const made = new HttpAgent({ keepAlive: true, ...options });
  agents.push(made);
  return made;
}

afterEach(async () => {
  for (const made of agents.splice(0)) made.destroy();
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  connections = 0;
});

/** A body of `bytes` whose every byte says where it is, so a misplaced byte shows. */
function bodyOf(bytes: number): Buffer {
  const body = Buffer.alloc(bytes);
  for (let index = 0; index < bytes; index++) body[index] = (index * 31 + 7) % 251;
  return body;
}

const get = (over: HttpAgent | HttpsAgent, extra: Partial<Parameters<typeof sendPeerRequest>[1]> = {}) => ({
  method: 'GET',
  headers: {},
  agent: over,
  https: false,
  answerBytesMax: 64 << 20,
  ...extra,
});

describe('sendPeerRequest over http', () => {
  it('gets binary answers of any size, whole, over one kept connection, the request headers sent', async () => {
    const seen: Array<string | string[] | undefined> = [];
    const base = await serve((request, response) => {
      seen.push(request.headers['x-secret']);
      const body = bodyOf(Number(new URL(request.url!, 'http://x').searchParams.get('bytes')));
      // chunked (no content-length) for odd sizes, so both framings are read
      const framing = body.length % 2 === 0 ? { 'content-length': String(body.length) } : {};
      response.writeHead(200, { ...framing, 'x-brook-high-watermark': '42' });
      response.end(body);
    });
    const over = agent();
    for (const bytes of [0, 10, 70_001, 6_000_000, 5]) {
      const answer = await sendPeerRequest(
        new URL(`/f?bytes=${bytes}`, base),
        get(over, { headers: { 'x-secret': 's' } }),
      );
      expect(answer.status).toBe(200);
      expect(answer.headers['x-brook-high-watermark']).toBe('42');
      expect(answer.body.equals(bodyOf(bytes))).toBe(true);
    }
    expect(seen).toEqual(['s', 's', 's', 's', 's']);
    expect(connections).toBe(1);
  });

  it('sends a body with its length and gives the answer as a Response-like PeerAnswer', async () => {
    const base = await serve((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        response.writeHead(409, { 'content-type': 'application/json', 'x-a': ['1', '2'] });
        response.end(JSON.stringify({ length: request.headers['content-length'], method: request.method, text }));
      });
    });
    const sent = await sendPeerRequest(base, {
      ...get(agent()),
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"é":1}',
    });
    const answer = new PeerAnswer(sent.status, sent.headers, sent.body);
    expect(answer.ok).toBe(false);
    expect(answer.status).toBe(409);
    expect(answer.headers.get('Content-Type')).toBe('application/json');
    expect(answer.headers.get('x-a')).toBe('1, 2');
    expect(answer.headers.get('x-none')).toBeNull();
    expect(await answer.json()).toEqual({ length: '8', method: 'POST', text: '{"é":1}' });
    expect(Buffer.from(await answer.arrayBuffer()).equals(sent.body)).toBe(true);
    expect(new PeerAnswer(204, {}, Buffer.alloc(0)).ok).toBe(true);
    await expect(new PeerAnswer(200, {}, Buffer.from('not json')).json()).rejects.toThrow(SyntaxError);
  });

  it('fails when no answer comes in time (the request was sent), and frees the kept connection', async () => {
    const base = await serve(() => {}); // never answers
    const started = Date.now();
    const error = await sendPeerRequest(base, get(agent(), { timeoutMs: 200 })).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(error).toMatchObject({ message: 'no answer within 200 ms', code: 'ETIMEDOUT' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sockets.size).toBe(0); // the client destroyed its connection
  });

  it('says a request that waited for a socket and was never written was not sent', async () => {
    const base = await serve(() => {}); // the first request holds the only socket
    const over = agent({ maxSockets: 1 });
    const first = sendPeerRequest(base, get(over, { timeoutMs: 400 })).catch((caught: unknown) => caught);
    const second = await sendPeerRequest(base, get(over, { timeoutMs: 150 })).catch((caught: unknown) => caught);
    expect(second).toMatchObject({ code: NOT_SENT_CODE });
    expect(await first).toMatchObject({ code: 'ETIMEDOUT' });
  });

  it('fails at once on an aborted signal, with its reason, before or during the wait', async () => {
    const base = await serve(() => {});
    const over = agent();
    const early = await sendPeerRequest(base, get(over, { signal: AbortSignal.abort(new Error('stopped')) })).catch(
      (caught: unknown) => caught,
    );
    expect(early).toMatchObject({ message: 'stopped', code: NOT_SENT_CODE });
    const controller = new AbortController();
    const late = sendPeerRequest(base, get(over, { signal: controller.signal })).catch((caught: unknown) => caught);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort(new Error('leaving'));
    expect(await late).toMatchObject({ message: 'leaving', code: 'ETIMEDOUT' });
    const timedOut = await sendPeerRequest(base, get(over, { signal: AbortSignal.timeout(100) })).catch(
      (caught: unknown) => caught,
    );
    expect(timedOut).toMatchObject({ message: 'The operation was aborted due to timeout' });
  });

  it('fails when the peer closes the connection before or in the middle of its answer', async () => {
    const base = await serve((request, response) => {
      if (request.url === '/half') {
        response.writeHead(200, { 'content-length': '100000' });
        response.write(bodyOf(1000), () => response.socket?.destroy());
      } else request.socket.destroy();
    });
    const over = agent();
    await expect(sendPeerRequest(new URL('/none', base), get(over, { timeoutMs: 5000 }))).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    await expect(sendPeerRequest(new URL('/half', base), get(over, { timeoutMs: 5000 }))).rejects.toThrow(
      /closed before the end of the answer|aborted/,
    );
  });

  it('refuses an answer larger than answerBytesMax, announced or chunked', async () => {
    const base = await serve((request, response) => {
      if (request.url === '/announced') response.writeHead(200, { 'content-length': String(2_000_000) });
      else response.writeHead(200);
      response.end(bodyOf(2_000_000));
    });
    const over = agent();
    const limited = (path: string) => sendPeerRequest(new URL(path, base), get(over, { answerBytesMax: 1_000_000 }));
    await expect(limited('/announced')).rejects.toMatchObject({ code: 'EPROTO', message: /2000000 bytes, more than/ });
    await expect(limited('/chunked')).rejects.toMatchObject({ code: 'EPROTO', message: /more than 1000000 bytes/ });
  });

  it('gives a refused connection its code', async () => {
    const base = await serve(() => {});
    await new Promise((resolve) => servers.pop()!.close(resolve));
    await expect(sendPeerRequest(base, get(agent(), { timeoutMs: 2000 }))).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });

  it('answers a long poll that outlasts the idle timeout of kept connections, then closes idle ones', async () => {
    const base = await serve((request, response) => {
      setTimeout(() => response.end('late'), request.url === '/slow' ? 400 : 0);
    });
    const over = agent({ timeout: 150 });
    const answer = await sendPeerRequest(new URL('/slow', base), get(over, { timeoutMs: 5000 }));
    expect(answer.body.toString()).toBe('late');
    expect(sockets.size).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(sockets.size).toBe(0); // the kept socket was closed as idle
  });
});

describe('sendPeerRequest over https', () => {
  const dir = mkdtempSync(join(tmpdir(), 'brook-peer-http-'));
  const pem = (name: string) => readFileSync(join(dir, name));
  beforeAll(() => {
    const certificates = new TestCertificates(dir);
    certificates.ca('peer-ca');
    certificates.ca('other-ca');
    const server = 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n';
    certificates.sign('broker', 'broker', 'peer-ca', server);
    certificates.sign('rogue', 'rogue', 'other-ca', server);
  }, 30_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function serveTls(name: string): Promise<URL> {
    const server = createHttpsServer(
      { cert: pem(`${name}.crt`), key: pem(`${name}.key`), ca: pem('peer-ca.crt'), requestCert: true },
      (request, response) => {
        const peer = (request.socket as import('node:tls').TLSSocket).getPeerCertificate();
        const body = bodyOf(3_000_000);
        response.writeHead(200, { 'content-length': String(body.length), 'x-peer': peer.subject?.CN ?? 'none' });
        response.end(body);
      },
    );
    return listen(track(server as unknown as Server), 'https');
  }

  function tlsAgent(): HttpsAgent {
    const made = new HttpsAgent({
      keepAlive: true,
      ca: pem('peer-ca.crt'),
      cert: pem('broker.crt'),
      key: pem('broker.key'),
    });
    agents.push(made);
    return made;
  }

  it('verifies the peer against the peer CA, presents its own certificate, and reads a large answer', async () => {
    const base = await serveTls('broker');
    const over = tlsAgent();
    for (let round = 0; round < 2; round++) {
      const answer = await sendPeerRequest(base, get(over, { https: true, timeoutMs: 10_000 }));
      expect(answer.headers['x-peer']).toBe('broker');
      expect(answer.body.equals(bodyOf(3_000_000))).toBe(true);
    }
    expect(connections).toBe(1);
  });

  it('refuses a peer whose certificate the peer CA did not sign, before sending anything', async () => {
    let requests = 0;
    const base = await serveTls('rogue');
    servers[servers.length - 1].on('request', () => requests++);
    await expect(sendPeerRequest(base, get(tlsAgent(), { https: true, timeoutMs: 10_000 }))).rejects.toMatchObject({
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
    expect(requests).toBe(0);
  });
});
