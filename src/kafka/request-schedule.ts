// The order in which one connection's requests start and are answered, as a pure state machine (the connection,
// kafka-connection.ts, does the I/O). Requests are kept in arrival order until answered:
//   - a pipelined request starts as soon as every exclusive request before it has finished;
//   - an exclusive request starts once every request before it has finished, and holds back every later one;
//   - nothing starts while the connection is muted (a client over its quota, KIP-219), until `mutedUntilMs`;
//   - answers are released strictly in arrival order: a finished request waits for those before it.
// `full` tells the connection to stop reading the socket: at most `inFlightMax` requests, and (past the first)
// at most `inFlightBytesMax` bytes of request frames, are held between arrival and answer.
export interface ScheduleLimits {
  readonly inFlightMax: number;
  readonly inFlightBytesMax: number;
}

export interface ScheduledRequest<Request, Answer> {
  readonly request: Request;
  readonly exclusive: boolean;
  readonly bytes: number;
  started: boolean;
  finished: boolean;
  /** null: finished without an answer to send. */
  answer: Answer | null;
}

export class RequestSchedule<Request, Answer> {
  /** Arrived and not yet released, in arrival order. */
  private readonly queue: ScheduledRequest<Request, Answer>[] = [];
  private heldBytes = 0;
  private mutedUntil = -Infinity;

  constructor(private readonly limits: ScheduleLimits) {}

  /** Requests held (arrived, not yet released). */
  get held(): number {
    return this.queue.length;
  }

  /** Whether the connection should stop reading until something is released. */
  get full(): boolean {
    return (
      this.queue.length >= this.limits.inFlightMax ||
      (this.queue.length > 1 && this.heldBytes >= this.limits.inFlightBytesMax)
    );
  }

  get mutedUntilMs(): number {
    return this.mutedUntil;
  }

  arrive(request: Request, exclusive: boolean, bytes: number): ScheduledRequest<Request, Answer> {
    const entry: ScheduledRequest<Request, Answer> = {
      request,
      exclusive,
      bytes,
      started: false,
      finished: false,
      answer: null,
    };
    this.queue.push(entry);
    this.heldBytes += bytes;
    return entry;
  }

  /** Holds back every request not started yet until `untilMs` (the longest mute wins). */
  mute(untilMs: number): void {
    this.mutedUntil = Math.max(this.mutedUntil, untilMs);
  }

  /** The requests that may start now, in arrival order; each is marked started. */
  takeStartable(nowMs: number): ScheduledRequest<Request, Answer>[] {
    if (nowMs < this.mutedUntil) return [];
    const startable: ScheduledRequest<Request, Answer>[] = [];
    let unfinishedBefore = false;
    for (const entry of this.queue) {
      if (entry.started) {
        if (!entry.finished) {
          if (entry.exclusive) break;
          unfinishedBefore = true;
        }
        continue;
      }
      if (entry.exclusive) {
        if (unfinishedBefore || startable.length > 0) break;
        entry.started = true;
        startable.push(entry);
        break;
      }
      entry.started = true;
      startable.push(entry);
      unfinishedBefore = true;
    }
    return startable;
  }

  /** Records a started request's outcome; answers the answers now releasable, in arrival order. */
  finish(entry: ScheduledRequest<Request, Answer>, answer: Answer | null): Answer[] {
    if (!entry.started || entry.finished) throw new Error('a request can finish only once, after it started');
    entry.finished = true;
    entry.answer = answer;
    const released: Answer[] = [];
    while (this.queue.length > 0 && this.queue[0].finished) {
      const head = this.queue.shift()!;
      this.heldBytes -= head.bytes;
      if (head.answer !== null) released.push(head.answer);
    }
    return released;
  }
}
