// Group forwarding on the HTTP edge (application/consumer-groups/group-forwarding.ts decides where and sends): a
// preHandler before every route's handler, in cluster mode only, that sends a v2 consumer-instance or v3
// consumer-group request on to the group's coordinator when that is another broker, marked with FORWARDED_HEADER so
// that it is never forwarded twice, and answers with what the coordinator answered. The forwarded request carries
// the cluster secret, the request id and the principal this broker authenticated (the coordinator believes it from
// a peer, security/security-hooks.ts): a user known by a client certificate stays that user.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CLIENT_HOST_HEADER, FORWARDED_HEADER, PRINCIPAL_HEADER } from '../cluster/peer-client.js';
import { BrookError, errors } from '../common/brook-error.js';
import type { GroupForwarding } from '../application/consumer-groups/group-forwarding.js';
import { readUnparsedBody } from './body/unparsed-body.js';
import { hostOf, principalOf } from './security/security-hooks.js';

const GROUP_ROUTES = [/^\/consumers\/([^/?]+)/, /^\/v3\/clusters\/[^/?]+\/consumer-groups\/([^/?]+)/];
const CREATE_INSTANCE = /^\/consumers\/[^/?]+\/?(?:\?|$)/;
/** Request headers passed on to the coordinator. */
const PASSED_HEADERS = ['content-type', 'accept', 'authorization'];

/** The group a request is about, from its path; null for other routes. */
export function groupOfPath(url: string): string | null {
  for (const route of GROUP_ROUTES) {
    const match = route.exec(url);
    if (match === null) continue;
    try {
      return decodeURIComponent(match[1]);
    } catch {
      return null; // a malformed escape: the route itself answers 400/404
    }
  }
  return null;
}

/** Adds the forwarding step before every route's handler (cluster mode only). */
export function registerGroupForwarding(app: FastifyInstance, forwarding: GroupForwarding): void {
  if (!forwarding.enabled) return;
  app.addHook('preHandler', async (request, reply) => {
    try {
      await forwardIfRemote(forwarding, request, reply);
    } catch (error) {
      const failure = error instanceof BrookError ? error : errors.retriable((error as Error).message);
      await reply.code(failure.status).header('content-type', 'application/json').send({
        error_code: failure.errorCode,
        message: failure.message,
      });
    }
  });
}

async function forwardIfRemote(forwarding: GroupForwarding, request: FastifyRequest, reply: FastifyReply) {
  const groupId = groupOfPath(request.url);
  if (groupId === null || request.headers[FORWARDED_HEADER] !== undefined) return;
  const createsInstance = request.method === 'POST' && CREATE_INSTANCE.test(request.url);
  const coordinatorUrl = await forwarding.coordinatorUrl(groupId, createsInstance);
  if (coordinatorUrl === null) return;
  const headers: Record<string, string> = {
    [FORWARDED_HEADER]: String(forwarding.brokerId),
    [PRINCIPAL_HEADER]: principalOf(request),
    [CLIENT_HOST_HEADER]: hostOf(request),
  };
  for (const name of PASSED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const body = await bodyOf(request);
  const response = await forwarding.forward(groupId, coordinatorUrl, {
    method: request.method,
    url: request.url,
    headers,
    body,
  });
  const answer = Buffer.from(await response.arrayBuffer());
  void reply.code(response.status);
  for (const name of ['content-type', 'retry-after']) {
    const value = response.headers.get(name);
    if (value !== null) void reply.header(name, value);
  }
  await reply.send(answer);
}

async function bodyOf(request: FastifyRequest): Promise<string | undefined> {
  if (request.body !== undefined && request.body !== null) return JSON.stringify(request.body);
  if (request.method !== 'GET' || request.headers['content-length'] === undefined) return undefined;
  return (await readUnparsedBody(request))?.toString('utf8');
}
