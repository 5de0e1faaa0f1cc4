// v3 writes need a body: a POST, PUT or PATCH under /v3/ that arrives without one (no bytes, or only whitespace
// JSON cannot parse as a value) is answered as Confluent's REST Proxy answers it, 422 with error_code 42206
// "Payload error. Request body is empty. Data is required.", before the route runs, so nothing is written. Runs
// after authentication and authorisation (a caller without rights learns nothing from it). A streaming produce
// (chunked `.../records`) is checked by its route once the stream has ended, since its body is read as it arrives.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../../common/brook-error.js';
import { StreamingBody } from './json-body-parser.js';

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/** Whether the request is a v3 write whose body is missing. */
export function isEmptyV3Write(request: Pick<FastifyRequest, 'method' | 'url' | 'body'>): boolean {
  if (!WRITE_METHODS.has(request.method) || !request.url.startsWith('/v3/')) return false;
  const body = request.body;
  return !(body instanceof StreamingBody) && (body === undefined || body === null || body === '');
}

export function registerEmptyBodyCheck(app: FastifyInstance): void {
  app.addHook('preHandler', (request, reply, done) => {
    if (!isEmptyV3Write(request)) {
      done();
      return;
    }
    const error = errors.emptyBody();
    void reply
      .code(error.status)
      .header('content-type', 'application/json')
      .send({ error_code: error.errorCode, message: error.message });
  });
}
