// Security of the WebSocket endpoint, which does not pass through the REST hooks (GET /v3/ws is upgraded before any
// Fastify hook runs): ws.gateway.ts calls these. SSE is a REST route, checked by the REST hooks.
//
//   const principal = await authenticateUpgrade(authenticator, request)   // at the upgrade; 401 -> refuse it
//   for (const check of webSocketChecks(frame))                          // per client frame
//     authorizer.check(principal, hostOfSocket(request), check.operation, check.resource)  // 403 -> error frame
//
// Browsers cannot set headers on a WebSocket, so the upgrade also takes the API key as ?token=.
import type { IncomingMessage } from 'node:http';
import type { Authenticator } from '../security/authenticator.service.js';
import type { Check } from '../security/authorizer.service.js';

export async function authenticateUpgrade(authenticator: Authenticator, request: IncomingMessage): Promise<string> {
  const token = new URL(request.url ?? '/', 'http://upgrade').searchParams.get('token');
  return authenticator.authenticate({
    authorization: request.headers.authorization,
    token: token ?? undefined,
    certificateCommonName: authenticator.certificateCommonNameOf(request),
  });
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
