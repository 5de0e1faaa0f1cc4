// The Kafka wire as the K benchmarks speak it (kafka-bench.ts): hand-written Produce v3 and Fetch v4 frames (the
// last versions without KIP-482's flexible encoding, which every Kafka broker since 0.11 serves), the few fields
// of their answers the load generator reads, and a connection that pipelines requests and matches answers to
// them in order (a Kafka broker answers a connection's requests in the order they were sent). Written here, not
// taken from src/kafka: the benchmark tools may not import the edges (npm run lint:deps).
//
// Layouts (Kafka protocol guide): request header v1 = api_key int16, api_version int16, correlation_id int32,
// client_id string; response header v0 = correlation_id int32. Produce v3 = transactional_id nullable string,
// acks int16, timeout_ms int32, [topic string, [partition int32, records bytes]]; its answer = [topic string,
// [partition int32, error_code int16, base_offset int64, log_append_time int64]], throttle_time_ms int32.
// Fetch v4 = replica_id int32, max_wait_ms int32, min_bytes int32, max_bytes int32, isolation_level int8,
// [topic string, [partition int32, fetch_offset int64, partition_max_bytes int32]]; its answer =
// throttle_time_ms int32, [topic string, [partition int32, error_code int16, high_watermark int64,
// last_stable_offset int64, aborted_transactions nullable [producer_id int64, first_offset int64], records bytes]].
import { connect, type Socket } from 'node:net';

const PRODUCE = 0;
const FETCH = 1;
const CLIENT_ID = 'brook-bench';
/** Where a request frame's correlation id sits: after the size, the API key and the version. */
export const CORRELATION_AT = 8;

class FrameWriter {
  private readonly parts: Buffer[] = [];

  int8(value: number): this {
    const b = Buffer.alloc(1);
    b.writeInt8(value);
    return this.push(b);
  }
  int16(value: number): this {
    const b = Buffer.alloc(2);
    b.writeInt16BE(value);
    return this.push(b);
  }
  int32(value: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32BE(value);
    return this.push(b);
  }
  int64(value: number): this {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(BigInt(value));
    return this.push(b);
  }
  string(value: string | null): this {
    if (value === null) return this.int16(-1);
    const bytes = Buffer.from(value, 'utf8');
    return this.int16(bytes.length).push(bytes);
  }
  bytes(value: Buffer): this {
    return this.int32(value.length).push(value);
  }
  push(b: Buffer): this {
    this.parts.push(b);
    return this;
  }
  /** The frame: its size, then everything written. */
  frame(): Buffer {
    const body = Buffer.concat(this.parts);
    const size = Buffer.alloc(4);
    size.writeInt32BE(body.length);
    return Buffer.concat([size, body]);
  }
}

const requestHeader = (apiKey: number, version: number) =>
  new FrameWriter().int16(apiKey).int16(version).int32(0).string(CLIENT_ID);

/** A Produce v3 frame (correlation id 0, to be set per request) of one record batch to one partition. */
export function produceFrame(topic: string, partition: number, batch: Buffer, acks: number): Buffer {
  return requestHeader(PRODUCE, 3)
    .string(null)
    .int16(acks)
    .int32(30_000)
    .int32(1)
    .string(topic)
    .int32(1)
    .int32(partition)
    .bytes(batch)
    .frame();
}

/** The answer a Produce v3 of one partition gets when it succeeds (correlation id 0). */
export function produceAnswerFrame(topic: string, partition: number): Buffer {
  return new FrameWriter()
    .int32(0)
    .int32(1)
    .string(topic)
    .int32(1)
    .int32(partition)
    .int16(0)
    .int64(0)
    .int64(-1)
    .int32(0)
    .frame();
}

/** The error code of the one partition of a Produce v3 answer. */
export function produceAnswerError(frame: Buffer): number {
  const nameLength = frame.readInt16BE(12);
  return frame.readInt16BE(14 + nameLength + 8);
}

/** A Fetch v4 frame of one partition from `offset`, answered at once (min_bytes 0), at most `maxBytes`. */
export function fetchFrame(topic: string, partition: number, offset: number, maxBytes: number): Buffer {
  return requestHeader(FETCH, 4)
    .int32(-1)
    .int32(0)
    .int32(0)
    .int32(maxBytes)
    .int8(0)
    .int32(1)
    .string(topic)
    .int32(1)
    .int32(partition)
    .int64(offset)
    .int32(maxBytes)
    .frame();
}

