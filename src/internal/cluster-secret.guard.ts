// Broker-to-broker routes are not public (DESIGN.md §1): a request must come from a peer (cluster/peer-auth.ts: the
// cluster secret, and a broker certificate when BROOK_TLS_PEER_CA is set). Otherwise: 401, before any handler runs,
// so nothing changes. A broker without a secret (one broker on the embedded store) accepts no internal request.
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PeerAuthenticator } from '../cluster/peer-auth.js';
import { BrookError } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';

@Injectable()
export class ClusterSecretGuard implements CanActivate {
  private readonly peers: PeerAuthenticator;

  constructor(@Inject(BROKER_CONFIG) config: BrokerConfig) {
    this.peers = new PeerAuthenticator(config);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const check = this.peers.check(request.raw);
    if (check.ok) return true;
    throw new BrookError(401, 40101, `Internal broker route: ${check.reason}.`);
  }
}
