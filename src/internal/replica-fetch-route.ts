// The follower fetch's own route: GET INTERNAL_PREFIX/partitions/<topic>/<partition>/replica-fetch
// (replication/replica-fetch-protocol.ts), answered on the HTTP server's request event before Fastify and Nest see
// the request. Under acks=all a leader answers about one follower fetch a produce request, and the full pipeline
// (Fastify's routing and hooks, Nest's router, guard and interceptors) cost it more than the fetch's own work.
//
// Only a plain fetch from a peer is taken here: GET, the path and the seven query parameters in their plain form
// (each once, no escapes), no body, no Origin, the cluster secret (and the peer certificate, with a peer CA) as
// ClusterSecretGuard checks them, while the broker is not closing and is not logging each request (debug). Anything
// else goes on to Fastify unchanged, where InternalController.replicaFetch answers it, the guard refuses it (401
// with its audit line), or Fastify answers 404 or 503 while closing. What this route does is what that one does:
// the same parameters and errors (application/params.ts), the same answer (writeBatchesAnswer), errors as the error
// filter renders them (common/error-answer.ts), the X-Request-Id, the request's context (common/request-context.ts),
// and the same series of brook_http_requests_total, brook_http_request_duration_seconds and
// brook_http_request_errors_total (W1c counts the fetches there).
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { integerParam } from '../application/params.js';
import { PeerAuthenticator } from '../cluster/peer-auth.js';
import { BATCHES_MEDIA_TYPE } from '../cluster/peer-client.js';
import { clientGone } from '../common/client-gone.js';
import { writeErrorAnswer } from '../common/error-answer.js';
import { type FrontRoute, installFrontRoute } from '../common/front-route.js';
import { REQUEST_ID_HEADER, requestIdOf, runInRequest } from '../common/request-context.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { Metrics, RouteRequestMetrics } from '../metrics/metrics.service.js';
import { answerHeaders, type ReplicaFetchRequest } from '../replication/replica-fetch-protocol.js';
import { ReplicaManager } from '../replication/replica-manager.service.js';

/** The route's template in openapi.yaml's form: its label in the request metrics. */
export const REPLICA_FETCH_ROUTE = '/internal/v1/partitions/{topic}/{partition}/replica-fetch';
const METHOD = 'GET';

/** The query parameters of a fetch (replica-fetch-protocol.ts). */
const PARAMETERS = new Set([
  'replica_id',
  'broker_epoch',
  'fetch_offset',
  'last_fetched_epoch',
  'leader_epoch',
  'max_bytes',
  'wait_ms',
]);

/**
 * A plain fetch's URL: a topic of Kafka's legal characters (at most 249, Kafka's bound), a partition of digits, a
 * query of letters, digits, `_`, `-`, `=` and `&` (no escapes, no `+`).
 */
const PLAIN_FETCH_URL = /^\/internal\/v1\/partitions\/([A-Za-z0-9._-]{1,249})\/(\d{1,10})\/replica-fetch\?([\w=&-]*)$/;

export interface PlainFetch {
  topic: string;
  partitionText: string;
  query: Record<string, string>;
}

/** The parts of a plain follower fetch (see the top), or null for any other request. */
export function plainFetchOf(request: IncomingMessage): PlainFetch | null {
  const { headers } = request;
  if (request.method !== METHOD || headers.origin !== undefined || headers['transfer-encoding'] !== undefined) {
    return null;
  }
  if (headers['content-length'] !== undefined && headers['content-length'] !== '0') return null;
  const match = PLAIN_FETCH_URL.exec(request.url ?? '');
  if (match === null) return null;
  const query: Record<string, string> = {};
  for (const pair of match[3].split('&')) {
    const equals = pair.indexOf('=');
    const name = pair.slice(0, equals);
    if (equals <= 0 || !PARAMETERS.has(name) || name in query) return null;
    query[name] = pair.slice(equals + 1);
  }
  return { topic: match[1], partitionText: match[2], query };
}

