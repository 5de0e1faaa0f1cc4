// The context one request's handler runs in (KafkaRequestContext, kafka-handler.ts): the connection's session, the
// services, the connection's abort signal, and the client quotas charged to the session's principal, whose
// longest excess becomes the request's throttle time.
import type { QuotaKind } from '../security/quota.js';
import type { KafkaRequestContext } from './kafka-handler.js';
import type { KafkaServices } from './kafka-services.js';
import type { KafkaSession } from './kafka-session.js';

/**
 * The longest a connection is held for a client over its quota after one request (Kafka's bound is its quota
 * window, 11 samples of 1 s): a request far over the quota is not answered with an hour of silence, the debt in
 * the bucket carries over to the next requests instead.
 */
export const THROTTLE_MS_MAX = 11_000;

export class RequestContext implements KafkaRequestContext {
  /** The longest time this request put the principal over one of its quotas. */
  throttleMs = 0;

  constructor(
    readonly session: KafkaSession,
    readonly services: KafkaServices,
    readonly signal: AbortSignal,
    readonly requestBytes: number,
  ) {}

  charge(kind: QuotaKind, amount: number): number {
    const quotas = this.services.quotas;
    quotas.charge(this.session.principal, kind, amount);
    const overMs = Math.min(THROTTLE_MS_MAX, quotas.waitMs(this.session.principal, kind, 0));
    this.throttleMs = Math.max(this.throttleMs, overMs);
    return overMs;
  }

  overQuotaMs(kind: QuotaKind): number {
    return Math.min(THROTTLE_MS_MAX, this.services.quotas.waitMs(this.session.principal, kind, 0));
  }
}
