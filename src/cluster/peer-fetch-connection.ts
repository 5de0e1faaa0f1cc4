// One follower fetch loop's own kept-alive HTTP/1.1 connection to its leader (plain HTTP; peer-client.ts, getBinary,
// uses it for the replica fetch of replica-fetch-protocol.ts). One GET at a time: the request is one write, the
// answer is read with net's `onread`. Its head is read into one read buffer shared by every connection (bytes are
// copied out in the read callback, before the next read); its body, which must come with a content-length (a Brook
// leader's replica-fetch answers and its errors do), goes into a buffer from AnswerBuffers that the caller gives
// back (release) once nothing reads it any more: what came in the head's read is copied there, the rest is read
// straight into it (reads as large as the socket holds, not 64 KiB ones copied again). So a fetch allocates no
// socket chunks, no stream or message objects and no body buffer of its own, as node:http's client does.
//
// The connection is kept after a complete answer (unless the answer says `connection: close`) and made again on the
// next request after any failure. A request sent on a kept connection that closes before any byte of the answer
// (the peer closed it as idle) is sent once more on a new one: a GET, and the replica fetch may be repeated.
// Bounded in time (the request's timeout, or its signal) and in size: a head up to ANSWER_HEAD_BYTES_MAX, a body
// up to `bodyBytesMax`.
import { connect, type Socket } from 'node:net';
import type { AnswerBuffers } from './answer-buffers.js';

/** Bytes of an answer's status line and headers. */
export const ANSWER_HEAD_BYTES_MAX = 16 * 1024;
/** The read buffer every connection shares (one read callback runs at a time, on the main thread). */
const READ_BUFFER = Buffer.allocUnsafeSlow(64 * 1024);
const EMPTY = Buffer.alloc(0);
/** The blank line that ends an answer's head. */
const HEAD_END = '\r\n\r\n';

export interface FetchedAnswer {
  status: number;
  /** By lower-case name (a repeated header keeps its last value: no Brook leader repeats one). */
  headers: Record<string, string>;
  body: Buffer;
  /** `body` is no longer read: its memory may be reused. */
  release(): void;
}

/** A fetch that failed without an answer; `requestMayHaveArrived` is false when no connection was made. */
export class FetchConnectionError extends Error {
  constructor(
    message: string,
    readonly requestMayHaveArrived: boolean,
    readonly code?: string,
  ) {
    super(message);
  }
}

interface Pending {
  resolve(answer: FetchedAnswer): void;
  reject(error: Error): void;
  head: string;
  status: number;
  headers: Record<string, string>;
  /** -1 until the head is read. */
  contentLength: number;
  body: Buffer;
  bodyAt: number;
  closeAfter: boolean;
  answerStarted: boolean;
}

export class PeerFetchConnection {
  private socket: Socket | null = null;
  private origin = '';
  private connected = false;
  /** Whether the current socket answered a request before (a failure on it may be the peer closing it as idle). */
  private reused = false;
  private pending: Pending | null = null;

  constructor(
    private readonly buffers: AnswerBuffers,
    readonly bodyBytesMax: number,
  ) {}

  /** GET `url` (plain HTTP) with `headers`; resolves with the answer, whatever its status. */
  get(url: URL, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal): Promise<FetchedAnswer> {
    return this.getTarget(url, `${url.pathname}${url.search}`, headers, timeoutMs, signal);
  }

