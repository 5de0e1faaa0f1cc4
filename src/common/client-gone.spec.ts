import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { clientGone, type WaitSignal } from './client-gone.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A server whose one route hands its response and that response's clientGone to `onRequest`. */
async function serve(onRequest: (response: ServerResponse, gone: WaitSignal) => void): Promise<number> {
  server = createServer((_req, res) => onRequest(res, clientGone(res)));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

/** Sends a GET; the caller ends the exchange. */
function get(port: number) {
  const req = request({ host: '127.0.0.1', port, path: '/', agent: false });
  req.on('error', () => undefined);
  req.end();
  return req;
}

describe('clientGone', () => {
  it('aborts once when the client disconnects before the answer, calling its listener', async () => {
    let calls = 0;
    let seen: WaitSignal | undefined;
    let woken: Promise<void> | undefined;
    let arrived!: () => void;
    const parked = new Promise<void>((resolve) => (arrived = resolve));
    const port = await serve((_res, gone) => {
      seen = gone;
      woken = new Promise<void>((resolve) =>
        gone.addEventListener(
          'abort',
          () => {
            calls++;
            resolve();
          },
          { once: true },
        ),
      );
      arrived();
    });
    const req = get(port);
    await parked;
    expect(seen!.aborted).toBe(false);
    req.destroy();
    await woken;
    expect(seen!.aborted).toBe(true);
    expect(calls).toBe(1);
    // a listener added after the abort is not called (the abort event came once)
    seen!.addEventListener('abort', () => calls++);
    expect(calls).toBe(1);
  });

  it('does not abort when the connection closes after the answer was sent', async () => {
    let gone: WaitSignal | undefined;
    let calls = 0;
    let closedNow!: () => void;
    const closed = new Promise<void>((resolve) => (closedNow = resolve));
    const port = await serve((res, signal) => {
      gone = signal;
      signal.addEventListener('abort', () => calls++);
      res.once('close', () => setImmediate(closedNow));
      res.end('ok');
    });
    const req = get(port);
    req.on('response', (answer) => {
      answer.resume();
      answer.on('end', () => req.destroy());
    });
    await closed;
    expect(gone!.aborted).toBe(false);
    expect(calls).toBe(0);
  });

  it('does not call a listener removed before the client disconnects', async () => {
    let gone: WaitSignal | undefined;
    const calls: string[] = [];
    let aborted!: () => void;
    const kept = new Promise<void>((resolve) => (aborted = resolve));
    let arrived!: () => void;
    const listening = new Promise<void>((resolve) => (arrived = resolve));
    const port = await serve((_res, signal) => {
      gone = signal;
      const removed = () => calls.push('removed');
      signal.addEventListener('abort', removed);
      signal.addEventListener('abort', () => {
        calls.push('kept');
        aborted();
      });
      signal.removeEventListener('abort', removed);
      arrived();
    });
    const req = get(port);
    await listening;
    req.destroy();
    await kept;
    expect(gone!.aborted).toBe(true);
    expect(calls).toEqual(['kept']);
  });
});
