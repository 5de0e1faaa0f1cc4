// Hostile connections to a real broker (support/fuzz-broker.ts): oversized headers, a garbage request line, a body
// shorter than its Content-Length and a slow one get clear errors and no crash; past BROOK_CONNECTIONS_MAX open
// connections the broker answers 503 (50302) and serves again once they close.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { broker, cid, type Json, startFuzzBroker, stopFuzzBroker } from './support/fuzz-broker.js';

beforeAll(startFuzzBroker);
afterAll(stopFuzzBroker);

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