  /**
   * GET `target` (a request target, path and query, already in URL form: its bytes go out as they are) of `origin`'s
   * host and port: what get does for a URL, without parsing one (a follower's fetch loop makes one every few ms).
   */
  async getTarget(
    origin: URL,
    target: string,
    headers: Record<string, string>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<FetchedAnswer> {
    if (this.pending !== null) throw new Error('one request at a time on a fetch connection');
    try {
      return await this.attempt(origin, target, headers, timeoutMs, signal);
    } catch (error) {
      const again = error instanceof FetchConnectionError && error.code === 'CLOSED_IDLE' && signal?.aborted !== true;
      if (!again) throw error;
      return this.attempt(origin, target, headers, timeoutMs, signal);
    }
  }

  /** Closes the connection; a request in flight fails. */
  close(): void {
    this.drop(new FetchConnectionError('the fetch connection was closed', true));
  }

  private attempt(
    url: URL,
    target: string,
    headers: Record<string, string>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<FetchedAnswer> {
    if (signal?.aborted === true) return Promise.reject(new FetchConnectionError('aborted', false, 'ABORT_ERR'));
    const socket = this.socketFor(url);
    let text = `GET ${target} HTTP/1.1\r\nhost: ${url.host}\r\n`;
    for (const name in headers) text += `${name}: ${headers[name]}\r\n`;
    return new Promise<FetchedAnswer>((resolve, reject) => {
      const onAbort = () => this.drop(new FetchConnectionError('aborted', true, 'ABORT_ERR'));
      const timer = setTimeout(
        () => this.drop(new FetchConnectionError(`no answer within ${timeoutMs} ms`, true, 'ETIMEDOUT')),
        timeoutMs,
      );
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending = {
        resolve: (answer) => {
          settle();
          resolve(answer);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
        head: '',
        status: 0,
        headers: {},
        contentLength: -1,
        body: EMPTY,
        bodyAt: 0,
        closeAfter: false,
        answerStarted: false,
      };
      socket.write(`${text}\r\n`, 'latin1');
    });
  }

  /** The kept socket when it goes to `url`'s host and port; else a new one. */
  private socketFor(url: URL): Socket {
    if (this.socket !== null && this.origin === url.host && !this.socket.destroyed) return this.socket;
    this.drop(null);
    const socket: Socket = connect({
      host: url.hostname,
      port: Number(url.port === '' ? 80 : url.port),
      noDelay: true,
      onread: {
        buffer: () => this.readTarget(),
        callback: (bytes: number, into: Buffer): boolean => this.onRead(socket, bytes, into),
      },
    });
    this.socket = socket;
    this.origin = url.host;
    this.connected = false;
    this.reused = false;
    socket.once('connect', () => {
      if (this.socket === socket) this.connected = true;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => this.onClosed(socket, error));
    socket.once('close', () => this.onClosed(socket, null));
    return socket;
  }

  private onClosed(socket: Socket, error: NodeJS.ErrnoException | null): void {
    if (this.socket !== socket) return;
    const pending = this.pending;
    const idle = this.reused && pending !== null && !pending.answerStarted;
    const reason = error?.message ?? 'the connection closed before the end of the answer';
    this.drop(new FetchConnectionError(reason, this.connected, idle ? 'CLOSED_IDLE' : (error?.code ?? 'ECONNRESET')));
  }

  /** Ends the socket and fails the request in flight with `error` (its body buffer is given back). */
  private drop(error: FetchConnectionError | null): void {
    const socket = this.socket;
    this.socket = null;
    socket?.destroy();
    const pending = this.pending;
    this.pending = null;
    if (pending === null) return;
    if (pending.body !== EMPTY) this.buffers.giveBack(pending.body);
    pending.reject(error ?? new FetchConnectionError('the fetch connection was replaced', true));
  }

  /**
   * Where the next read lands (net calls this after each read): the rest of the body being read, straight into its
   * buffer, no further than its content-length; else READ_BUFFER (a head, or bytes nobody asked for).
   */
  private readTarget(): Buffer {
    const pending = this.pending;
    if (pending === null || pending.contentLength <= 0 || pending.bodyAt === pending.contentLength) return READ_BUFFER;
    return pending.body.subarray(pending.bodyAt, pending.contentLength);
  }

  /** `bytes` arrived in `into`: READ_BUFFER (copied out before this returns), or the body's rest (readTarget). */
  private onRead(socket: Socket, bytes: number, into: Buffer): boolean {
    if (this.socket !== socket) return false;
    const pending = this.pending;
    if (pending === null) {
      this.drop(null); // bytes nobody asked for: the connection is out of step
      return false;
    }
    pending.answerStarted = true;
    if (into !== READ_BUFFER) {
      pending.bodyAt += bytes;
      if (pending.bodyAt === pending.contentLength) this.complete(pending);
      return true;
    }
    let at = 0;
    if (pending.contentLength < 0) {
      at = this.readHead(pending, bytes);
      if (at < 0) return false;
      if (pending.contentLength < 0) return true; // the head goes on in the next read
    }
    const copied = Math.min(bytes - at, pending.contentLength - pending.bodyAt);
    READ_BUFFER.copy(pending.body, pending.bodyAt, at, at + copied);
    pending.bodyAt += copied;
    if (at + copied < bytes) {
      this.drop(new FetchConnectionError('more bytes than the answer announced', true, 'EPROTO'));
      return false;
    }
    if (pending.bodyAt === pending.contentLength) this.complete(pending);
    return true;
  }

  /**
   * Reads the head from READ_BUFFER[0, bytes); returns where the body starts, or -1 after failing the request. Only
   * the head's bytes become text: the end of the head is looked for in the bytes (W1c's follower fetches came with
   * up to 16 KiB of body in the head's read, turned into a string and dropped: a quarter of a follower's allocation).
   */
  private readHead(pending: Pending, bytes: number): number {
    const before = pending.head.length;
    const room = ANSWER_HEAD_BYTES_MAX - before;
    const scanned = Math.min(bytes, room);
    const bodyAt = headEndIn(pending.head, scanned);
    if (bodyAt < 0) {
      pending.head += READ_BUFFER.toString('latin1', 0, scanned);
      if (bytes < room) return bytes;
      this.drop(new FetchConnectionError('an answer head larger than it may be', true, 'EPROTO'));
      return -1;
    }
    pending.head += READ_BUFFER.toString('latin1', 0, bodyAt);
    const failure = parseHead(pending, pending.head.slice(0, -HEAD_END.length), this.bodyBytesMax);
    if (failure !== null) {
      this.drop(new FetchConnectionError(failure, true, 'EPROTO'));
      return -1;
    }
    pending.body = pending.contentLength === 0 ? EMPTY : this.buffers.take(pending.contentLength);
    return bodyAt;
  }

  private complete(pending: Pending): void {
    this.pending = null;
    this.reused = true;
    if (pending.closeAfter) this.drop(null);
    const whole = pending.body;
    let released = false;
    pending.resolve({
      status: pending.status,
      headers: pending.headers,
      body: whole.subarray(0, pending.contentLength),
      release: () => {
        if (released || whole === EMPTY) return;
        released = true;
        this.buffers.giveBack(whole);
      },
    });
  }
}

/**
 * Where the body starts in READ_BUFFER[0, scanned) when the head ends there (its blank line may begin in `head`,
 * the head read so far, whose own text holds no blank line); else -1.
 */
function headEndIn(head: string, scanned: number): number {
  if (head.length > 0) {
    // the blank line may have begun in the previous read: at most its last 3 characters, then this read's first ones
    const tail = head.slice(-(HEAD_END.length - 1));
    const joined = tail + READ_BUFFER.toString('latin1', 0, Math.min(scanned, HEAD_END.length - 1));
    const at = joined.indexOf(HEAD_END);
    if (at >= 0) return at + HEAD_END.length - tail.length;
  }
  const at = READ_BUFFER.subarray(0, scanned).indexOf(HEAD_END, 0, 'latin1');
  return at < 0 ? -1 : at + HEAD_END.length;
}

/** Fills the status, headers, content length and connection of `pending` from `head`; an error text, or null. */
function parseHead(pending: Pending, head: string, bodyBytesMax: number): string | null {
  // line by line with indexOf (no split, no regular expression): a follower parses one head a fetch
  let lineEnd = head.indexOf('\r\n');
  if (lineEnd < 0) lineEnd = head.length;
  const status = statusOf(head, lineEnd);
  if (status < 0) return `not an HTTP answer: ${head.slice(0, Math.min(lineEnd, 80))}`;
  pending.status = status;
  while (lineEnd < head.length) {
    const lineStart = lineEnd + 2;
    lineEnd = head.indexOf('\r\n', lineStart);
    if (lineEnd < 0) lineEnd = head.length;
    const colon = head.indexOf(':', lineStart);
    if (colon <= lineStart || colon >= lineEnd) return 'a malformed answer header';
    pending.headers[head.slice(lineStart, colon).trim().toLowerCase()] = head.slice(colon + 1, lineEnd).trim();
  }
  const { headers } = pending;
  if (headers['transfer-encoding'] !== undefined)
    return 'an answer with a transfer-encoding (a content-length is needed)';
  const length = Number(headers['content-length']);
  if (headers['content-length'] === undefined || !Number.isSafeInteger(length) || length < 0) {
    return 'an answer without a valid content-length';
  }
  if (length > bodyBytesMax) return `an answer of ${length} bytes, more than ${bodyBytesMax}`;
  pending.contentLength = length;
  pending.closeAfter = headers.connection?.toLowerCase() === 'close';
  return null;
}

const STATUS_LINE_START = 'HTTP/1.';
const DIGIT_0 = 48;

/** The status of a status line `HTTP/1.0 ddd` or `HTTP/1.1 ddd` (anything may follow) in head[0, end); else -1. */
function statusOf(head: string, end: number): number {
  if (end < 12 || !head.startsWith(STATUS_LINE_START)) return -1;
  const minor = head.charCodeAt(7);
  if ((minor !== DIGIT_0 && minor !== DIGIT_0 + 1) || head.charCodeAt(8) !== 32) return -1;
  let status = 0;
  for (let at = 9; at < 12; at++) {
    const digit = head.charCodeAt(at) - DIGIT_0;
    if (digit < 0 || digit > 9) return -1;
    status = status * 10 + digit;
  }
  return status;
}
