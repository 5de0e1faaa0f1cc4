// Small fetch helpers for the e2e tests: JSON requests whose answers are validated against openapi.yaml.
import { expect } from 'vitest';
import { validateResponse } from './openapi-validator.js';

// Test bodies are read field by field in assertions; `any` keeps those assertions short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
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
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  if (options.accept !== undefined) headers.accept = options.accept;
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text.length > 0) {
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      parsed = text;
    }
  }
  if (options.spec !== undefined) {
    validateResponse(
      method,
      options.spec,
      response.status,
      parsed,
      response.headers.get('content-type') ?? 'application/json',
    );
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
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
