// Rights and credentials of open streams, checked again during their life. A stream (a WebSocket, one of its
// subscriptions, an SSE stream; later a Kafka connection) registers with the identity it was opened by, the rights
// it needs now (READ on the topics it delivers, READ on its group) and how to end it. A pass checks every
// registered stream: a credential that no longer holds (user or API key removed from the users file or given a new
// secret, client certificate expired) or a right that is gone ends the stream with a 40301 error, which the stream
// turns into its error frame and close (WebSocket) or its error event and end (SSE).
//
// A pass runs every BROOK_STREAM_REAUTHORIZE_INTERVAL_MS, and at the next poll after changed() (an ACL change the
// broker learnt of, from this broker or another through the coordination store, or a reload of the users file):
// the owner polls often (REAUTHORIZE_POLL_MS) and calls poll() at once on a change. Pure: time comes from the
// Clock, decisions from the StreamAuthority; the service around it (stream-guard.service.ts) owns the timer.
import { BrookError } from '../common/brook-error.js';
import type { Clock } from '../common/clock.js';
import type { Check } from './authorizer.service.js';

export interface StreamIdentity {
  principal: string;
  host: string;
}

export interface GuardedStream<I extends StreamIdentity = StreamIdentity> {
  readonly identity: I;
  /** The rights the stream needs now; [] when it needs only a valid credential (a WebSocket itself). */
  rights(): readonly Check[];
  /** Ends the stream with this error (called once; the stream is unregistered first). */
  end(error: BrookError): void;
}

export interface StreamAuthority<I extends StreamIdentity = StreamIdentity> {
  /** Why the identity's credential no longer holds, or null while it does. */
  credentialProblem(identity: I, nowMs: number): string | null;
  allowed(identity: I, check: Check): boolean;
}

/** How often the owner polls at most: a change is acted on within this. */
export const REAUTHORIZE_POLL_MS = 250;

export class StreamReauthorizer<I extends StreamIdentity = StreamIdentity> {
  private readonly streams = new Set<GuardedStream<I>>();
  private lastPassMs: number;
  private changePending = false;

  constructor(
    private readonly authority: StreamAuthority<I>,
    private readonly clock: Clock,
    readonly intervalMs: number,
  ) {
    if (!(intervalMs > 0)) throw new Error(`the re-authorization interval must be positive, got ${intervalMs}`);
    this.lastPassMs = clock.monotonicMs();
  }

  get size(): number {
    return this.streams.size;
  }

  /** Registers a stream; the returned function unregisters it (when it ends by itself). */
  register(stream: GuardedStream<I>): () => void {
    this.streams.add(stream);
    return () => this.streams.delete(stream);
  }

  /** ACLs or credentials changed: the next poll runs a pass whatever the time. */
  changed(): void {
    this.changePending = true;
  }

  /** Runs a pass when one is due; returns how many streams it ended (0 when no pass ran). */
  poll(): number {
    const now = this.clock.monotonicMs();
    if (!this.changePending && now - this.lastPassMs < this.intervalMs) return 0;
    this.changePending = false;
    this.lastPassMs = now;
    return this.pass();
  }

  private pass(): number {
    const nowMs = this.clock.nowMs();
    let ended = 0;
    for (const stream of [...this.streams]) {
      if (!this.streams.has(stream)) continue; // ended by another stream's end (a socket closing its subscriptions)
      const error = this.refusal(stream, nowMs);
      if (error === null) continue;
      this.streams.delete(stream);
      ended++;
      stream.end(error);
    }
    return ended;
  }

  private refusal(stream: GuardedStream<I>, nowMs: number): BrookError | null {
    const { principal } = stream.identity;
    const problem = this.authority.credentialProblem(stream.identity, nowMs);
    if (problem !== null) return revoked(`${principal} may not stream any more: ${problem}.`);
    const failed = stream.rights().find((check) => !this.authority.allowed(stream.identity, check));
    if (failed === undefined) return null;
    const what = `${failed.operation} ${failed.resource.type.toLowerCase()} '${failed.resource.name}'`;
    return revoked(`${principal} is no longer authorized to ${what}; the stream is ended.`);
  }
}

function revoked(message: string): BrookError {
  return new BrookError(403, 40301, message);
}
