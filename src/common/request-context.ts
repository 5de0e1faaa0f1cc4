// The request a piece of work is done for, carried through async calls (AsyncLocalStorage): the HTTP layer enters
// it before each route handler (gateway/request-id.ts); the peer client sends its id along on every call it makes
// for that request, and the JSON logger prints it on every line logged meanwhile.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runInRequest<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

/** The id of the request being served, or undefined outside one (timers, replication, controller work). */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
