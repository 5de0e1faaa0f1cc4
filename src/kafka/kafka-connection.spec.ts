import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { encodeBatch } from '../partition-log/record-batch-builder.js';
import { decodeResponse, encodeRequest } from './protocol/codec.js';
import { type ConnectionInput, KafkaConnection } from './kafka-connection.js';
import type { KafkaServices } from './kafka-services.js';
import { KafkaSession } from './kafka-session.js';

/** The socket calls a connection makes, recorded; `writes` holds each socket.write's bytes. */
class FakeSocket extends EventEmitter {
  readonly writes: Buffer[] = [];
  corks = 0;
  destroyed = false;
  writableNeedDrain = false;
  write(data: Buffer): boolean {
    this.writes.push(Buffer.from(data));
    return true;
  }
  cork(): void {
    this.corks++;
  }
  uncork(): void {}
  setNoDelay(): void {}
  setTimeout(): void {}
  pause(): void {}
  resume(): void {}
  destroy(): void {
    this.destroyed = true;
  }
  destroySoon(): void {
    this.destroyed = true;
  }
}

/** Services enough for Produce: every append waits until the test settles it. */
function produceServices() {
  const appends: Array<(offset: number) => void> = [];
  const batches: Buffer[] = [];
  const services = {
    clock: { monotonicMs: () => 0, setTimer: () => () => {} },
    quotas: { charge: () => {}, waitMs: () => 0 },
    authorizer: { authorize: () => true },
    produce: {
      appendClientBatch: (_topic: unknown, _partition: unknown, batch: Buffer) => {
        batches.push(Buffer.from(batch));
        return new Promise((resolve) =>
          appends.push((offset) => resolve({ firstOffset: offset, logAppendTimeMs: -1 })),
        );
      },
    },
    replicas: { leaderLog: () => ({ log: { logStartOffset: 0 } }) },
  } as unknown as KafkaServices;
  return { services, appends, batches };
}

function produceFrame(correlationId: number, recordCount = 1): Buffer {
  const value = Buffer.alloc(100, correlationId);
  const records = encodeBatch(Array.from({ length: recordCount }, () => ({ key: null, value, timestamp: 0 })));
  const body = {
    transactionalId: null,
    acks: 1,
    timeoutMs: 30_000,
    topicData: [{ name: 't', partitionData: [{ index: 0, records }] }],
  };
  return Buffer.concat(encodeRequest('Produce', 3, correlationId, 'spec', body as never));
}

/** The correlation ids of the answer frames in `bytes`, in order. */
function answeredIds(bytes: Buffer): number[] {
  const ids: number[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = bytes.readInt32BE(at);
    const decoded = decodeResponse('Produce', 3, bytes.subarray(at, at + 4 + size));
    if (!decoded.ok) throw new Error(decoded.error.message);
    ids.push(decoded.value.correlationId);
    at += 4 + size;
  }
  return ids;
}

function openConnection(
  services: KafkaServices,
  input: ConnectionInput = 'data-events',
  requestBytesMax = 1024 * 1024,
) {
  const socket = new FakeSocket();
  const connection = new KafkaConnection(
    socket as unknown as Socket,
    new KafkaSession('127.0.0.1', 'User:ANONYMOUS', false),
    services,
    { requestBytesMax, inFlightRequestsMax: 5, idleMs: 60_000 },
    input,
  );
  connection.start(() => {});
  return { socket, connection };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KafkaConnection answer writes', () => {
  it('writes the answers released in one tick with one socket write, in arrival order, whatever order they finished in', async () => {
    const { services, appends } = produceServices();
    const { socket } = openConnection(services);
    socket.emit('data', Buffer.concat([produceFrame(11), produceFrame(12), produceFrame(13), produceFrame(14)]));
    expect(appends).toHaveLength(4);
    appends[2](2);
    appends[1](1);
    await tick();
    expect(socket.writes).toHaveLength(0); // the first request is not answered yet: nothing may go out
    appends[0](0);
    await tick();
    expect(socket.writes).toHaveLength(1);
    expect(answeredIds(socket.writes[0])).toEqual([11, 12, 13]);
    appends[3](3);
    await tick();
    expect(socket.writes.map(answeredIds)).toEqual([[11, 12, 13], [14]]);
    expect(socket.corks).toBe(0);
  });
});

describe('KafkaConnection fed from a reused read buffer', () => {
  /** Hands `stream` to the connection in reads cut at `cuts`, through one buffer overwritten after every read. */
  function feed(connection: KafkaConnection, stream: Buffer, cuts: number[]): void {
    const readBuffer = Buffer.alloc(stream.length);
    let start = 0;
    for (const end of [...cuts, stream.length]) {
      stream.copy(readBuffer, 0, start, end);
      connection.receive(readBuffer.subarray(0, end - start));
      readBuffer.fill(0xee);
      start = end;
    }
  }

  it('serves pipelined requests cut at every point of the stream, answered in order', async () => {
    const stream = Buffer.concat([produceFrame(21), produceFrame(22), produceFrame(23)]);
    for (let cut = 1; cut < stream.length; cut++) {
      const { services, appends } = produceServices();
      const { socket, connection } = openConnection(services, 'receive-calls');
      feed(connection, stream, [cut]);
      expect(appends).toHaveLength(3);
      appends.forEach((settle, offset) => settle(offset));
      await tick();
      expect(socket.destroyed).toBe(false);
      expect(answeredIds(Buffer.concat(socket.writes))).toEqual([21, 22, 23]);
    }
  });

  it('holds a request cut off mid-frame without starting it, and closes on a frame over the request-size bound', () => {
    const frame = produceFrame(31);
    const { services, appends } = produceServices();
    const { socket, connection } = openConnection(services, 'receive-calls');
    feed(connection, frame.subarray(0, frame.length - 1), [2, 10]);
    expect(appends).toHaveLength(0);
    expect(socket.destroyed).toBe(false);

    const limited = openConnection(produceServices().services, 'receive-calls', 1024);
    const oversized = Buffer.alloc(8);
    oversized.writeInt32BE(1025, 0);
    feed(limited.connection, oversized, [3]);
    expect(limited.socket.destroyed).toBe(true);
  });

  it('serves large requests read where the connection says, the rest of each frame in its own memory', async () => {
    const frames = [produceFrame(41, 1_000), produceFrame(42, 1_000), produceFrame(43, 1_000)];
    const stream = Buffer.concat(frames);
    const { services, appends, batches } = produceServices();
    const { socket, connection } = openConnection(services, 'receive-calls');
    const readBuffer = Buffer.alloc(64 * 1024);
    let inPlaceBytes = 0;
    for (let consumed = 0; consumed < stream.length;) {
      const target = connection.readTarget(readBuffer);
      const read = Math.min(target.length, stream.length - consumed);
      stream.copy(target, 0, consumed, consumed + read);
      connection.receive(target.subarray(0, read));
      if (target.buffer === readBuffer.buffer) readBuffer.fill(0xee);
      else inPlaceBytes += read;
      consumed += read;
    }
    expect(inPlaceBytes).toBeGreaterThan(stream.length / 2);
    expect(
      batches.map((batch, index) => batch.equals(frames[index].subarray(frames[index].length - batch.length))),
    ).toEqual([true, true, true]); // a Produce v3 frame ends with its one partition's records
    appends.forEach((settle, offset) => settle(offset));
    await tick();
    expect(answeredIds(Buffer.concat(socket.writes))).toEqual([41, 42, 43]);
  });
});
