// Request ids: a request keeps the X-Request-Id it came with (when it is a short token: letters, digits, . _ : -,
// at most 128) or gets a random UUID; the response carries it back, the audit log prints it, and a broker
// forwarding the request to another sends it along in the same header, so one id follows a request across brokers.
// The route handler runs inside the request's context (common/request-context.ts): the peer client sends the id on
// every call made for the request, and JSON log lines written meanwhile carry it as `request_id`. At debug level,
// every answered request is logged with its method, route, status and duration (and its id, in JSON logs).
// Only the JSON logger and the peer client read the context; a broker that has neither JSON logs nor peers (no
// BROOK_REDIS_URL) does not enter it (requestContextNeeded): nothing would read it, and entering it switches on
// Node's async hooks for the whole process (AsyncLocalStorage in Node 20 runs a hook on every promise, a few per
// cent of the CPU of a produce request).
import { Logger } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { REQUEST_ID_HEADER, requestIdOf, runInRequest } from '../common/request-context.js';
import type { BrokerConfig } from '../config/broker-config.js';

export { REQUEST_ID_HEADER };

/** Fastify options: ids come from genReqId only, never unchecked from the header. */
export const requestIdOptions = {
  requestIdHeader: false as const,
  genReqId(request: IncomingMessage): string {
    return requestIdOf(request);
  },
};

export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}

/** Whether anything reads the request context: the JSON logger (its request_id), the peer client (a cluster's). */
export function requestContextNeeded(config: Pick<BrokerConfig, 'logFormat' | 'redisUrl'>): boolean {
  return config.logFormat === 'json' || config.redisUrl !== null;
}

/**
 * Runs every later hook and the route handler in the request's context (when `needed`, see requestContextNeeded).
 * Registered before the other preHandler hooks (group forwarding, authorisation), so that they run in it too;
 * callback style, as the context must wrap the call that continues the request.
 */
export function registerRequestContext(app: FastifyInstance, needed = true): void {
  const logger = new Logger('Request');
  if (needed) app.addHook('preHandler', (request, _reply, done) => runInRequest({ requestId: request.id }, done));
  app.addHook('onResponse', (request, reply, done) => {
    // The line is only built when it will be written (the check is what the logger itself does first).
    if (!Logger.isLevelEnabled('debug')) {
      done();
      return;
    }
    const log = () =>
      logger.debug(
        `${request.method} ${request.routeOptions.url ?? 'unmatched'} ${reply.statusCode} ` +
          `${reply.elapsedTime.toFixed(1)} ms`,
      );
    if (needed) runInRequest({ requestId: request.id }, log);
    else log();
    done();
  });
}
