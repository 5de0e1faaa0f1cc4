// A bare Kafka connection for end-to-end tests: sends requests encoded with Brook's codec (or raw bytes) to a
// broker's Kafka listener and reads answers frame by frame, so tests can check exact answers, their order, and
// what the broker does with bad input (an answer or a closed connection).
import { connect, type Socket } from 'node:net';
import type { ApiName, RequestInput, ResponseBody } from '../../../src/kafka/protocol/apis.js';
import { decodeResponse, encodeRequest } from '../../../src/kafka/protocol/codec.js';

const ANSWER_TIMEOUT_MS = 20_000;

export class KafkaWire {
  private buffered = Buffer.alloc(0);
  private readonly frames: Buffer[] = [];
  private waiters: Array<() => void> = [];
  private nextCorrelationId = 1;
  closed = false;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      while (this.buffered.length >= 4 && this.buffered.length >= 4 + this.buffered.readInt32BE(0)) {
        const size = 4 + this.buffered.readInt32BE(0);
        this.frames.push(this.buffered.subarray(0, size));
        this.buffered = this.buffered.subarray(size);
      }
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static open(port: number, host = '127.0.0.1'): Promise<KafkaWire> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, host, () => resolve(new KafkaWire(socket)));
      socket.once('error', reject);
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Sends one request; answers its correlation id. */
  send<N extends ApiName>(api: N, version: number, body: RequestInput<N>, clientId: string | null = 'e2e'): number {
    const correlationId = this.nextCorrelationId++;
    this.socket.write(Buffer.concat(encodeRequest(api, version, correlationId, clientId, body)));
    return correlationId;
  }

  writeRaw(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** The next answer frame, or null once the broker has closed the connection with nothing more to read. */
  async nextFrame(timeoutMs = ANSWER_TIMEOUT_MS): Promise<Buffer | null> {
    const deadline = Date.now() + timeoutMs;
    while (this.frames.length === 0) {
      if (this.closed) return null;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no answer within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.frames.shift()!;
  }

  /** The next answer, decoded as `api` at `version`; fails on a closed connection or an answer that does not decode. */
  async answer<N extends ApiName>(api: N, version: number): Promise<{ correlationId: number; body: ResponseBody<N> }> {
    const frame = await this.nextFrame();
    if (frame === null) throw new Error(`the broker closed the connection instead of answering ${api}`);
    const decoded = decodeResponse(api, version, frame);
    if (!decoded.ok) throw new Error(`${api} v${version} answer does not decode: ${decoded.error.message}`);
    return decoded.value;
  }

  /** Sends one request and decodes its answer. */
  async call<N extends ApiName>(api: N, version: number, body: RequestInput<N>): Promise<ResponseBody<N>> {
    const correlationId = this.send(api, version, body);
    const answer = await this.answer(api, version);
    if (answer.correlationId !== correlationId) {
      throw new Error(`answer for correlation id ${answer.correlationId}, expected ${correlationId}`);
    }
    return answer.body;
  }

  /** Resolves true once the broker has closed the connection (reading whatever it sent before). */
  async closedByBroker(timeoutMs = ANSWER_TIMEOUT_MS): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) return false;
      await this.nextFrame(Math.max(1, deadline - Date.now())).catch(() => null);
    }
    return true;
  }

  close(): void {
    this.socket.destroy();
  }
}
