// Flow control of one stream, as two small state machines with no I/O (the session feeds them and acts on the
// answer):
//
// CreditWindow, per subscription. The client grants credits (the subscription's initial `credits`, then each
// `credit {n}`); each record sent spends one. Invariant: records sent <= credits granted, at every moment, and
// 0 <= available <= max (a grant that would pass `max` is refused whole, so a client cannot make the broker
// hold an unbounded promise).
//
// SendPressure, per socket, with an injected clock. Transitions, driven by the bytes queued for the socket:
//   flowing -> paused   when queued >= pauseBytes (nothing more is read from the log for this socket)
//   paused  -> flowing  when queued <= pauseBytes / 2 (hysteresis, so a busy socket does not flap)
//   flowing | paused -> closed  when queued > maxBytes, or after slowTimeoutMs spent paused without a break
//   closed is final.
import type { Clock } from '../common/clock.js';

export class CreditWindow {
  private availableCredits: number;
  private sentTotal = 0;
  private grantedTotal: number;

  constructor(
    initial: number,
    readonly max: number,
  ) {
    if (!Number.isSafeInteger(initial) || initial < 0 || initial > max)
      throw new RangeError(`initial credits ${initial} outside [0, ${max}]`);
    this.availableCredits = initial;
    this.grantedTotal = initial;
  }

  get available(): number {
    return this.availableCredits;
  }

  /** Records sent and credits granted since the start; sent never exceeds granted. */
  get totals(): { sent: number; granted: number } {
    return { sent: this.sentTotal, granted: this.grantedTotal };
  }

  /** Adds n credits; false (and no change) when that would pass the maximum. */
  grant(n: number): boolean {
    if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`credit grant ${n} must be a positive integer`);
    if (this.availableCredits + n > this.max) return false;
    this.availableCredits += n;
    this.grantedTotal += n;
    return true;
  }

  /** Spends up to `wanted` credits; returns how many records may be sent now. */
  take(wanted: number): number {
    const taken = Math.max(0, Math.min(wanted, this.availableCredits));
    this.availableCredits -= taken;
    this.sentTotal += taken;
    if (this.sentTotal > this.grantedTotal || this.availableCredits < 0)
      throw new Error('credit window invariant broken: sent more than granted');
    return taken;
  }
}

export type PressureState = 'flowing' | 'paused' | 'closed';

export interface PressureLimits {
  pauseBytes: number;
  maxBytes: number;
  slowTimeoutMs: number;
}

export class SendPressure {
  private current: PressureState = 'flowing';
  private pausedSinceMs = 0;
  private why = '';

  constructor(
    private readonly limits: PressureLimits,
    private readonly clock: Clock,
  ) {
    if (!(limits.pauseBytes > 0 && limits.maxBytes > limits.pauseBytes && limits.slowTimeoutMs > 0))
      throw new RangeError('pressure limits must satisfy 0 < pauseBytes < maxBytes and slowTimeoutMs > 0');
  }

  get state(): PressureState {
    return this.current;
  }

  /** Why the socket was closed (empty unless closed). */
  get reason(): string {
    return this.why;
  }

  /** Feeds the bytes now queued for the socket; returns the state after the transition. */
  observe(queuedBytes: number): PressureState {
    if (this.current === 'closed') return this.current;
    if (queuedBytes > this.limits.maxBytes) {
      return this.close(`${queuedBytes} bytes queued for a client that does not read (limit ${this.limits.maxBytes})`);
    }
    if (this.current === 'flowing' && queuedBytes >= this.limits.pauseBytes) {
      this.current = 'paused';
      this.pausedSinceMs = this.clock.monotonicMs();
    } else if (this.current === 'paused' && queuedBytes <= this.limits.pauseBytes / 2) {
      this.current = 'flowing';
    }
    return this.check();
  }

  /** Checks the pause timeout without new information (called periodically). */
  check(): PressureState {
    if (this.current === 'paused' && this.clock.monotonicMs() - this.pausedSinceMs >= this.limits.slowTimeoutMs) {
      return this.close(`client read nothing for ${this.limits.slowTimeoutMs} ms while records were waiting`);
    }
    return this.current;
  }

  private close(reason: string): PressureState {
    this.current = 'closed';
    this.why = reason;
    return this.current;
  }
}
