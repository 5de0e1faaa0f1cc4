// Request ids: a request keeps the X-Request-Id it came with (when it is a short token: letters, digits, . _ : -,
// at most 128) or gets a random UUID; the response carries it back, the audit log prints it, and a broker
// forwarding the request to another sends it along in the same header, so one id follows a request across brokers.
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Fastify options: ids come from genReqId only, never unchecked from the header. */
export const requestIdOptions = {
  requestIdHeader: false as const,
  genReqId(request: IncomingMessage): string {
    const given = request.headers[REQUEST_ID_HEADER];
    return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  },
};

export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
  });
}
