import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerBuffers } from './answer-buffers.js';
import { FetchConnectionError, PeerFetchConnection } from './peer-fetch-connection.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server | null = null;
const sockets = new Set<Socket>();
let connections = 0;

async function serve(handler: Handler): Promise<URL> {
  server = createServer(handler);
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  if (server !== null) await new Promise((resolve) => server!.close(resolve));
  server = null;
  connections = 0;
});

/** A body of `bytes` whose every byte says where it is, so a misplaced copy shows. */
function bodyOf(bytes: number): Buffer {
  const body = Buffer.alloc(bytes);
  for (let index = 0; index < bytes; index++) body[index] = (index * 31 + 7) % 251;
  return body;
}

describe('PeerFetchConnection', () => {
  it('gets answers of any size over one kept connection, with their headers, the request headers sent', async () => {
    const seen: Array<{ url?: string; secret?: string | string[] }> = [];
    const base = await serve((request, response) => {
      seen.push({ url: request.url, secret: request.headers['x-secret'] });
      const body = bodyOf(Number(new URL(request.url!, 'http://x').searchParams.get('bytes')));
      response.writeHead(200, { 'content-length': String(body.length), 'x-brook-high-watermark': '42' });
      response.end(body);
    });
    const buffers = new AnswerBuffers();
    const connection = new PeerFetchConnection(buffers, 8 << 20);
    for (const bytes of [0, 10, 70_000, 3_000_000, 5]) {
      const answer = await connection.get(new URL(`/fetch?bytes=${bytes}`, base), { 'x-secret': 's' }, 5_000);
      expect(answer.status).toBe(200);
      expect(answer.headers['x-brook-high-watermark']).toBe('42');
      expect(answer.body.equals(bodyOf(bytes))).toBe(true);
      answer.release();
    }
    expect(seen).toHaveLength(5);
    expect(seen[2]).toEqual({ url: '/fetch?bytes=70000', secret: 's' });
    expect(connections).toBe(1);
    expect(buffers.keptBytes).toBeGreaterThan(0); // the body buffers came back
    connection.close();
  });

  it('reuses a buffer given back, and not one still held', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.end(bodyOf(100));
    });
    const connection = new PeerFetchConnection(new AnswerBuffers(), 1 << 20);
    const first = await connection.get(base, {}, 5_000);
    const second = await connection.get(base, {}, 5_000); // the first is still held
    expect(second.body.buffer).not.toBe(first.body.buffer);
    expect(first.body.equals(bodyOf(100))).toBe(true);
    second.release();
    const third = await connection.get(base, {}, 5_000);
    expect(third.body.buffer).toBe(second.body.buffer);
    connection.close();
  });

  it('answers an error status with its body, and refuses an answer without a content-length', async () => {
    const base = await serve((request, response) => {
      if (request.url === '/chunked') {
        response.writeHead(200);
        response.write('a');
        response.end('b');
        return;
      }
      const body = JSON.stringify({ error_code: 40905, message: 'fenced' });
      response.writeHead(409, { 'content-length': String(body.length), 'brook-outcome': 'unknown' });
      response.end(body);
    });
    const connection = new PeerFetchConnection(new AnswerBuffers(), 1 << 20);
    const refused = await connection.get(new URL('/x', base), {}, 5_000);
    expect(refused.status).toBe(409);
    expect(refused.headers['brook-outcome']).toBe('unknown');
    expect(JSON.parse(refused.body.toString())).toEqual({ error_code: 40905, message: 'fenced' });
    const error = await connection.get(new URL('/chunked', base), {}, 5_000).catch((failure: Error) => failure);
    expect(error).toBeInstanceOf(FetchConnectionError);
    expect((error as Error).message).toMatch(/content-length/);
    // the next request works on a new connection
    expect((await connection.get(new URL('/x', base), {}, 5_000)).status).toBe(409);
    connection.close();
  });

  it('sends a request again on a new connection when the kept one was closed by the peer as idle', async () => {
    let requests = 0;
    const base = await serve((_request, response) => {
      requests++;
      response.writeHead(200, { 'content-length': '2' });
      response.end('ok');
    });
    const connection = new PeerFetchConnection(new AnswerBuffers(), 1 << 20);
    expect((await connection.get(base, {}, 5_000)).body.toString()).toBe('ok');
    for (const socket of sockets) socket.destroy(); // the peer drops the idle connection
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await connection.get(base, {}, 5_000)).body.toString()).toBe('ok');
    expect(requests).toBe(2);
    expect(connections).toBe(2);
    connection.close();
  });

  it('fails a request without an answer in time or aborted, and says whether it can have arrived', async () => {
    const base = await serve(() => undefined); // never answers
    const connection = new PeerFetchConnection(new AnswerBuffers(), 1 << 20);
    const late = await connection.get(base, {}, 50).catch((failure: FetchConnectionError) => failure);
    expect(late).toMatchObject({ code: 'ETIMEDOUT', requestMayHaveArrived: true });
    const abort = new AbortController();
    const waiting = connection.get(base, {}, 5_000, abort.signal).catch((failure: FetchConnectionError) => failure);
    abort.abort();
    expect(await waiting).toMatchObject({ code: 'ABORT_ERR' });
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await connection
      .get(new URL(`http://127.0.0.1:${port}/`), {}, 5_000)
      .catch((failure: FetchConnectionError) => failure);
    expect(refused).toMatchObject({ code: 'ECONNREFUSED', requestMayHaveArrived: false });
    connection.close();
  });

  it('reads a head that arrives in pieces, its blank line split anywhere, and a body that starts in its last read', async () => {
    const body = Buffer.concat([Buffer.from('\r\n\r\nHTTP/1.1 200 OK\r\n'), bodyOf(70_000)]);
    const head = `HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\nx-brook-high-watermark: 7\r\n\r\n`;
    const answer = Buffer.concat([Buffer.from(head, 'latin1'), body]);
    let cut = 0;
    const raw = createTcpServer({ noDelay: true }, (socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.on('data', () => {
        // the answer in two writes, apart in time: the second begins `cut` bytes into the head's blank line
        socket.write(answer.subarray(0, cut));
        setTimeout(() => socket.write(answer.subarray(cut)), 15);
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const base = new URL(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/`);
    const connection = new PeerFetchConnection(new AnswerBuffers(), 1 << 20);
    const blankLine = head.length - 4;
    for (const at of [
      1,
      blankLine - 1,
      blankLine,
      blankLine + 1,
      blankLine + 2,
      blankLine + 3,
      head.length,
      head.length + 5,
    ]) {
      cut = at;
      const got = await connection.get(base, {}, 5_000);
      expect(got.status).toBe(200);
      expect(got.headers).toEqual({ 'content-length': String(body.length), 'x-brook-high-watermark': '7' });
      expect(got.body.equals(body)).toBe(true);
      got.release();
    }
    connection.close();
    await new Promise((resolve) => raw.close(resolve));
  });

  it('reads header names and values in any case and spacing, and refuses a head that is not an HTTP answer', async () => {
    const heads = new Map<string, string>([
      [
        '/plain',
        'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Brook-High-Watermark:7\r\n  X-Spaced  :  a b  \r\nx-empty:\r\n',
      ],
      ['/old', 'HTTP/1.0 409\r\ncontent-length: 2\r\nConnection: Close\r\n'],
      ['/reason', 'HTTP/1.1 2000 what\r\ncontent-length: 2\r\nx-a: b:c\r\n'],
      ['/junk', 'HTTP/2.0 200 OK\r\ncontent-length: 2\r\n'],
      ['/short', 'HTTP/1.1 20\r\ncontent-length: 2\r\n'],
      ['/letters', 'HTTP/1.1 2x0 OK\r\ncontent-length: 2\r\n'],
      ['/nocolon', 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\nnot a header\r\n'],
      ['/colonfirst', 'HTTP/1.1 200 OK\r\n: x\r\ncontent-length: 2\r\n'],
      ['/nolength', 'HTTP/1.1 200 OK\r\nx-a: 1\r\n'],
      ['/badlength', 'HTTP/1.1 200 OK\r\ncontent-length: 2x\r\n'],
    ]);
    const base = await serve((request) => {
      request.socket.write(`${heads.get(request.url!)}\r\nok`);
      if (request.url === '/old') request.socket.end();
    });
    const connection = new PeerFetchConnection(new AnswerBuffers(), 1 << 20);
    const get = (path: string) => connection.get(new URL(path, base), {}, 5_000);
    const plain = await get('/plain');
    expect(plain.status).toBe(200);
    expect(plain.headers).toEqual({
      'content-length': '2',
      'x-brook-high-watermark': '7',
      'x-spaced': 'a b',
      'x-empty': '',
    });
    expect(plain.body.toString()).toBe('ok');
    const old = await get('/old');
    expect(old.status).toBe(409);
    expect(old.headers.connection).toBe('Close');
    const reason = await get('/reason');
    expect(reason.status).toBe(200);
    expect(reason.headers['x-a']).toBe('b:c');
    for (const [path, message] of [
      ['/junk', /not an HTTP answer: HTTP\/2\.0 200 OK$/],
      ['/short', /not an HTTP answer/],
      ['/letters', /not an HTTP answer/],
      ['/nocolon', /malformed answer header/],
      ['/colonfirst', /malformed answer header/],
      ['/nolength', /content-length/],
      ['/badlength', /content-length/],
    ] as const) {
      const failure = await get(path).catch((error: FetchConnectionError) => error);
      expect(failure).toMatchObject({ code: 'EPROTO' });
      expect((failure as Error).message).toMatch(message);
    }
    connection.close();
  });

  it('refuses an answer larger than its bound and a peer that sends more than it announced', async () => {
    const base = await serve((request, response) => {
      if (request.url === '/more') {
        request.socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokEXTRA');
        return;
      }
      response.writeHead(200, { 'content-length': '5000' });
      response.end(bodyOf(5000));
    });
    const connection = new PeerFetchConnection(new AnswerBuffers(), 4096);
    const large = await connection.get(base, {}, 5_000).catch((failure: Error) => failure);
    expect((large as Error).message).toMatch(/more than 4096/);
    const more = await connection.get(new URL('/more', base), {}, 5_000).catch((failure: Error) => failure);
    expect(more).toMatchObject({ code: 'EPROTO' });
    connection.close();
  });
});

describe('AnswerBuffers', () => {
  it('hands out power-of-two buffers, keeps what is given back within its bounds, and refuses foreign ones', () => {
    const buffers = new AnswerBuffers(256 * 1024, 300 * 1024);
    const small = buffers.take(10);
    expect(small.length).toBe(64 * 1024);
    const large = buffers.take(200 * 1024);
    expect(large.length).toBe(256 * 1024);
    buffers.giveBack(large);
    buffers.giveBack(small); // over the total bound: dropped
    expect(buffers.keptBytes).toBe(256 * 1024);
    expect(buffers.take(129 * 1024)).toBe(large);
    const huge = buffers.take(1024 * 1024);
    buffers.giveBack(huge); // larger than a kept buffer may be
    expect(buffers.keptBytes).toBe(0);
    expect(() => buffers.giveBack(Buffer.alloc(100))).toThrow(/whole buffer/);
  });
});