export interface FetchedRecords {
  errorCode: number;
  /** The record bytes of the answer (the stored batches). */
  bytes: number;
  records: number;
  /** The offset after the last complete batch, or null when the answer has none. */
  nextOffset: number | null;
}

/** Reads a Fetch v4 answer of one partition: its records' size, count and where the next fetch starts. */
export function readFetchAnswer(frame: Buffer): FetchedRecords {
  let at = 4 + 4 + 4 + 4; // size, correlation id, throttle time, topic count
  at += 2 + frame.readInt16BE(at) + 4 + 4; // topic name, partition count, partition
  const errorCode = frame.readInt16BE(at);
  at += 2 + 8 + 8;
  const aborted = frame.readInt32BE(at);
  at += 4 + Math.max(0, aborted) * 16;
  const length = frame.readInt32BE(at);
  at += 4;
  const end = at + Math.max(0, length);
  let records = 0;
  let nextOffset: number | null = null;
  while (at + 61 <= end) {
    const batchEnd = at + 12 + frame.readInt32BE(at + 8);
    if (batchEnd > end) break; // a partial batch at the end of the answer
    nextOffset = Number(frame.readBigInt64BE(at)) + frame.readInt32BE(at + 23) + 1;
    records += frame.readInt32BE(at + 57);
    at = batchEnd;
  }
  return { errorCode, bytes: Math.max(0, length), records, nextOffset };
}

/** A client connection: requests written at once (pipelined), answers handed back in the order sent. */
export class FrameConnection {
  private chunks: Buffer[] = [];
  private length = 0;
  private need = -1;
  private readonly waiting: Array<{ resolve: (frame: Buffer) => void; reject: (error: Error) => void }> = [];
  private nextCorrelationId = 1;
  private failure: Error | null = null;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.received(chunk));
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const waiter of this.waiting.splice(0)) waiter.reject(this.failure);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed')));
  }

  static open(port: number): Promise<FrameConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new FrameConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends `frame` (shared, never modified: its correlation id goes out in a header of its own) and waits for its answer. */
  request(frame: Buffer): Promise<Buffer> {
    if (this.failure !== null) return Promise.reject(this.failure);
    const head = Buffer.from(frame.subarray(0, CORRELATION_AT + 4));
    head.writeInt32BE(this.nextCorrelationId++, CORRELATION_AT);
    this.socket.cork();
    this.socket.write(head);
    this.socket.write(frame.subarray(CORRELATION_AT + 4));
    this.socket.uncork();
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  close(): void {
    this.socket.destroy();
  }

  private received(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    for (;;) {
      if (this.need < 0) {
        if (this.length < 4) return;
        if (this.chunks[0].length < 4) this.chunks = [Buffer.concat(this.chunks)];
        this.need = 4 + this.chunks[0].readInt32BE(0);
      }
      if (this.length < this.need) return;
      const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.length);
      const frame = all.subarray(0, this.need);
      const rest = all.subarray(this.need);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.length = rest.length;
      this.need = -1;
      this.waiting.shift()?.resolve(frame);
    }
  }
}

/**
 * The frame splitter of the baseline servers, as source text for `node -e` (the same algorithm as
 * FrameConnection's: chunks kept until a frame is whole, then joined once).
 */
export const SPLITTER_SOURCE = `
function splitter(onFrame) {
  let chunks = [], length = 0, need = -1;
  return (chunk) => {
    chunks.push(chunk); length += chunk.length;
    for (;;) {
      if (need < 0) {
        if (length < 4) return;
        if (chunks[0].length < 4) chunks = [Buffer.concat(chunks)];
        need = 4 + chunks[0].readInt32BE(0);
      }
      if (length < need) return;
      const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length);
      const frame = all.subarray(0, need);
      const rest = all.subarray(need);
      chunks = rest.length > 0 ? [rest] : []; length = rest.length; need = -1;
      onFrame(frame);
    }
  };
}
`;
