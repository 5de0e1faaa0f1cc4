// The v2 binary produce to one partition, answered on the HTTP server's request event before Fastify and Nest see
// the request (common/front-route.ts): W1's request (1,000 records of 100 bytes), where Fastify's routing and eight
// hooks, Nest's router and its param factories cost about a tenth of the leader's main-thread time a request.
//
// Only the plain request is taken: POST /topics/<topic>/partitions/<digits>, with no query or only `acks=` all, -1,
// 0 or 1; Content-Type exactly application/vnd.kafka.binary.v2+json; a Content-Length from 1 to the body bound and
// no Transfer-Encoding or Content-Encoding; an Accept header, if any, that admits a v2 answer (v2-accept.ts; any
// other gets Fastify's 406); neither Origin nor Authorization; on a broker without CORS, without required
// authentication and with the authorizer off (installV2ProduceRoute installs nothing otherwise), while the anonymous
// principal has no request or producer byte quota, the broker is not closing and is not logging each request
// (debug). Anything else goes on to Fastify unchanged, before a byte of its body is read. An Idempotency-Key or the
// Brook-Producer-* headers are the controller's to read, on either path.
//
// What is taken is answered as that pipeline answers it, by the same code: the body read as the JSON body parser
// reads a v2 binary body (v2BinaryBody), V2Controller.produceToPartition itself, the answer labelled with the v2
// type the Accept negotiation gives (negotiatedV2Type), errors as the error filter renders
// them (writeErrorAnswer), the X-Request-Id (requestIdOf), the request's context, and the same series of
// brook_http_requests_total, brook_http_request_duration_seconds and brook_http_request_errors_total. Such a request
// has no security hook work to do: it is anonymous, unrestricted and not audited (produce is not an admin change).
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { writeErrorAnswer } from '../../common/error-answer.js';
import { type FrontRoute, installFrontRoute } from '../../common/front-route.js';
import { REQUEST_ID_HEADER, requestIdOf, runInRequest } from '../../common/request-context.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { Metrics, RouteRequestMetrics } from '../../metrics/metrics.service.js';
import { Authenticator } from '../../security/authenticator.service.js';
import { Authorizer } from '../../security/authorizer.service.js';
import { QuotaManager } from '../../security/quota-manager.service.js';
import { principalOf } from '../../security/request-identity.js';
import { gatheredBody, v2BinaryBody } from '../body/json-body-parser.js';
import { specPath } from '../security/route-rights.js';
import { acceptsV2Json, negotiatedV2Type } from './v2-accept.js';
import { type ProduceReply, V2Controller } from './v2.controller.js';

/** The route as Fastify knows it, and its label in the request metrics (openapi.yaml's form). */
const FASTIFY_ROUTE = '/topics/:topic_name/partitions/:partition_id';
const METHOD = 'POST';
export const V2_BINARY_MEDIA_TYPE = 'application/vnd.kafka.binary.v2+json';

/** A plain request's URL: a topic of Kafka's legal characters (at most 249), a partition of digits, the acks. */
const PLAIN_PRODUCE_URL = /^\/topics\/([A-Za-z0-9._-]{1,249})\/partitions\/(\d{1,10})(?:\?acks=(all|-1|0|1))?$/;
const DECLARED_LENGTH = /^[1-9]\d{0,9}$/;
/** Headers that make a request another shape (CORS, credentials, encodings). */
const OTHER_SHAPE_HEADERS = ['origin', 'authorization', 'transfer-encoding', 'content-encoding'] as const;

export interface PlainV2Produce {
  topic: string;
  partitionText: string;
  /** The acks parameter as given (undefined: none). */
  acksText: string | undefined;
  /** The content type of the answer, errors included: negotiated from the Accept header (v2-accept.ts). */
  answerType: string;
}

/** The parts of a plain v2 binary produce to a partition (see the top), or null for any other request. */
export function plainV2ProduceOf(request: IncomingMessage, bodyBytesMax: number): PlainV2Produce | null {
  const { headers } = request;
  if (request.method !== METHOD || headers['content-type'] !== V2_BINARY_MEDIA_TYPE) return null;
  const length = headers['content-length'];
  if (length === undefined || !DECLARED_LENGTH.test(length) || Number(length) > bodyBytesMax) return null;
  for (const name of OTHER_SHAPE_HEADERS) if (headers[name] !== undefined) return null;
  // an Accept that admits no v2 answer is refused 406 by Fastify's hook (registerV2AcceptCheck)
  if (!acceptsV2Json(headers.accept)) return null;
  const match = PLAIN_PRODUCE_URL.exec(request.url ?? '');
  if (match === null) return null;
  return { topic: match[1], partitionText: match[2], acksText: match[3], answerType: negotiatedV2Type(headers.accept) };
}

