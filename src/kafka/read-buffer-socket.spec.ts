import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { takeWithReadBuffer } from './read-buffer-socket.js';

interface Taken {
  readonly socket: Socket;
  /** What each read delivered, copied, and whether it was a view of the read buffer. */
  readonly reads: Buffer[];
  readonly inReadBuffer: boolean[];
}

const servers: Server[] = [];

/** A server whose accepted sockets are taken into sockets reading into one shared buffer. */
async function serve(maxConnections = 0): Promise<{ port: number; server: Server; taken: Taken[] }> {
  const readBuffer = Buffer.alloc(64 * 1024);
  const taken: Taken[] = [];
  const server = createServer({ pauseOnConnect: true }, (accepted) => {
    const reads: Buffer[] = [];
    const inReadBuffer: boolean[] = [];
    const socket = takeWithReadBuffer(
      accepted,
      () => readBuffer,
      (bytes) => {
        reads.push(Buffer.from(bytes));
        inReadBuffer.push(bytes.buffer === readBuffer.buffer);
      },
    );
    if (socket === null) throw new Error('the accepted socket had no handle');
    socket.on('error', () => {});
    taken.push({ socket, reads, inReadBuffer });
  });
  if (maxConnections > 0) server.maxConnections = maxConnections;
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, server, taken };
}

async function client(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  return socket;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.close();
  }
});

describe('takeWithReadBuffer', () => {
  it('hands every read over as a view of the one read buffer, in order, and writes go out on the same connection', async () => {
    const { port, taken } = await serve();
    const socket = await client(port);
    const sent = Buffer.alloc(300_000);
    for (let at = 0; at < sent.length; at++) sent[at] = at % 253;
    socket.write(sent);
    const readBytes = () => taken[0].reads.reduce((bytes, read) => bytes + read.length, 0);
    await until(() => taken.length === 1 && readBytes() === sent.length);
    expect(Buffer.concat(taken[0].reads).equals(sent)).toBe(true); // (toEqual walks 300 KB element by element)
    expect(taken[0].inReadBuffer.every((inBuffer) => inBuffer)).toBe(true);
    const answer = once(socket, 'data');
    taken[0].socket.write('answer');
    expect(String((await answer)[0])).toBe('answer');
    socket.destroy();
  });

  it('reads each time into the buffer the target function returned last, at most its length', async () => {
    const targets: Buffer[] = [];
    const reads: Buffer[] = [];
    let readsInLastTarget = 0;
    const server = createServer({ pauseOnConnect: true }, (accepted) => {
      const socket = takeWithReadBuffer(
        accepted,
        () => {
          targets.push(Buffer.alloc(targets.length % 2 === 0 ? 7 : 50_000)); // alternately short and long reads
          return targets[targets.length - 1];
        },
        (bytes) => {
          if (bytes.buffer === targets[targets.length - 1].buffer && bytes.byteOffset === 0) readsInLastTarget++;
          reads.push(Buffer.from(bytes));
        },
      );
      socket?.on('error', () => {});
    });
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const socket = await client((server.address() as AddressInfo).port);
    const sent = Buffer.alloc(300_000);
    for (let at = 0; at < sent.length; at++) sent[at] = at % 249;
    socket.write(sent);
    await until(() => reads.reduce((bytes, read) => bytes + read.length, 0) === sent.length);
    expect(Buffer.concat(reads).equals(sent)).toBe(true);
    expect(readsInLastTarget).toBe(reads.length);
    expect(reads.filter((read) => read.length <= 7).length).toBeGreaterThanOrEqual(Math.floor(reads.length / 2));
    socket.destroy();
  });

  it('closes when the client ends, and the server counts the connection until then (server.close waits for it)', async () => {
    const { port, server, taken } = await serve();
    const socket = await client(port);
    await until(() => taken.length === 1);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    let serverClosed = false;
    void closed.then(() => (serverClosed = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(serverClosed).toBe(false); // one connection still open
    socket.end();
    await once(taken[0].socket, 'close');
    await closed;
    expect(serverClosed).toBe(true);
  });

  it('keeps the server’s maxConnections: a connection past it is closed at once', async () => {
    const { port, taken } = await serve(1);
    const first = await client(port);
    await until(() => taken.length === 1);
    const second = await client(port);
    await once(second, 'close');
    expect(taken).toHaveLength(1);
    first.destroy();
    await once(taken[0].socket, 'close');
    const third = await client(port);
    await until(() => taken.length === 2);
    third.destroy();
  });

  it('delivers nothing while paused, and what was sent meanwhile once resumed', async () => {
    const { port, taken } = await serve();
    const socket = await client(port);
    await until(() => taken.length === 1);
    taken[0].socket.pause();
    socket.write('while paused');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(taken[0].reads).toHaveLength(0);
    taken[0].socket.resume();
    await until(() => taken[0].reads.length > 0);
    expect(String(Buffer.concat(taken[0].reads))).toBe('while paused');
    socket.destroy();
  });

  it('ends with an error and a close when the client resets the connection', async () => {
    const { port, taken } = await serve();
    const socket = await client(port);
    await until(() => taken.length === 1);
    const errored = once(taken[0].socket, 'error');
    const closed = new Promise((resolve) => taken[0].socket.once('close', resolve)); // once() rejects on the error
    socket.resetAndDestroy();
    expect((await errored)[0]).toMatchObject({ code: 'ECONNRESET' });
    await closed;
  });
});
