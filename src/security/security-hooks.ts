// The HTTP edge of security, as Fastify hooks around every route:
//   onRequest   authenticate (before the body is read: an unauthenticated client cannot make the broker parse
//               its upload); 401 with WWW-Authenticate and an audit line on failure
//   preHandler  authorise with the route's rule (route-rights.ts) once the body is parsed; 403 (40301) and an
//               audit line on failure
//   onResponse  an audit line for every successful admin change
// The principal of a request is kept beside it (principalOf) for the controllers that filter lists.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { BrookError } from '../common/brook-error.js';
import { AuditLog } from './audit-log.js';
import { Authenticator } from './authenticator.service.js';
import { Authorizer, forbidden } from './authorizer.service.js';
import { CLUSTER, ROUTE_RIGHTS, specPath, type RouteContext, type RouteRule } from './route-rights.js';

const principals = new WeakMap<IncomingMessage, string>();

/** The authenticated principal of a request (User:ANONYMOUS when authentication is off). */
export function principalOf(request: FastifyRequest | IncomingMessage): string {
  const raw = 'raw' in request ? request.raw : request;
  return principals.get(raw) ?? 'User:ANONYMOUS';
}

/** The client address as ACLs name hosts: IPv4-mapped IPv6 addresses in their IPv4 form. */
export function hostOf(request: FastifyRequest): string {
  const ip = request.ip ?? '';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

/** The operation key of a request in openapi.yaml's form, or null for an unknown route. */
export function operationOf(request: FastifyRequest): string | null {
  const url = request.routeOptions.url;
  if (url === undefined) return null;
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  return `${method} ${specPath(url)}`;
}

/** Mutating admin routes, audited when they succeed (produce and consumer traffic is not audited). */
const ADMIN_CHANGE =
  /^(POST|PUT|PATCH|DELETE) \/v3\/clusters\/\{cluster_id\}\/(topics|topics\/\{topic_name\}(\/configs.*)?|acls|client-quotas.*|consumer-groups\/\{consumer_group_id\}(\/offsets:reset)?)$/;

export interface SecurityServices {
  authenticator: Authenticator;
  authorizer: Authorizer;
  audit: AuditLog;
  lookups: Pick<RouteContext, 'instanceTopics' | 'groupTopics'>;
}

function send(reply: FastifyReply, error: BrookError): FastifyReply {
  return reply.code(error.status).header('content-type', 'application/json').send({
    error_code: error.errorCode,
    message: error.message,
  });
}

function certificateCommonName(request: FastifyRequest): string | null {
  const socket = request.raw.socket as TLSSocket;
  if (!socket.encrypted || !socket.authorized) return null;
  const subject = socket.getPeerCertificate()?.subject as { CN?: string | string[] } | undefined;
  const cn = Array.isArray(subject?.CN) ? subject.CN[0] : subject?.CN;
  return typeof cn === 'string' && cn.length > 0 ? cn : null;
}

export function registerSecurityHooks(app: FastifyInstance, services: SecurityServices): void {
  const { authenticator, authorizer, audit } = services;
  const ruleOf = (request: FastifyRequest): RouteRule | undefined => {
    const operation = operationOf(request);
    return operation === null ? undefined : ROUTE_RIGHTS[operation];
  };

  app.addHook('onRequest', async (request, reply) => {
    if (ruleOf(request) === 'public') return;
    try {
      principals.set(
        request.raw,
        await authenticator.authenticate({
          authorization: request.headers.authorization,
          certificateCommonName: certificateCommonName(request),
        }),
      );
    } catch (error) {
      if (!(error instanceof BrookError)) throw error;
      audit.write({
        event: 'authentication.failed',
        principal: 'User:ANONYMOUS',
        host: hostOf(request),
        method: request.method,
        route: operationOf(request),
        reason: error.message,
      });
      const challenges = authenticator.challenges;
      if (challenges.length > 0) void reply.header('www-authenticate', challenges);
      return send(reply, error);
    }
  });

  app.addHook('preHandler', async (request, reply) => {
    if (!authorizer.enabled) return;
    const operation = operationOf(request);
    if (operation === null) return; // unknown route: the 404 handler answers
    const rule = ROUTE_RIGHTS[operation];
    if (rule === 'public') return;
    const principal = principalOf(request);
    const host = hostOf(request);
    const context: RouteContext = {
      params: (request.params ?? {}) as Record<string, string>,
      body: request.body,
      query: (request.query ?? {}) as Record<string, unknown>,
      ...services.lookups,
    };
    const checks = rule === undefined ? null : rule(context);
    const failed =
      checks === null
        ? { operation: 'ALL' as const, resource: CLUSTER }
        : checks.find(
            (check) =>
              !authorizer.authorize(principal, host, check.operation, check.resource) &&
              !(check.orCluster && authorizer.authorize(principal, host, check.operation, CLUSTER)),
          );
    if (failed === undefined) return;
    audit.write({
      event: 'authorization.denied',
      principal,
      host,
      method: request.method,
      route: operation,
      operation: failed.operation,
      resource_type: failed.resource.type,
      resource_name: failed.resource.name,
    });
    return send(
      reply,
      checks === null
        ? forbidden(`No rights are defined for ${operation}; it is refused while the authorizer is on.`)
        : forbidden(
            `${principal} is not authorized to ${failed.operation} ${failed.resource.type.toLowerCase()} '${failed.resource.name}'.`,
          ),
    );
  });

  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 300) return;
    const operation = operationOf(request);
    if (operation === null || !ADMIN_CHANGE.test(operation)) return;
    audit.write({
      event: 'admin',
      principal: principalOf(request),
      host: hostOf(request),
      method: request.method,
      route: operation,
      params: request.params,
      status: reply.statusCode,
    });
  });
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
