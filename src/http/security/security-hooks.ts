// The HTTP edge of security, as Fastify hooks around every route:
//   onRequest   authenticate (before the body is read: an unauthenticated client cannot make the broker parse
//               its upload); 401 with WWW-Authenticate and an audit line on failure
//   preHandler  authorise with the route's rule (route-rights.ts) once the body is parsed; 403 (40301) and an
//               audit line on failure
//               then the client quotas (quota.ts): 429 (42901) with Retry-After while the caller's bucket is in debt
//   onSend      charge the consumer byte quota with the bytes a consume route answers
//   onResponse  an audit line for every successful admin change
// The principal of a request is kept beside it (principalOf) for the controllers that filter lists. A request that
// a peer broker forwarded (a consumer group's request sent on to its coordinator) is not authenticated again: it
// carries the principal the first broker authenticated, believed only when the request comes from a peer
// (cluster/peer-auth.ts), so users known by a client certificate keep their identity on every broker.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Transform } from 'node:stream';
import { StreamingBody } from '../body/json-body-parser.js';
import { BrookError } from '../../common/brook-error.js';
import { AuditLog, type AuditEvent } from '../../security/audit-log.js';
import { AuthenticationFailure, Authenticator } from '../../security/authenticator.service.js';
import { hostOf, principalOf, rememberIdentity } from '../../security/request-identity.js';
import { Authorizer, forbidden } from '../../security/authorizer.service.js';
import type { Metrics } from '../../metrics/metrics.service.js';
import type { QuotaKind } from '../../security/quota.js';
import { QuotaManager } from '../../security/quota-manager.service.js';
import type { PeerAuthenticator } from '../../cluster/peer-auth.js';
import { CLIENT_HOST_HEADER, FORWARDED_HEADER, INTERNAL_PREFIX, PRINCIPAL_HEADER } from '../../cluster/peer-client.js';
import { CLUSTER, ROUTE_RIGHTS, specPath, type RouteContext, type RouteRule } from './route-rights.js';

const FORWARDED_PRINCIPAL = /^User:[^\s;]{1,256}$/;
const FORWARDED_HOST = /^[0-9A-Fa-f.:]{1,64}$/;

export { credentialOf, hostOf, principalOf } from '../../security/request-identity.js';

/**
 * Mutating admin routes (topics, configs, partition reassignments, leader elections, ACLs, quotas, group offsets,
 * and the schema registry's writes below), audited when they succeed (produce and consumer traffic is not audited).
 */
const ADMIN_CHANGE =
  /^(POST|PUT|PATCH|DELETE) \/v3\/clusters\/\{cluster_id\}\/(topics|topics\/\{topic_name\}(\/configs.*)?|topics\/-\/partitions\/-\/(reassignment|leader-election)|acls|client-quotas.*|consumer-groups\/\{consumer_group_id\}(\/offsets:reset)?)$/;

/** The schema registry's writes: registrations, deletions, compatibility and mode changes (not look-ups). */
const REGISTRY_CHANGE =
  /^(POST \/subjects\/\{subject\}\/versions|DELETE \/subjects\/\{subject\}(\/versions\/\{version\})?|(PUT|DELETE) \/(config|mode)(\/\{subject\})?)$/;

const T = '/v3/clusters/{cluster_id}/topics/{topic_name}';
/** Routes charged to producer_byte_rate (request body bytes) and consumer_byte_rate (response body bytes). */
const PRODUCE_ROUTES = new Set([
  `POST ${T}/records`,
  `POST ${T}/records:batch`,
  'POST /topics/{topic_name}',
  'POST /topics/{topic_name}/partitions/{partition_id}',
]);
const CONSUME_ROUTES = new Set([
  `GET ${T}/partitions/{partition_id}/records`,
  'GET /consumers/{group_name}/instances/{instance}/records',
]);

