// The upgrade gate of GET /v3/ws: what is decided before the socket exists, when a refusal is still an HTTP
// answer (Nest's guards run per frame, too late for a 401). The adapter (ws.adapter.ts) calls `identify` for each
// upgrade of the gateway's path. The upgrade does not pass through the REST hooks (Fastify's hooks run for routes,
// not for upgrades), so the checks the REST pipeline makes for every request and that also bind a WebSocket (the
// origin check of CORS, BROOK_CORS_ALLOWED_ORIGINS, when it is set) belong here, before the credentials are read.
// Authentication: a header, `?token=` (browsers cannot set headers on a WebSocket) or the TLS client certificate;
// a refusal is an audit line naming the principal tried.
import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { BrookError } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { originAllowed } from '../config/cors-origins.js';
import { AuditLog } from '../security/audit-log.js';
import { AuthenticationFailure, Authenticator, type Identified } from '../security/authenticator.service.js';
import type { UpgradeGate } from './ws.adapter.js';
import { authenticateUpgrade, hostOfSocket } from './ws-auth.js';
import { asBrookError, WS_PATH } from './ws-protocol.js';

@Injectable()
export class WsUpgrade implements UpgradeGate {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly authenticator: Authenticator,
    private readonly audit: AuditLog,
  ) {}

  async identify(request: IncomingMessage): Promise<Identified> {
    // Browsers apply no CORS to WebSockets: a page of an origin not listed is refused (no Origin header passes).
    const origin = request.headers.origin;
    if (!originAllowed(this.config.corsAllowedOrigins, origin)) {
      throw new BrookError(403, 40301, `Origin ${origin} is not allowed.`);
    }
    try {
      return await authenticateUpgrade(this.authenticator, request);
    } catch (error) {
      const failure = asBrookError(error);
      this.audit.write({
        event: 'authentication.failed',
        principal: error instanceof AuthenticationFailure ? error.attemptedPrincipal : 'User:ANONYMOUS',
        host: hostOfSocket(request),
        method: 'GET',
        route: WS_PATH,
        reason: failure.message,
      });
      throw failure;
    }
  }
}
