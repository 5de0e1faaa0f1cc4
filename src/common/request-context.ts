// The request a piece of work is done for, carried through async calls (AsyncLocalStorage): the HTTP layer enters
// it before each route handler (http/request-id.ts); the peer client sends its id along on every call it makes
// for that request, and the JSON logger prints it on every line logged meanwhile. Background work started by a
// request leaves the context (outsideRequest).
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const REQUEST_ID_HEADER = 'x-request-id';
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The id of an HTTP request: the X-Request-Id it came with when that is a short token, else a random UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export function runInRequest<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

/**
 * Runs work that outlives the request that set it off (a metadata reload and the replica fetchers and timers it
 * starts) outside the request's context, so that its peer calls and log lines do not carry that request's id.
 */
export function outsideRequest<T>(work: () => T): T {
  return storage.exit(work);
}

/** The id of the request being served, or undefined outside one (timers, replication, controller work). */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
