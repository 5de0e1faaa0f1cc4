// Content negotiation for the REST Proxy v2 routes (/topics, /consumers, /brokers): they answer JSON in the
// application/vnd.kafka[.json|.binary|.avro|.jsonschema|.protobuf].v2+json family, so a request whose Accept
// header admits none of those (nor application/json or a wildcard) gets 406 {error_code: 406}, as Confluent's
// proxy answers.
import type { FastifyInstance } from 'fastify';

const V2_ROUTE = /^\/(?:topics|consumers|brokers)(?:[/?]|$)/;
const ACCEPTABLE = new Set([
  '*/*',
  'application/*',
  'application/json',
  'application/vnd.kafka.v2+json',
  'application/vnd.kafka.json.v2+json',
  'application/vnd.kafka.binary.v2+json',
  'application/vnd.kafka.avro.v2+json',
  'application/vnd.kafka.jsonschema.v2+json',
  'application/vnd.kafka.protobuf.v2+json',
]);

/** Whether an Accept header value admits one of the v2 answers (q=0 ranges admit nothing). */
export function acceptsV2Json(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const refused = parameters.some((p) => /^q=0(?:\.0{0,3})?$/.test(p));
    return !refused && ACCEPTABLE.has(type);
  });
}

export function registerV2AcceptCheck(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!V2_ROUTE.test(request.url) || acceptsV2Json(request.headers.accept)) {
      done();
      return;
    }
    // answered here: the request ends without done()
    void reply
      .code(406)
      .header('content-type', 'application/json')
      .send({
        error_code: 406,
        message: `Accept ${request.headers.accept} is not supported here; use application/vnd.kafka.v2+json (or the json/binary embedded formats) or application/json.`,
      });
  });
}