/** What the hooks need to know of a route, the same for every request to it (routeFacts). */
interface RouteFacts {
  operation: string;
  rule: RouteRule | undefined;
  produce: boolean;
  consume: boolean;
  adminChange: boolean;
}

/** By Fastify route template, then method: as many entries as routes and methods. */
const factsByRoute = new Map<string, Map<string, RouteFacts>>();

/** The facts of the request's route, or null for an unknown route; made on the route's first request. */
function routeFacts(request: FastifyRequest): RouteFacts | null {
  const url = request.routeOptions.url;
  if (url === undefined) return null;
  let byMethod = factsByRoute.get(url);
  if (byMethod === undefined) {
    byMethod = new Map();
    factsByRoute.set(url, byMethod);
  }
  let facts = byMethod.get(request.method);
  if (facts === undefined) {
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const operation = `${method} ${specPath(url)}`;
    facts = {
      operation,
      rule: ROUTE_RIGHTS[operation],
      produce: PRODUCE_ROUTES.has(operation),
      consume: CONSUME_ROUTES.has(operation),
      adminChange: ADMIN_CHANGE.test(operation) || REGISTRY_CHANGE.test(operation),
    };
    byMethod.set(request.method, facts);
  }
  return facts;
}

/** The operation key of a request in openapi.yaml's form, or null for an unknown route. */
export function operationOf(request: FastifyRequest): string | null {
  return routeFacts(request)?.operation ?? null;
}

/**
 * A streaming produce body (chunked, no Content-Length) read through the producer byte quota: each chunk is
 * charged as it arrives and, while the bucket is in debt, the next one is read only once the debt is paid, so TCP
 * back-pressure slows the producer to its quota (Kafka's way: delay rather than refuse).
 */
function throttledStream(body: StreamingBody, quotas: QuotaManager, principal: string): StreamingBody {
  const throttle = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      quotas.charge(principal, 'producer_byte_rate', chunk.length);
      const waitMs = quotas.waitMs(principal, 'producer_byte_rate');
      if (waitMs === 0) done(null, chunk);
      else setTimeout(() => done(null, chunk), waitMs);
    },
  });
  body.stream.on('error', (error) => throttle.destroy(error));
  return new StreamingBody(body.stream.pipe(throttle));
}

function requestBytes(request: FastifyRequest): number {
  const declared = Number(request.headers['content-length']);
  if (Number.isSafeInteger(declared) && declared >= 0) return declared;
  // a chunked v2 body was parsed whole: charge its JSON size
  try {
    return request.body === undefined ? 0 : Buffer.byteLength(JSON.stringify(request.body) ?? '');
  } catch {
    return 0;
  }
}

/** Admin request bodies are small (ACLs, quotas, configs); a larger one is summarised by its size. */
const AUDIT_BODY_CHARS_MAX = 2048;

function auditBody(body: unknown): unknown {
  if (body === undefined || body === null || typeof body !== 'object') return body ?? null;
  try {
    const text = JSON.stringify(body);
    return text.length <= AUDIT_BODY_CHARS_MAX ? body : { omitted_chars: text.length };
  } catch {
    return null;
  }
}

export interface SecurityServices {
  authenticator: Authenticator;
  authorizer: Authorizer;
  audit: AuditLog;
  quotas: QuotaManager;
  metrics: Metrics;
  lookups: Pick<RouteContext, 'instanceTopics' | 'groupTopics'>;
  peers: PeerAuthenticator;
}

/** The principal (and client host) a peer forwarded the request for, or null when it is not such a request. */
/** The routes a broker forwards to another with the caller's principal: v2 consumers and v3 consumer groups. */
const GROUP_ROUTE = /^\/(?:consumers\/|v3\/clusters\/[^/?]+\/consumer-groups(?:[/?]|$))/;

