import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { sendRecordsFrame, sendTextFrame } from './ws-session.js';

let server: WebSocketServer | null = null;
afterEach(() => server?.close());

/** A server-side socket and a client whose every received message goes to `messages`. */
async function connectedPair(messages: string[]): Promise<{ serverSide: WebSocket; client: WebSocket }> {
  server = new WebSocketServer({ port: 0, perMessageDeflate: false });
  const accepted = new Promise<WebSocket>((resolve) => server!.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  client.on('message', (data: Buffer, isBinary) => {
    expect(isBinary).toBe(false);
    messages.push(data.toString('utf8'));
  });
  await new Promise((resolve) => client.once('open', resolve));
  return { serverSide: await accepted, client };
}

describe('sendRecordsFrame', () => {
  it('sends one text message of the three pieces, in one write to the TCP socket', async () => {
    const messages: string[] = [];
    const { serverSide, client } = await connectedPair(messages);
    const tcp = (serverSide as unknown as { _socket: { _writev: (...args: unknown[]) => void } })._socket;
    let writes = 0;
    const writev = tcp._writev.bind(tcp);
    tcp._writev = (...args: unknown[]) => {
      writes++;
      writev(...args);
    };
    const json = Buffer.from(`{"offset":0,"value":"${'x'.repeat(70_000)}"},{"offset":1,"value":"é"}`);
    const sent = new Promise<void>((resolve) =>
      sendRecordsFrame(serverSide, Buffer.from('{"op":"records","id":"s","records":['), json, resolve),
    );
    await sent;
    await expect.poll(() => messages.length).toBe(1);
    expect(messages[0]).toBe(`{"op":"records","id":"s","records":[${json.toString('utf8')}]}`);
    expect(JSON.parse(messages[0]).records).toHaveLength(2);
    expect(writes).toBe(1);
    client.close();
  });
});

/** The WebSocket frames in `wire` (a server's: unmasked): each one's FIN bit, opcode and payload. */
function framesIn(wire: Buffer): Array<{ fin: boolean; opcode: number; payload: string }> {
  const frames: Array<{ fin: boolean; opcode: number; payload: string }> = [];
  let at = 0;
  while (at < wire.length) {
    let length = wire[at + 1] & 0x7f;
    let headerBytes = 2;
    if (length === 126) {
      length = wire.readUInt16BE(at + 2);
      headerBytes = 4;
    } else if (length === 127) {
      length = Number(wire.readBigUInt64BE(at + 2));
      headerBytes = 10;
    }
    const start = at + headerBytes;
    frames.push({
      fin: (wire[at] & 0x80) !== 0,
      opcode: wire[at] & 0x0f,
      payload: wire.toString('utf8', start, start + length),
    });
    at = start + length;
  }
  return frames;
}

describe('sendRecordsFrame on the wire', () => {
  // the three payload length encodings of RFC 6455 5.2: 7 bits, 16 bits, 64 bits
  it.each([20, 1_000, 70_000])(
    'writes a records message of %i value bytes as one final text frame, not fragments',
    async (valueBytes) => {
      const messages: string[] = [];
      const { serverSide, client } = await connectedPair(messages);
      const tcp = (serverSide as unknown as { _socket: { write: (chunk: Buffer, ...rest: unknown[]) => boolean } })
        ._socket;
      const wire: Buffer[] = [];
      const write = tcp.write.bind(tcp);
      tcp.write = (chunk: Buffer, ...rest: unknown[]) => {
        wire.push(Buffer.from(chunk));
        return write(chunk, ...rest);
      };
      const prefix = Buffer.from('{"op":"records","id":1,"records":[');
      const json = Buffer.from(`{"offset":0,"value":"${'v'.repeat(valueBytes)}"}`);
      await new Promise<void>((resolve) => sendRecordsFrame(serverSide, prefix, json, resolve));
      serverSide.send('{"op":"after"}');
      await expect.poll(() => messages.length).toBe(2);
      const expected = `${prefix.toString()}${json.toString()}]}`;
      expect(messages).toEqual([expected, '{"op":"after"}']);
      expect(framesIn(Buffer.concat(wire))).toEqual([
        { fin: true, opcode: 1, payload: expected },
        { fin: true, opcode: 1, payload: '{"op":"after"}' },
      ]);
      client.close();
    },
  );
});

describe('sendRecordsFrame with an extension negotiated', () => {
  it('leaves the message to ws while ws is still compressing one of its own: all arrive whole, in order', async () => {
    server = new WebSocketServer({ port: 0, perMessageDeflate: { threshold: 0 } });
    const accepted = new Promise<WebSocket>((resolve) => server!.once('connection', resolve));
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, {
      perMessageDeflate: true,
    });
    const messages: string[] = [];
    client.on('message', (data: Buffer) => messages.push(data.toString('utf8')));
    await new Promise((resolve) => client.once('open', resolve));
    const serverSide = await accepted;
    expect(serverSide.extensions).toContain('permessage-deflate');
    const prefix = Buffer.from('{"op":"records","id":"s","records":[');
    const json = Buffer.from(`{"offset":0,"value":"${'z'.repeat(5_000)}"}`);
    serverSide.send('{"op":"before"}');
    await new Promise<void>((resolve) => sendRecordsFrame(serverSide, prefix, json, resolve));
    serverSide.send('{"op":"after"}');
    await expect.poll(() => messages.length).toBe(3);
    expect(messages).toEqual(['{"op":"before"}', `${prefix.toString()}${json.toString()}]}`, '{"op":"after"}']);
    client.close();
  });
});

describe('sendTextFrame', () => {
  it('sends a text given as its UTF-8 bytes as a text frame, as it sends a string', async () => {
    server = new WebSocketServer({ port: 0, perMessageDeflate: false });
    const accepted = new Promise<WebSocket>((resolve) => server!.once('connection', resolve));
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const received: Array<{ text: string; isBinary: boolean }> = [];
    client.on('message', (data: Buffer, isBinary) => received.push({ text: data.toString('utf8'), isBinary }));
    await new Promise((resolve) => client.once('open', resolve));
    const serverSide = await accepted;
    const ack = '{"op":"ack","id":"é","offsets":[{"partition":0,"offset":7}]}';
    await new Promise<void>((resolve) => sendTextFrame(serverSide, Buffer.from(ack, 'utf8'), resolve));
    await new Promise<void>((resolve) => sendTextFrame(serverSide, ack, resolve));
    await expect.poll(() => received.length).toBe(2);
    expect(received).toEqual([
      { text: ack, isBinary: false },
      { text: ack, isBinary: false },
    ]);
    client.close();
  });
});
