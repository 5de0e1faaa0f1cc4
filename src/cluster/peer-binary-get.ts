// One GET over node:http or node:https with a keep-alive agent, its answer collected into one Buffer (peer-client.ts,
// getBinary: the follower fetch). Bounded in time: the request is destroyed after `timeoutMs` (the peer call's
// timeout plus the long-poll wait) or when `signal` aborts; either rejects, as does a connection that fails.
import { type Agent as HttpAgent, type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface BinaryAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Present when `body` lies in a reused buffer (peer-fetch-connection.ts): call once nothing reads it any more. */
  release?(): void;
}

export interface BinaryGetOptions {
  headers: Record<string, string>;
  agent: HttpAgent | HttpsAgent;
  https: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
}

export function getBinary(url: URL, options: BinaryGetOptions): Promise<BinaryAnswer> {
  return new Promise((resolve, reject) => {
    const send = options.https ? httpsRequest : httpRequest;
    const request = send(
      url,
      { method: 'GET', headers: options.headers, agent: options.agent, signal: options.signal },
      (answer) => {
        const chunks: Buffer[] = [];
        let length = 0;
        answer.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          length += chunk.length;
        });
        answer.on('error', fail);
        answer.once('end', () => {
          clearTimeout(timer);
          const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length);
          resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body });
        });
        // a connection that closes before the answer's end rejects too (after 'end' this does nothing)
        answer.once('close', () => {
          if (!answer.complete) fail(new Error('the connection closed before the end of the answer'));
        });
      },
    );
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    function fail(error: Error): void {
      clearTimeout(timer);
      reject(error); // a second call (an error, then the close) changes nothing
    }
    request.on('error', fail);
    request.end();
  });
}
