// The broker is the group client of its WebSocket and SSE members, so it does with a coordinator's retriable
// answers what Kafka's consumers do with COORDINATOR_LOAD_IN_PROGRESS, NOT_COORDINATOR and
// COORDINATOR_NOT_AVAILABLE: it asks again after a pause, a bounded number of times, instead of handing the error to
// the client. Retriable here means a 503 (50003: the coordinator is loading its state or moved; 50302: no broker or
// coordinator can be reached right now); any other answer is the member's to report. Pure but for the injected
// sleep.
import { BrookError } from '../../common/brook-error.js';

/** Attempts of one coordinator request (the first included). */
export const COORDINATOR_ATTEMPTS_MAX = 20;
/** The pause after the first retriable answer; it doubles up to COORDINATOR_BACKOFF_MS_MAX (about 17 s in all). */
export const COORDINATOR_BACKOFF_MS_MIN = 100;
export const COORDINATOR_BACKOFF_MS_MAX = 1_000;

export interface RetryPorts {
  sleep(ms: number): Promise<void>;
  /** True once the member no longer needs the answer (its stream closed): no more attempts. */
  abandoned(): boolean;
}

export function isRetriableCoordinatorError(error: unknown): boolean {
  return error instanceof BrookError && error.status === 503;
}

/** Runs `request` until it answers, fails with a non-retriable error, is abandoned, or runs out of attempts. */
export async function withCoordinatorRetries<T>(request: () => Promise<T>, ports: RetryPorts): Promise<T> {
  let backoffMs = COORDINATOR_BACKOFF_MS_MIN;
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (!isRetriableCoordinatorError(error) || attempt >= COORDINATOR_ATTEMPTS_MAX || ports.abandoned()) throw error;
    }
    await ports.sleep(backoffMs);
    backoffMs = Math.min(backoffMs * 2, COORDINATOR_BACKOFF_MS_MAX);
  }
}