/** A fetch's parameters (replica-fetch-protocol.ts), checked in this order: a 400 names the first wrong one. */
export function replicaFetchRequest(
  query: Record<string, string | undefined>,
  config: Pick<BrokerConfig, 'readBytesMax' | 'readWaitMsMax'>,
): ReplicaFetchRequest {
  return {
    replicaId: integerParam(query.replica_id, 'replica_id'),
    brokerEpoch: integerParam(query.broker_epoch, 'broker_epoch'),
    fetchOffset: integerParam(query.fetch_offset, 'fetch_offset'),
    lastFetchedEpoch: integerParam(query.last_fetched_epoch, 'last_fetched_epoch', { min: -1 }),
    leaderEpoch: integerParam(query.leader_epoch, 'leader_epoch'),
    maxBytes: integerParam(query.max_bytes, 'max_bytes', { min: 1, max: config.readBytesMax }),
    waitMs: integerParam(query.wait_ms, 'wait_ms', { max: config.readWaitMsMax, fallback: 0 }),
  };
}

/** Answers 200 with `batches` end to end as the body (BATCHES_MEDIA_TYPE), in one corked write. */
export function writeBatchesAnswer(
  response: ServerResponse,
  headers: OutgoingHttpHeaders,
  batches: readonly Buffer[],
): void {
  let length = 0;
  for (const batch of batches) length += batch.length;
  response.writeHead(200, {
    ...headers,
    'content-type': BATCHES_MEDIA_TYPE,
    'content-length': String(length),
  });
  response.cork();
  for (const batch of batches) response.write(batch);
  response.end();
}

export class ReplicaFetchRoute implements FrontRoute {
  private closing = false;
  private readonly metrics: RouteRequestMetrics;

  constructor(
    private readonly replicas: ReplicaManager,
    private readonly peers: PeerAuthenticator,
    metrics: Metrics,
    private readonly config: Pick<BrokerConfig, 'readBytesMax' | 'readWaitMsMax'>,
    /** Whether the request's context is entered (http/request-id.ts, requestContextNeeded). */
    private readonly contextNeeded: boolean,
  ) {
    this.metrics = new RouteRequestMetrics(metrics, METHOD, REPLICA_FETCH_ROUTE);
  }

  /** From now on every request goes on to Fastify (which answers 503 while the broker closes). */
  close(): void {
    this.closing = true;
  }

  /** Answers `request` when it is a plain follower fetch from a peer (true); otherwise leaves it alone (false). */
  take(request: IncomingMessage, response: ServerResponse): boolean {
    if (this.closing || Logger.isLevelEnabled('debug')) return false;
    const fetch = plainFetchOf(request);
    if (fetch === null || !this.peers.check(request).ok) return false;
    const startedMs = performance.now();
    const requestId = requestIdOf(request);
    response.once('finish', () => this.metrics.count(response.statusCode, startedMs));
    if (this.contextNeeded) runInRequest({ requestId }, () => void this.answer(fetch, requestId, response));
    else void this.answer(fetch, requestId, response);
    return true;
  }

  private async answer({ topic, partitionText, query }: PlainFetch, requestId: string, response: ServerResponse) {
    try {
      const partition = integerParam(partitionText, 'partition');
      const signal = clientGone(response);
      const answer = await this.replicas.replicaFetch(
        topic,
        partition,
        replicaFetchRequest(query, this.config),
        signal,
      );
      writeBatchesAnswer(response, { [REQUEST_ID_HEADER]: requestId, ...answerHeaders(answer) }, answer.batches);
    } catch (error) {
      const errorCode = writeErrorAnswer(
        response,
        { [REQUEST_ID_HEADER]: requestId },
        error,
        'application/json; charset=utf-8',
      );
      if (errorCode !== null) this.metrics.error(errorCode);
    }
  }
}

/**
 * Puts the route in front of the application's HTTP server (before it listens): a request it does not take goes
 * to the listeners Fastify added. A broker without a cluster secret takes no internal request: nothing to install.
 */
export function installReplicaFetchRoute(
  app: NestFastifyApplication,
  config: BrokerConfig,
  contextNeeded: boolean,
): ReplicaFetchRoute | null {
  if (config.clusterSecret === null) return null;
  const route = new ReplicaFetchRoute(
    app.get(ReplicaManager),
    new PeerAuthenticator(config),
    app.get(Metrics),
    config,
    contextNeeded,
  );
  installFrontRoute(app, route);
  return route;
}
