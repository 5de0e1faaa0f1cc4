// Broker-to-broker routes are not public (DESIGN.md §1): a request must carry the cluster secret, compared in
// constant time. Without it: 401, before any handler runs, so nothing changes. A broker without a secret (one
// broker on the embedded store) accepts no internal request at all.
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { CLUSTER_SECRET_HEADER } from '../cluster/peer-client.js';
import { BrookError } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';

@Injectable()
export class ClusterSecretGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(@Inject(BROKER_CONFIG) config: BrokerConfig) {
    this.expected = config.clusterSecret === null ? null : digest(config.clusterSecret);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const given = request.headers[CLUSTER_SECRET_HEADER];
    if (this.expected !== null && typeof given === 'string' && timingSafeEqual(digest(given), this.expected)) {
      return true;
    }
    throw new BrookError(401, 40101, 'Internal broker route: a valid cluster secret is required.');
  }
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}
