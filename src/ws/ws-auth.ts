// Security of the WebSocket endpoint, which does not pass through the REST hooks (GET /v3/ws is upgraded before any
// Fastify hook runs): the upgrade gate (ws-upgrade.ts) and the rights guard (frame-rights.guard.ts) call these.
// SSE is a REST route, checked by the REST hooks.
//
//   const { principal, credential } = await authenticateUpgrade(authenticator, request)  // 401 -> refuse it
//   authorizeFrame(authorizer, audit, { principal, host }, frame, group)  // per client frame: 403 -> error frame
//
// Browsers cannot set headers on a WebSocket, so the upgrade also takes the API key as ?token=.
import type { IncomingMessage } from 'node:http';
import type { AuditLog } from '../security/audit-log.js';
import type { Authenticator, Identified } from '../security/authenticator.service.js';
import type { Authorizer, Check } from '../security/authorizer.service.js';

export async function authenticateUpgrade(authenticator: Authenticator, request: IncomingMessage): Promise<Identified> {
  const token = new URL(request.url ?? '/', 'http://upgrade').searchParams.get('token');
  return authenticator.identify({
    authorization: request.headers.authorization,
    token: token ?? undefined,
    certificateCommonName: authenticator.certificateCommonNameOf(request),
    certificateNotAfterMs: authenticator.certificateNotAfterOf(request),
  });
}

/** Checks every right a WebSocket frame needs; the first one missing is an audit line and a 403 (40301) thrown. */
export function authorizeFrame(
  authorizer: Authorizer,
  audit: AuditLog,
  { principal, host }: { principal: string; host: string },
  frame: Record<string, unknown>,
  subscriptionGroup: string | null,
): void {
  for (const check of webSocketChecks(frame, subscriptionGroup)) {
    if (authorizer.authorize(principal, host, check.operation, check.resource)) continue;
    audit.write({
      event: 'authorization.denied',
      principal,
      host,
      route: '/v3/ws',
      frame_op: frame.op,
      operation: check.operation,
      resource_type: check.resource.type,
      resource_name: check.resource.name,
    });
    authorizer.check(principal, host, check.operation, check.resource);
  }
}

export function hostOfSocket(request: IncomingMessage): string {
  const ip = request.socket.remoteAddress ?? '';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

/**
 * The rights a WebSocket frame needs (DESIGN.md §4): produce = WRITE on the topic; subscribe = READ on each topic
 * (named or assigned) and on the group when it joins one; commit = READ on the group of the subscription (the
 * gateway passes it) and on each topic. credit and unsubscribe need nothing beyond the subscription.
 */
export function webSocketChecks(frame: Record<string, unknown>, subscriptionGroup: string | null = null): Check[] {
  const topics = (list: unknown, key = 'topic'): string[] =>
    Array.isArray(list)
      ? [
          ...new Set(
            list
              .map((entry) => (typeof entry === 'string' ? entry : (entry as Record<string, unknown> | null)?.[key]))
              .filter((name): name is string => typeof name === 'string'),
          ),
        ]
      : [];
  const read = (names: string[]): Check[] =>
    names.map((name) => ({ operation: 'READ', resource: { type: 'TOPIC', name } }));
  const group = (name: unknown): Check[] =>
    typeof name === 'string' ? [{ operation: 'READ', resource: { type: 'GROUP', name } }] : [];
  switch (frame.op) {
    case 'produce':
      return typeof frame.topic === 'string'
        ? [{ operation: 'WRITE', resource: { type: 'TOPIC', name: frame.topic } }]
        : [];
    case 'subscribe':
      return [...group(frame.group), ...read([...topics(frame.topics), ...topics(frame.assign)])];
    case 'commit':
      return [...group(subscriptionGroup), ...read(topics(frame.offsets))];
    default:
      return [];
  }
}
