// Content negotiation for the REST Proxy v2 routes (/topics, /consumers, /brokers): they answer JSON in the
// application/vnd.kafka[.json|.binary|.avro|.jsonschema|.protobuf].v2+json family, so a request whose Accept
// header admits none of those (nor application/json or a wildcard) gets 406 {error_code: 406}, as Confluent's
// proxy answers. Every other v2 answer, errors included, is labelled with the type negotiated from Accept
// (negotiatedV2Type): the most preferred range that names one of those types, application/vnd.kafka.v2+json for
// wildcards or no Accept at all, as Confluent's proxy labels them (a client that asked for
// application/vnd.kafka.v2+json is not answered application/json). A route that chose a type itself (the records
// of a consumer instance, in its embedded format) keeps it.
import type { FastifyInstance } from 'fastify';

const V2_ROUTE = /^\/(?:topics|consumers|brokers)(?:[/?]|$)/;
/** The v2 answer type when the client states no preference. */
export const V2_DEFAULT_TYPE = 'application/vnd.kafka.v2+json';

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

interface MediaRange {
  type: string;
  quality: number;
  index: number;
}

/** The ranges of an Accept header, with their quality (1 unless `q=` says otherwise). */
function mediaRanges(accept: string): MediaRange[] {
  return accept.split(',').map((range, index) => {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((p) => p.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    return { type, quality: Number.isFinite(quality) ? quality : 0, index };
  });
}

/** Whether an Accept header value admits one of the v2 answers (q=0 ranges admit nothing). */
export function acceptsV2Json(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return mediaRanges(accept).some((range) => range.quality > 0 && ACCEPTABLE.has(range.type));
}

/** Between equally preferred ranges the v2 type wins over plain JSON, as the proxy's own weights have it. */
const plainJsonLast = (range: MediaRange): number => (range.type === 'application/json' ? 1 : 0);

/** The content type of a v2 answer to a request with this Accept header. */
export function negotiatedV2Type(accept: string | undefined): string {
  if (accept === undefined || accept.trim() === '') return V2_DEFAULT_TYPE;
  const preferred = mediaRanges(accept)
    .filter((range) => range.quality > 0 && ACCEPTABLE.has(range.type))
    .sort((a, b) => b.quality - a.quality || plainJsonLast(a) - plainJsonLast(b) || a.index - b.index)[0];
  if (preferred === undefined || preferred.type.includes('*')) return V2_DEFAULT_TYPE;
  return preferred.type;
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

/** Labels v2 JSON answers (those a route left as application/json) with the negotiated v2 type. */
export function registerV2AnswerContentType(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (
      V2_ROUTE.test(request.url) &&
      reply.statusCode !== 406 &&
      typeof type === 'string' &&
      type.startsWith('application/json')
    ) {
      void reply.header('content-type', negotiatedV2Type(request.headers.accept));
    }
    done(null, payload);
  });
}
