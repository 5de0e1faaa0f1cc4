// Client quotas on streams, in the streaming shape: a stream over its quota is slowed down, never refused or
// closed (Kafka delays its answers and mutes the channel). Pure pieces over the charging API (QuotaAccount, the
// QuotaManager's) with the clock passed in; the WebSocket session and the SSE stream call them.
//
//   DeliveryThrottle  consumer_byte_rate for what a stream delivers: while the principal's bucket is in debt the
//                     stream delivers nothing (room() 0) until waitMs() has passed; otherwise a delivery takes at
//                     most as many records as the bucket holds at the stream's average record size (at least one),
//                     so one delivery overdraws the bucket by at most one record's worth and the rate over time is
//                     the quota. Each delivery is charged with the bytes actually sent.
//   frameWaitMs       request_rate for every client frame, and producer_byte_rate for a produce frame: charged on
//                     arrival; the wait is how long the stream stops reading frames (credit withheld: TCP
//                     back-pressure slows the client down).
// Both say when a throttle starts (onThrottled), which the stream reports with a `throttled` notice.
import type { QuotaKind } from './quota.js';

export interface QuotaAccount {
  waitMs(principal: string, kind: QuotaKind, needed?: number): number;
  charge(principal: string, kind: QuotaKind, amount: number): void;
  available(principal: string, kind: QuotaKind): number;
}

export interface ThrottleNotice {
  quota: QuotaKind;
  waitMs: number;
}

/** The average record size assumed before a stream has delivered any. */
const FIRST_RECORD_BYTES_GUESS = 1_024;

export class DeliveryThrottle {
  private recordsDelivered = 0;
  private bytesDelivered = 0;
  private throttled = false;

  constructor(
    private readonly quotas: QuotaAccount,
    private readonly principal: string,
    private readonly onThrottled: (notice: ThrottleNotice) => void,
  ) {}

  /** Milliseconds until the stream may deliver again; 0 when it may now. Reports the start of a throttle. */
  waitMs(): number {
    const waitMs = this.quotas.waitMs(this.principal, 'consumer_byte_rate', 0);
    if (waitMs > 0 && !this.throttled) this.onThrottled({ quota: 'consumer_byte_rate', waitMs });
    this.throttled = waitMs > 0;
    return waitMs;
  }

  /** How many of `wanted` records the stream may deliver now. */
  records(wanted: number): number {
    if (wanted <= 0 || this.waitMs() > 0) return 0;
    const available = this.quotas.available(this.principal, 'consumer_byte_rate');
    if (available === Infinity) return wanted;
    const averageBytes =
      this.recordsDelivered === 0 ? FIRST_RECORD_BYTES_GUESS : this.bytesDelivered / this.recordsDelivered;
    return Math.max(1, Math.min(wanted, Math.floor(available / averageBytes)));
  }

  delivered(records: number, bytes: number): void {
    this.recordsDelivered += records;
    this.bytesDelivered += bytes;
    this.quotas.charge(this.principal, 'consumer_byte_rate', bytes);
  }
}

/**
 * Charges one client frame (request_rate 1, and its bytes to producer_byte_rate when it produces); returns how long
 * to stop reading frames, with the quota that asks for it, or null when the stream may read on.
 */
export function chargeFrame(
  quotas: QuotaAccount,
  principal: string,
  frameBytes: number,
  produces: boolean,
): ThrottleNotice | null {
  quotas.charge(principal, 'request_rate', 1);
  let notice: ThrottleNotice | null = null;
  const requestWait = quotas.waitMs(principal, 'request_rate', 1);
  if (requestWait > 0) notice = { quota: 'request_rate', waitMs: requestWait };
  if (produces) {
    quotas.charge(principal, 'producer_byte_rate', frameBytes);
    const produceWait = quotas.waitMs(principal, 'producer_byte_rate', 0);
    if (produceWait > (notice?.waitMs ?? 0)) notice = { quota: 'producer_byte_rate', waitMs: produceWait };
  }
  return notice;
}
