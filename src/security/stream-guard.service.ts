// The broker's StreamReauthorizer (stream-reauthorizer.ts) with its timer and its triggers: it polls every
// REAUTHORIZE_POLL_MS (a pass runs every BROOK_STREAM_REAUTHORIZE_INTERVAL_MS) and at once when the ACLs change
// (on this broker or, through the coordination store's watch, on another) or the users file is reloaded.
// WebSocket sessions and subscriptions and SSE streams register here with the identity they were opened by. Each
// stream it ends is an audit line (authorization.revoked) with the principal, the host and the reason.
import { Inject, Injectable, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { type CancelTimer, type Clock, CLOCK, everyMs, systemClock } from '../common/clock.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { Authenticator, type Credential } from './authenticator.service.js';
import { AuditLog } from './audit-log.js';
import { Authorizer } from './authorizer.service.js';
import {
  REAUTHORIZE_POLL_MS,
  StreamReauthorizer,
  type GuardedStream,
  type StreamIdentity,
} from './stream-reauthorizer.js';

export interface StreamCredentials extends StreamIdentity {
  credential: Credential;
}

@Injectable()
export class StreamGuard implements OnModuleInit, OnModuleDestroy {
  private readonly reauthorizer: StreamReauthorizer<StreamCredentials>;
  private stopPolling: CancelTimer | null = null;

  constructor(
    @Inject(BROKER_CONFIG) config: BrokerConfig,
    private readonly authenticator: Authenticator,
    private readonly authorizer: Authorizer,
    private readonly audit: AuditLog,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {
    this.reauthorizer = new StreamReauthorizer<StreamCredentials>(
      {
        credentialProblem: (identity, nowMs) => authenticator.credentialProblem(identity.credential, nowMs),
        allowed: ({ principal, host }, check) => authorizer.authorize(principal, host, check.operation, check.resource),
      },
      clock,
      config.security.streamReauthorizeIntervalMs,
    );
  }

  onModuleInit(): void {
    const changed = () => {
      this.reauthorizer.changed();
      this.reauthorizer.poll();
    };
    this.authorizer.onChange(changed);
    this.authenticator.onCredentialsChange(changed);
    const pollMs = Math.min(REAUTHORIZE_POLL_MS, this.reauthorizer.intervalMs);
    this.stopPolling = everyMs(this.clock, pollMs, () => this.reauthorizer.poll());
  }

  onModuleDestroy(): void {
    this.stopPolling?.();
  }

  /** Registers an open stream; call the returned function when it ends by itself. */
  register(stream: GuardedStream<StreamCredentials>): () => void {
    const { principal, host } = stream.identity;
    return this.reauthorizer.register({
      identity: stream.identity,
      rights: () => stream.rights(),
      end: (error) => {
        this.audit.write({ event: 'authorization.revoked', principal, host, reason: error.message });
        stream.end(error);
      },
    });
  }
}
