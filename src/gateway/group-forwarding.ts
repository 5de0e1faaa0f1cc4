// Consumer groups live on their coordinator: the broker leading the group's __consumer_offsets partition. In a
// cluster any broker accepts a v2 consumer-instance or v3 consumer-group request and forwards it, unchanged, to
// the coordinator's public route (marked with FORWARDED_HEADER so it is never forwarded twice); the answer goes
// back as the coordinator gave it. So a consumer's base_uri may point at any broker or a load balancer. The
// forwarded request carries the cluster secret, the request id and the principal this broker authenticated (the
// coordinator believes it from a peer, security-hooks.ts): a user known by a client certificate stays that user.
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CLIENT_HOST_HEADER, PEER_REQUEST_TIMEOUT_MS, PeerClient, PRINCIPAL_HEADER } from '../cluster/peer-client.js';
import { BrookError, errors } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { GroupCoordinator } from '../group-coordinator/group-coordinator.service.js';
import { NO_LEADER } from '../topic/cluster-metadata.js';
import { hostOf, principalOf } from '../security/security-hooks.js';
import { readUnparsedBody } from './unparsed-body.js';

export const FORWARDED_HEADER = 'x-brook-forwarded-by';
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

@Injectable()
export class GroupForwarding {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly coordinator: GroupCoordinator,
    private readonly peers: PeerClient,
  ) {}

  /** Adds the forwarding step before every route's handler (cluster mode only). */
  register(app: FastifyInstance): void {
    if (this.config.redisUrl === null) return;
    app.addHook('preHandler', async (request, reply) => {
      try {
        await this.forwardIfRemote(request, reply);
      } catch (error) {
        const failure = error instanceof BrookError ? error : errors.retriable((error as Error).message);
        await reply.code(failure.status).header('content-type', 'application/json').send({
          error_code: failure.errorCode,
          message: failure.message,
        });
      }
    });
  }

  private async forwardIfRemote(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const groupId = groupOfPath(request.url);
    if (groupId === null || request.headers[FORWARDED_HEADER] !== undefined) return;
    if (request.method === 'POST' && CREATE_INSTANCE.test(request.url)) await this.coordinator.ensureOffsetsTopic();
    const coordinator = this.coordinator.coordinatorOf(groupId);
    if (coordinator === null || coordinator === this.config.brokerId) return;
    if (coordinator === NO_LEADER) {
      throw errors.retriable(
        `The coordinator of group ${groupId} is not available: its offsets partition has no leader.`,
      );
    }
    const url = await this.peers.brokerUrl(coordinator);
    if (url === null)
      throw errors.retriable(`The coordinator of group ${groupId}, broker ${coordinator}, is not available.`);
    const headers: Record<string, string> = {
      [FORWARDED_HEADER]: String(this.config.brokerId),
      [PRINCIPAL_HEADER]: principalOf(request),
      [CLIENT_HOST_HEADER]: hostOf(request),
    };
    for (const name of PASSED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const body = await bodyOf(request);
    let response: Response;
    try {
      response = await this.peers.peerFetch(new URL(request.url, url), {
        method: request.method,
        headers,
        body,
        signal: AbortSignal.timeout(this.config.readWaitMsMax + PEER_REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw errors.retriable(`The coordinator of group ${groupId} did not answer: ${(error as Error).message}`);
    }
    const answer = Buffer.from(await response.arrayBuffer());
    void reply.code(response.status);
    for (const name of ['content-type', 'retry-after']) {
      const value = response.headers.get(name);
      if (value !== null) void reply.header(name, value);
    }
    await reply.send(answer);
  }
}

async function bodyOf(request: FastifyRequest): Promise<string | undefined> {
  if (request.body !== undefined && request.body !== null) return JSON.stringify(request.body);
  if (request.method !== 'GET' || request.headers['content-length'] === undefined) return undefined;
  return (await readUnparsedBody(request))?.toString('utf8');
}
