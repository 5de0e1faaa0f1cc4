// Broker-to-broker routes are not public (DESIGN.md §1): a request must come from a peer (cluster/peer-auth.ts: the
// cluster secret, and a broker certificate when BROOK_TLS_PEER_CA is set). Otherwise: 401, before any handler runs,
// so nothing changes. A broker without a secret (one broker on the embedded store) accepts no internal request.
// Each refusal is an audit line (authentication.failed), naming the principal the request spoke for, if any.
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PeerAuthenticator } from '../cluster/peer-auth.js';
import { BrookError } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { PRINCIPAL_HEADER } from '../cluster/peer-client.js';
import { AuditLog } from '../security/audit-log.js';
import { hostOf } from '../security/request-identity.js';

/** Longest principal name taken from a refused request's header into the audit line. */
const AUDITED_PRINCIPAL_CHARS_MAX = 256;

@Injectable()
export class ClusterSecretGuard implements CanActivate {
  private readonly peers: PeerAuthenticator;

  constructor(
    @Inject(BROKER_CONFIG) config: BrokerConfig,
    private readonly audit: AuditLog,
  ) {
    this.peers = new PeerAuthenticator(config);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const check = this.peers.check(request.raw);
    if (check.ok) return true;
    const spokenFor = request.headers[PRINCIPAL_HEADER];
    this.audit.write({
      event: 'authentication.failed',
      request_id: request.id,
      principal: typeof spokenFor === 'string' ? spokenFor.slice(0, AUDITED_PRINCIPAL_CHARS_MAX) : 'User:ANONYMOUS',
      host: hostOf(request),
      method: request.method,
      route: request.routeOptions.url ?? request.url.split('?', 1)[0],
      reason: `internal broker route: ${check.reason}`,
    });
    throw new BrookError(401, 40101, `Internal broker route: ${check.reason}.`);
  }
}
