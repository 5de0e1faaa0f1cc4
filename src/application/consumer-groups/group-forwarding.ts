// Consumer groups live on their coordinator: the broker leading the group's __consumer_offsets partition. In a
// cluster any broker accepts a v2 consumer-instance or v3 consumer-group request and forwards it, unchanged, to
// the coordinator's public route; the answer goes back as the coordinator gave it. So a consumer's base_uri may
// point at any broker or a load balancer. This is the decision and the call: which broker coordinates the group
// (none while its offsets partition has no leader: retriable), and the forwarded request with its bound. The HTTP
// edge (http/group-forwarding.hook.ts) decides which requests are about a group and what they carry.
import { Inject, Injectable } from '@nestjs/common';
import { PEER_REQUEST_TIMEOUT_MS, PeerClient } from '../../cluster/peer-client.js';
import type { PeerAnswer } from '../../cluster/peer-http-request.js';
import { errors } from '../../common/brook-error.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { GroupCoordinator } from '../../group-coordinator/group-coordinator.service.js';
import { NO_LEADER } from '../../topic/cluster-metadata.js';

export interface ForwardedRequest {
  method: string;
  /** The path and query, as the client sent them. */
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

@Injectable()
export class GroupForwarding {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly coordinator: GroupCoordinator,
    private readonly peers: PeerClient,
  ) {}

  /** Only a cluster forwards: a single broker coordinates every group itself. */
  get enabled(): boolean {
    return this.config.redisUrl !== null;
  }

  get brokerId(): number {
    return this.config.brokerId;
  }

  /**
   * The address of the broker coordinating the group, or null when it is this broker (or no group can have one
   * yet). A request creating a consumer instance first makes sure the offsets topic exists. Throws a retriable
   * error while the coordinator is not available.
   */
  async coordinatorUrl(groupId: string, createsInstance: boolean): Promise<string | null> {
    if (createsInstance) await this.coordinator.ensureOffsetsTopic();
    const coordinator = this.coordinator.coordinatorOf(groupId);
    if (coordinator === null || coordinator === this.config.brokerId) return null;
    if (coordinator === NO_LEADER) {
      throw errors.retriable(
        `The coordinator of group ${groupId} is not available: its offsets partition has no leader.`,
      );
    }
    const url = await this.peers.brokerUrl(coordinator);
    if (url === null)
      throw errors.retriable(`The coordinator of group ${groupId}, broker ${coordinator}, is not available.`);
    return url;
  }

  /** Sends the request to the coordinator at `coordinatorUrl`, waiting at most a long poll plus a peer call. */
  async forward(groupId: string, coordinatorUrl: string, request: ForwardedRequest): Promise<PeerAnswer> {
    try {
      return await this.peers.peerFetch(new URL(request.url, coordinatorUrl), {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(this.config.readWaitMsMax + PEER_REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw errors.retriable(`The coordinator of group ${groupId} did not answer: ${(error as Error).message}`);
    }
  }
}
