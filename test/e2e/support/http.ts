// The e2e tests' JSON requests, sent with supertest (`request(brokerUrl)`) and validated against openapi.yaml.
// Answers are read as raw bytes and parsed here, so that what a test sees is what the broker sent; tests that must
// stream (a chunked produce, SSE) use node:http themselves.
import request from 'supertest';
import { expect } from 'vitest';
import { validateResponse } from './openapi-validator.js';

// Test bodies are read field by field in assertions; `any` keeps those assertions short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  /** The answer's bytes as they came (binary answers: raw batches). */
  raw: Buffer;
}

export interface CallOptions {
  body?: unknown;
  rawBody?: string | Buffer;
  contentType?: string;
  accept?: string;
  /** Extra request headers (Authorization...). */
  headers?: Record<string, string>;
  /** The path template in openapi.yaml to validate against; omit to skip validation. */
  spec?: string;
  /** Give up (the promise rejects) when the whole answer has not arrived within this many milliseconds. */
  timeoutMs?: number;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';

/** Collects the answer's bytes whatever its content type (supertest would parse JSON and drop unknown types). */
function rawBytes(answer: unknown, done: (error: Error | null, body: Buffer) => void): void {
  const response = answer as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('error', (error: Error) => done(error, Buffer.alloc(0)));
  response.on('end', () => done(null, Buffer.concat(chunks)));
}

function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  return headers;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  let test = request(baseUrl)[method.toLowerCase() as Method](path).buffer(true).parse(rawBytes);
  if (options.timeoutMs !== undefined) test = test.timeout(options.timeoutMs);
  for (const [name, value] of Object.entries(options.headers ?? {})) test = test.set(name, value);
  if (options.accept !== undefined) test = test.set('accept', options.accept);
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) {
    // The bytes go as they are: superagent would serialize a Buffer as JSON ({"type":"Buffer",...}).
    const asPrepared = (prepared: unknown): string => prepared as string;
    test = test
      .set('content-type', options.contentType ?? 'application/json')
      .serialize(asPrepared)
      .send(body);
  }
  const response = await test;
  const raw = response.body as Buffer;
  const text = raw.toString('utf8');
  let parsed: unknown = undefined;
  if (text.length > 0) {
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      parsed = text;
    }
  }
  const headers = headersOf(response.headers as Record<string, string | string[] | undefined>);
  if (options.spec !== undefined) {
    validateResponse(method, options.spec, response.status, parsed, headers.get('content-type') ?? 'application/json');
  }
  return { status: response.status, headers, body: parsed as T, text, raw };
}

export function expectError(
  response: ApiResponse,
  status: number,
  errorCode: number,
  messageIncludes?: string | RegExp,
): void {
  expect({ status: response.status, error_code: response.body?.error_code }, response.text).toEqual({
    status,
    error_code: errorCode,
  });
  expect(typeof response.body.message).toBe('string');
  if (messageIncludes !== undefined) expect(response.body.message).toMatch(messageIncludes);
}