function forwardedIdentity(
  request: FastifyRequest,
  peers: PeerAuthenticator,
): { principal: string; host?: string } | null {
  const principal = request.headers[PRINCIPAL_HEADER];
  // only what group forwarding and the cluster-wide group list send (FORWARDED_HEADER on a consumer-group route),
  // and only from a peer
  if (
    typeof principal !== 'string' ||
    !FORWARDED_PRINCIPAL.test(principal) ||
    request.headers[FORWARDED_HEADER] === undefined ||
    !GROUP_ROUTE.test(request.url) ||
    !peers.check(request.raw).ok
  )
    return null;
  const host = request.headers[CLIENT_HOST_HEADER];
  return { principal, host: typeof host === 'string' && FORWARDED_HOST.test(host) ? host : undefined };
}

function send(reply: FastifyReply, error: BrookError): FastifyReply {
  return reply.code(error.status).header('content-type', 'application/json').send({
    error_code: error.errorCode,
    message: error.message,
  });
}

/**
 * Broker-to-broker routes (follower fetch, forwarding, controller commands) are not users' routes: the cluster
 * secret guards them (ClusterSecretGuard), not users' credentials and ACLs.
 */
function isInternalRoute(request: FastifyRequest): boolean {
  return request.url.startsWith(`${INTERNAL_PREFIX}/`);
}

