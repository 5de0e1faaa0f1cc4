// Waiting that an abort cuts short: resolves after `ms` (a timer turn even for 0, so a retry loop yields), or at
// once when the signal aborts (never rejects). On the system clock; code with an injected Clock uses clock.ts' sleep.
import { sleep, systemClock } from './clock.js';

export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(systemClock, ms, signal);
}