/** The reply the controller sets headers on: kept in the order set, after the X-Request-Id, as Fastify keeps them. */
class FrontReply implements ProduceReply {
  readonly headers: OutgoingHttpHeaders;

  constructor(
    readonly raw: ServerResponse,
    requestId: string,
  ) {
    this.headers = { [REQUEST_ID_HEADER]: requestId };
  }

  header(name: string, value: string): this {
    this.headers[name.toLowerCase()] = value;
    return this;
  }
}

export class V2ProduceRoute implements FrontRoute {
  private closing = false;
  private readonly metrics: RouteRequestMetrics;

  constructor(
    private readonly controller: Pick<V2Controller, 'produceToPartition'>,
    private readonly quotas: Pick<QuotaManager, 'limits'>,
    metrics: Metrics,
    private readonly bodyBytesMax: number,
    /** Whether the request's context is entered (http/request-id.ts, requestContextNeeded). */
    private readonly contextNeeded: boolean,
  ) {
    this.metrics = new RouteRequestMetrics(metrics, METHOD, specPath(FASTIFY_ROUTE));
  }

  close(): void {
    this.closing = true;
  }

  /** Answers `request` when it is a plain v2 binary produce (true); otherwise leaves it alone (false). */
  take(request: IncomingMessage, response: ServerResponse): boolean {
    if (this.closing || Logger.isLevelEnabled('debug')) return false;
    const produce = plainV2ProduceOf(request, this.bodyBytesMax);
    if (produce === null) return false;
    const principal = principalOf(request);
    if (this.quotas.limits(principal, 'request_rate') || this.quotas.limits(principal, 'producer_byte_rate'))
      return false;
    const startedMs = performance.now();
    const requestId = requestIdOf(request);
    response.once('finish', () => this.metrics.count(response.statusCode, startedMs));
    const chunks: Buffer[] = [];
    let received = 0;
    request.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
    });
    request.on('end', () => {
      const answer = () => void this.answer(produce, request, response, requestId, gatheredBody(chunks, received));
      if (this.contextNeeded) runInRequest({ requestId }, answer);
      else answer();
    });
    return true;
  }

  private async answer(
    { topic, partitionText, acksText, answerType }: PlainV2Produce,
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string,
    gathered: Buffer,
  ): Promise<void> {
    let body: unknown;
    try {
      // read now: a gathered body is a view of a buffer the next body reuses
      body = v2BinaryBody(gathered);
    } catch (error) {
      // as Fastify answers a body its parser refused: the connection is closed, the client may send more
      this.answerError(response, { [REQUEST_ID_HEADER]: requestId, connection: 'close' }, error, answerType);
      return;
    }
    const reply = new FrontReply(response, requestId);
    try {
      const payload: unknown = await this.controller.produceToPartition(
        topic,
        partitionText,
        acksText,
        request.headers,
        body,
        { raw: request },
        reply,
      );
      let text: Buffer | string;
      if (typeof payload === 'string' || Buffer.isBuffer(payload)) text = payload;
      else {
        // as Fastify serialises an object
        text = JSON.stringify(payload);
        if (reply.headers['content-type'] === undefined)
          reply.header('content-type', 'application/json; charset=utf-8');
      }
      // as registerV2AnswerContentType labels a JSON answer: the type negotiated from Accept
      if (String(reply.headers['content-type']).startsWith('application/json'))
        reply.header('content-type', answerType);
      reply.header('content-length', String(Buffer.byteLength(text)));
      response.writeHead(200, reply.headers);
      response.end(text);
    } catch (error) {
      this.answerError(response, { [REQUEST_ID_HEADER]: requestId }, error, answerType);
    }
  }

  private answerError(response: ServerResponse, headers: OutgoingHttpHeaders, error: unknown, type: string): void {
    const errorCode = writeErrorAnswer(response, headers, error, type);
    if (errorCode !== null) this.metrics.error(errorCode);
  }
}

/**
 * Puts the route in front of the application's HTTP server (before it listens) on a broker where a plain request
 * has no CORS, authentication or authorisation step; elsewhere nothing is installed and Fastify answers every one.
 */
export function installV2ProduceRoute(
  app: NestFastifyApplication,
  config: BrokerConfig,
  contextNeeded: boolean,
): V2ProduceRoute | null {
  if (config.corsAllowedOrigins !== null || app.get(Authenticator).required || app.get(Authorizer).enabled) return null;
  const route = new V2ProduceRoute(
    app.get(V2Controller),
    app.get(QuotaManager),
    app.get(Metrics),
    config.socketRequestMaxBytes,
    contextNeeded,
  );
  installFrontRoute(app, route);
  return route;
}
