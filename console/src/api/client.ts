// The console's one way to the broker: openapi-fetch over the types generated from openapi.yaml (the CLI's
// generated client), on the origin that served the page, with the signed-in user's Authorization header on every
// request. A failed call becomes an ApiError carrying the broker's `error_code` and `message`, shown as is.
import createClient from 'openapi-fetch';
import type { paths } from '../../../src/cli/generated/brook-api';
import { authorizationHeader, type Credentials } from './credentials';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: number | null,
    message: string,
  ) {
    super(message);
  }
}

let current: Credentials | null = null;
let onUnauthorized: () => void = () => undefined;

export function setRequestCredentials(credentials: Credentials | null, unauthorized: () => void): void {
  current = credentials;
  onUnauthorized = unauthorized;
}

/**
 * A 401 means the broker wants (other) credentials only when the request carried the current ones: an answer to
 * a request sent before the user signed in must not send them back to the login page.
 */
export function noteUnauthorized(response: Response, sentAuthorization: string | null): void {
  if (response.status === 401 && sentAuthorization === authorizationHeader(current)) onUnauthorized();
}

/** Headers every call carries (the SSE reader uses them too). */
export function authHeaders(): Record<string, string> {
  const header = authorizationHeader(current);
  return header === null ? {} : { authorization: header };
}

/**
 * No ambient credentials (cookies, the browser's own Basic prompt): only the Authorization header the console sets.
 * With credentials included, a 401 with `WWW-Authenticate: Basic` makes the browser open its login dialog instead
 * of letting the console show its own.
 */
export const FETCH_CREDENTIALS: RequestCredentials = 'omit';

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: FETCH_CREDENTIALS });
api.use({
  onRequest({ request }) {
    for (const [name, value] of Object.entries(authHeaders())) request.headers.set(name, value);
    return request;
  },
  onResponse({ request, response }) {
    noteUnauthorized(response, request.headers.get('authorization'));
    return response;
  },
});

export function errorFrom(response: Response, body: unknown): ApiError {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const code = typeof fields.error_code === 'number' ? fields.error_code : null;
  const message =
    typeof fields.message === 'string' ? fields.message : `${response.status} ${response.statusText}`.trim();
  return new ApiError(response.status, code, message);
}

/** The data of a successful call; throws the broker's error otherwise. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) throw errorFrom(result.response, result.error);
  return result.data as T;
}

/** The last path segment of a v3 relationship URL (a controller's or leader's broker id). */
export function relatedId(related: string | undefined | null): string | null {
  if (related === undefined || related === null) return null;
  return related.slice(related.lastIndexOf('/') + 1);
}
