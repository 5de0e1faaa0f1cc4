// What security asks of one WebSocket during its life, as one piece the session calls (whatever carries the
// frames): the socket and each subscription are registered with the StreamGuard, which ends a subscription whose
// rights were revoked (error 40301) and the whole socket when its credential no longer holds; every client frame
// is charged to the principal's request quota and every produce frame to its producer quota, and while one is in
// debt the session stops reading frames (a `throttled` notice says so); each subscription gets the one read check
// and a DeliveryThrottle on the consumer quota.
import type { BrookError } from '../common/brook-error.js';
import type { CancelTimer, Clock } from '../common/clock.js';
import type { StreamCredentials } from '../security/stream-guard.service.js';
import { chargeFrame, DeliveryThrottle, type QuotaAccount } from '../security/stream-quota.js';
import type { GuardedStream } from '../security/stream-reauthorizer.js';
import { webSocketChecks } from './ws-auth.js';
import { throttledFrame, type FrameId, type SubscribeFrame } from './ws-protocol.js';

export interface SocketSecurityDeps {
  /** Who opened the socket, and with what credential (re-checked by the guard). */
  identity: StreamCredentials;
  guard: { register(stream: GuardedStream<StreamCredentials>): () => void };
  /** Security's one read check, asked before every delivery. */
  mayRead: (topic: string) => boolean;
  quotas: QuotaAccount;
  /** The clock of the quota's pauses. */
  clock: Clock;
}

export interface SecuredSocket {
  send(text: string): void;
  /** The credential no longer holds: every subscription gets `error`, then the socket closes. */
  revoke(error: BrookError): void;
  /** Ends one subscription with an error frame (its rights were revoked). */
  endSubscription(id: FrameId, error: BrookError): void;
  /** Frames are not to be read for `waitMs` (0: read again). */
  pauseFrames(waitMs: number): void;
}

export class SocketSecurity {
  private readonly unguard: () => void;
  private pause: CancelTimer | null = null;

  constructor(
    private readonly deps: SocketSecurityDeps,
    private readonly socket: SecuredSocket,
  ) {
    this.unguard = deps.guard.register({ identity: deps.identity, rights: () => [], end: (e) => socket.revoke(e) });
  }

  get principal(): string {
    return this.deps.identity.principal;
  }

  get framesPaused(): boolean {
    return this.pause !== null;
  }

  /** Charges a client frame of `bytes`; over a quota, frames are not read for as long as it says. */
  frameArrived(bytes: number, produces: boolean): void {
    const notice = chargeFrame(this.deps.quotas, this.principal, bytes, produces);
    if (notice === null) return;
    this.socket.send(throttledFrame(notice.quota, notice.waitMs));
    this.pause?.();
    this.pause = this.deps.clock.setTimer(notice.waitMs, () => {
      this.pause = null;
      this.socket.pauseFrames(0);
    });
    this.socket.pauseFrames(notice.waitMs);
  }

  /** Registers a subscription (its rights are those of its subscribe frame); returns its unregistration. */
  guardSubscription(frame: SubscribeFrame): () => void {
    return this.deps.guard.register({
      identity: this.deps.identity,
      rights: () => webSocketChecks(frame as unknown as Record<string, unknown>),
      end: (error) => this.socket.endSubscription(frame.id, error),
    });
  }

  /** The read check and the consumer-quota throttle of one subscription. */
  subscriptionChecks(id: FrameId): { mayRead: (topic: string) => boolean; throttle: DeliveryThrottle } {
    return {
      mayRead: this.deps.mayRead,
      throttle: new DeliveryThrottle(this.deps.quotas, this.principal, ({ quota, waitMs }) =>
        this.socket.send(throttledFrame(quota, waitMs, id)),
      ),
    };
  }

  close(): void {
    this.unguard();
    this.pause?.();
    this.pause = null;
  }
}
