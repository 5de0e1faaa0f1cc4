// One request to a peer broker over node:http or node:https with a keep-alive agent (peer-client.ts: the control
// calls, forwarded requests, and the follower fetch when it has no connection of its own), its answer collected
// into one Buffer. Not global fetch: undici parses answers with llhttp compiled to WebAssembly, which V8 recompiles
// with TurboFan on a background thread once it is hot, and that compile leaves 20-30 MiB resident in a glibc arena
// of the broker (measured under W1c, issue 23).
//
// Bounded in time (the request is destroyed after `timeoutMs`, or when `signal` aborts) and in size (an answer that
// announces or sends more than `answerBytesMax` fails). A failure says whether the request can have reached the
// peer: a timeout or abort before the request was written (no connection or TLS session yet, or the request still
// queued for a socket) has the code NOT_SENT_CODE, as a refused connection has ECONNREFUSED.
import {
  type Agent as HttpAgent,
  type ClientRequest,
  type IncomingHttpHeaders,
  request as httpRequest,
} from 'node:http';
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** The code of a timeout or abort that came before the request was written to a connection. */
export const NOT_SENT_CODE = 'PEER_REQUEST_NOT_SENT';

export interface BinaryAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Present when `body` lies in a reused buffer (peer-fetch-connection.ts): call once nothing reads it any more. */
  release?(): void;
}

export interface PeerHttpOptions {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  agent: HttpAgent | HttpsAgent;
  https: boolean;
  /** Rejects when the answer has not ended by then; none when absent (then `signal` bounds the call). */
  timeoutMs?: number;
  signal?: AbortSignal;
  answerBytesMax: number;
}

/** An error with a code, as node's own errors carry (mayHaveArrived in peer-client.ts reads it). */
class PeerHttpError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Sends the request; resolves with the whole answer, whatever its status. */
export function sendPeerRequest(url: URL, options: PeerHttpOptions): Promise<BinaryAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    let sent = false;
    let settled = false;
    const send = options.https ? httpsRequest : httpRequest;
    const request: ClientRequest = send(url, { method: options.method, headers, agent: options.agent }, (answer) => {
      const announced = Number(answer.headers['content-length'] ?? 0);
      if (announced > options.answerBytesMax) {
        fail(new PeerHttpError(`an answer of ${announced} bytes, more than ${options.answerBytesMax}`, 'EPROTO'));
        return;
      }
      const chunks: Buffer[] = [];
      let length = 0;
      answer.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (length > options.answerBytesMax) {
          fail(new PeerHttpError(`an answer of more than ${options.answerBytesMax} bytes`, 'EPROTO'));
          return;
        }
        chunks.push(chunk);
      });
      answer.on('error', fail);
      answer.once('end', () => {
        if (settled) return;
        settled = true;
        cleanUp();
        const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length);
        resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body });
      });
      // a connection that closes before the answer's end rejects too (after 'end' this does nothing)
      answer.once('close', () => {
        if (!answer.complete)
          fail(new PeerHttpError('the connection closed before the end of the answer', 'ECONNRESET'));
      });
    });
    // once the whole request is handed to the socket (after its TCP and TLS handshakes) the peer may act on it
    request.once('finish', () => (sent = true));
    const stopWaiting = (reason: string) => {
      fail(new PeerHttpError(reason, sent ? 'ETIMEDOUT' : NOT_SENT_CODE));
    };
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => stopWaiting(`no answer within ${options.timeoutMs} ms`), options.timeoutMs);
    const onAbort = () => {
      const reason: unknown = options.signal?.reason;
      stopWaiting(reason instanceof Error ? reason.message : 'the call was aborted');
    };
    function cleanUp(): void {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
    function fail(error: Error): void {
      if (settled) return; // a second failure (an error, then the close) changes nothing
      settled = true;
      cleanUp();
      request.destroy();
      reject(error);
    }
    request.on('error', fail);
    if (options.signal?.aborted === true) {
      onAbort();
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.end(options.body);
  });
}

/**
 * A peer's answer with the parts of fetch's Response that callers read (ok, status, headers.get, text, json,
 * arrayBuffer), over a body already received.
 */
export class PeerAnswer {
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };

  constructor(
    readonly status: number,
    headers: IncomingHttpHeaders,
    readonly body: Buffer,
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = {
      get: (name) => {
        const value = headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    };
  }

  text(): Promise<string> {
    return Promise.resolve(this.body.toString('utf8'));
  }

  /** The body parsed as JSON; rejects (SyntaxError) when it is not JSON, as Response.json does. */
  async json(): Promise<unknown> {
    return JSON.parse(this.body.toString('utf8')) as unknown;
  }

  /** A copy of the body. */
  arrayBuffer(): Promise<ArrayBuffer> {
    const copy = new ArrayBuffer(this.body.length);
    new Uint8Array(copy).set(this.body);
    return Promise.resolve(copy);
  }
}
