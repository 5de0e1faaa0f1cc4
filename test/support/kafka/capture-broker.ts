// A TCP server on loopback that records every request a Kafka client sends, decoded with Brook's codec, and
// answers with frames Brook's encoder writes, just enough for the client to go on to its next request (see
// capture-answers.ts). It is a test fixture, not a broker: one node, single-member group generations, no
// persistence. A request that does not decode is kept in `decodeErrors` (a test asserts there are none) and the
// connection is closed. Answers go out in request order on each connection, as a broker's must.
import { createServer, type Server, type Socket } from 'node:net';
import { decodeRequest, type KafkaRequest } from '../../../src/kafka/protocol/codec.js';
import type { KafkaDecodeError } from '../../../src/kafka/protocol/errors.js';
import { FrameSplitter } from '../../../src/kafka/protocol/frames.js';
import { answer, unsupportedApiVersions } from './capture-answers.js';
import { type Answer, CaptureState } from './capture-state.js';

const FRAME_BYTES_MAX = 100 * 1024 * 1024;

export interface CapturedRequest {
  readonly request: KafkaRequest;
  /** The request frame as received, size prefix included. */
  readonly frame: Buffer;
}

interface Slot {
  chunks: Buffer[] | null;
  ready: boolean;
}

export class CaptureBroker {
  readonly requests: CapturedRequest[] = [];
  readonly decodeErrors: KafkaDecodeError[] = [];
  /** Requests the capture broker could not answer (a test asserts there are none). */
  readonly answerErrors: Error[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private server: Server | undefined;
  state: CaptureState | undefined;

  get port(): number {
    const address = this.server?.address();
    if (address === null || address === undefined || typeof address === 'string') throw new Error('not listening');
    return address.port;
  }

  get bootstrap(): string {
    return `127.0.0.1:${this.port}`;
  }

  async start(topics: Record<string, number> = {}): Promise<void> {
    this.server = createServer((socket) => this.serve(socket));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.state = new CaptureState('127.0.0.1', this.port, topics);
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The captured requests of one API, in arrival order. */
  of<N extends KafkaRequest['apiName']>(apiName: N): Extract<KafkaRequest, { apiName: N }>[] {
    return this.requests
      .map((captured) => captured.request)
      .filter((request): request is Extract<KafkaRequest, { apiName: N }> => request.apiName === apiName);
  }

  /** The versions each API was sent with. */
  versionsUsed(): Record<string, number[]> {
    const versions: Record<string, Set<number>> = {};
    for (const { request } of this.requests) (versions[request.apiName] ??= new Set()).add(request.apiVersion);
    return Object.fromEntries(Object.entries(versions).map(([name, set]) => [name, [...set].sort((a, b) => a - b)]));
  }

  /** Polls (bounded) until `condition` holds. */
  async waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.versionsUsed())}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const splitter = new FrameSplitter(FRAME_BYTES_MAX);
    const queue: Slot[] = [];
    const flush = () => {
      while (queue.length > 0 && queue[0].ready) {
        const slot = queue.shift() as Slot;
        if (slot.chunks !== null && !socket.destroyed) for (const chunk of slot.chunks) socket.write(chunk);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      const split = splitter.push(chunk);
      if (!split.ok) {
        socket.destroy();
        return;
      }
      for (const frame of split.frames) this.receive(socket, frame, queue, flush);
    });
  }

  private receive(socket: Socket, frame: Buffer, queue: Slot[], flush: () => void): void {
    const decoded = decodeRequest(frame);
    const state = this.state as CaptureState;
    if (!decoded.ok) {
      const header = decoded.error.header;
      if (decoded.error.code === 'unsupported-version' && header?.apiKey === 18) {
        queue.push({ chunks: unsupportedApiVersions(header.correlationId), ready: true });
        flush();
        return;
      }
      this.decodeErrors.push(decoded.error);
      socket.destroy();
      return;
    }
    this.requests.push({ request: decoded.value, frame });
    const slot: Slot = { chunks: null, ready: false };
    queue.push(slot);
    const finish = (chunks: Buffer[] | null) => {
      slot.chunks = chunks;
      slot.ready = true;
      flush();
    };
    const fail = (error: unknown) => {
      this.answerErrors.push(error as Error);
      socket.destroy();
    };
    let result: Answer;
    try {
      result = answer(state, decoded.value);
    } catch (error) {
      fail(error);
      return;
    }
    if (result.kind !== 'wait') {
      finish(result.kind === 'frame' ? result.chunks : null);
      return;
    }
    // an empty fetch: held, then answered with what there is by then
    const { waitMs, then } = result;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      try {
        finish(then());
      } catch (error) {
        fail(error);
      }
    }, waitMs);
    this.timers.add(timer);
  }
}