export function registerSecurityHooks(app: FastifyInstance, services: SecurityServices): void {
  const { authenticator, authorizer, audit, quotas } = services;
  app.addHook('onRequest', async (request, reply) => {
    if (isInternalRoute(request) || routeFacts(request)?.rule === 'public') return;
    const forwarded = forwardedIdentity(request, services.peers);
    if (forwarded !== null) {
      rememberIdentity(request.raw, {
        principal: forwarded.principal,
        credential: { kind: 'peer' },
        forwardedHost: forwarded.host,
      });
      return;
    }
    try {
      const identified = await authenticator.identify({
        authorization: request.headers.authorization,
        certificateCommonName: authenticator.certificateCommonNameOf(request.raw),
        certificateNotAfterMs: authenticator.certificateNotAfterOf(request.raw),
      });
      rememberIdentity(request.raw, identified);
    } catch (error) {
      if (!(error instanceof BrookError)) throw error;
      audit.write({
        event: 'authentication.failed',
        request_id: request.id,
        principal: error instanceof AuthenticationFailure ? error.attemptedPrincipal : 'User:ANONYMOUS',
        host: hostOf(request),
        method: request.method,
        route: operationOf(request),
        reason: error.message,
      });
      const challenges = authenticator.challenges;
      if (error.status === 401 && challenges.length > 0) void reply.header('www-authenticate', challenges);
      if (error.retryAfterSeconds !== undefined) void reply.header('retry-after', String(error.retryAfterSeconds));
      return send(reply, error);
    }
  });

  // Callback style (no await in it): an answer sent here ends the request, done() lets it go on.
  app.addHook('preHandler', (request, reply, done) => {
    // an unknown route (operation null): the 404 handler answers
    const facts = isInternalRoute(request) ? null : routeFacts(request);
    if (facts === null || facts.rule === 'public') {
      done();
      return;
    }
    const { operation, rule } = facts;
    const principal = principalOf(request);
    const host = hostOf(request);
    const denied = authorizer.enabled ? deniedCheck(request, operation, rule, principal, host) : null;
    if (denied !== null) {
      audit.write({
        event: 'authorization.denied',
        request_id: request.id,
        principal,
        host,
        method: request.method,
        route: operation,
        operation: denied.check.operation,
        resource_type: denied.check.resource.type,
        resource_name: denied.check.resource.name,
      });
      send(reply, denied.error);
      return;
    }
    if (throttle(request, reply, facts, principal) === undefined) done();
  });

  const deniedCheck = (
    request: FastifyRequest,
    operation: string,
    rule: RouteRule | undefined,
    principal: string,
    host: string,
  ): { check: { operation: string; resource: { type: string; name: string } }; error: BrookError } | null => {
    if (rule === undefined || rule === 'public') {
      return {
        check: { operation: 'ALL', resource: CLUSTER },
        error: forbidden(`No rights are defined for ${operation}; it is refused while the authorizer is on.`),
      };
    }
    const checks = rule({
      params: (request.params ?? {}) as Record<string, string>,
      body: request.body,
      query: (request.query ?? {}) as Record<string, unknown>,
      ...services.lookups,
    });
    const failed = checks.find(
      (check) =>
        !authorizer.authorize(principal, host, check.operation, check.resource) &&
        !(check.orCluster && authorizer.authorize(principal, host, check.operation, CLUSTER)),
    );
    if (failed === undefined) return null;
    const what = `${failed.operation} ${failed.resource.type.toLowerCase()} '${failed.resource.name}'`;
    return { check: failed, error: forbidden(`${principal} is not authorized to ${what}.`) };
  };

  /** Charges the request to the caller's quotas; returns the 429 reply when it is over one, else undefined. */
  const throttle = (
    request: FastifyRequest,
    reply: FastifyReply,
    { produce, consume }: RouteFacts,
    principal: string,
  ): FastifyReply | undefined => {
    // the longest wait; the first kind on a tie
    let kind: QuotaKind = 'request_rate';
    let waitMs = quotas.waitMs(principal, 'request_rate', 1);
    if (produce) {
      const wait = quotas.waitMs(principal, 'producer_byte_rate');
      if (wait > waitMs) [kind, waitMs] = ['producer_byte_rate', wait];
    }
    if (consume) {
      const wait = quotas.waitMs(principal, 'consumer_byte_rate');
      if (wait > waitMs) [kind, waitMs] = ['consumer_byte_rate', wait];
    }
    if (waitMs > 0) {
      services.metrics.quotaThrottled.inc({ quota: kind });
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      void reply.header('retry-after', String(seconds));
      return send(
        reply,
        new BrookError(429, 42901, `${principal} is over its ${kind} quota; retry after ${seconds} s.`, seconds),
      );
    }
    quotas.charge(principal, 'request_rate', 1);
    if (!produce) return;
    if (request.body instanceof StreamingBody) {
      if (quotas.limits(principal, 'producer_byte_rate'))
        request.body = throttledStream(request.body, quotas, principal);
    } else quotas.charge(principal, 'producer_byte_rate', requestBytes(request));
  };

  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode === 200 && routeFacts(request)?.consume === true) {
      const principal = principalOf(request);
      // counting a JSON answer's UTF-8 bytes walks the whole string: only for a principal with a quota to charge
      if (quotas.limits(principal, 'consumer_byte_rate')) {
        const bytes =
          typeof payload === 'string' ? Buffer.byteLength(payload) : Buffer.isBuffer(payload) ? payload.length : 0;
        quotas.charge(principal, 'consumer_byte_rate', bytes);
      }
    }
    done(null, payload);
  });

  app.addHook('onResponse', (request, reply, done) => {
    const facts = reply.statusCode < 300 ? routeFacts(request) : null;
    if (facts?.adminChange === true) audit.write(adminChange(request, reply, facts.operation));
    done();
  });
}

/** The audit line of a successful admin change. */
function adminChange(request: FastifyRequest, reply: FastifyReply, operation: string): AuditEvent {
  return {
    event: 'admin',
    request_id: request.id,
    principal: principalOf(request),
    host: hostOf(request),
    method: request.method,
    route: operation,
    params: request.params,
    query: request.query,
    body: auditBody(request.body),
    status: reply.statusCode,
  };
}

/** For list routes: may the caller DESCRIBE this resource? (Kafka lists only what the caller may describe.) */
export function describable(
  authorizer: Authorizer,
  request: FastifyRequest,
): (type: 'TOPIC' | 'GROUP', name: string) => boolean {
  const principal = principalOf(request);
  const host = hostOf(request);
  return (type, name) => authorizer.authorize(principal, host, 'DESCRIBE', { type, name });
}
