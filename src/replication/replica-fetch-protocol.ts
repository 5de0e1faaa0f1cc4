// The follower fetch on the wire (Kafka's Fetch request from a replica, reduced to one partition): an internal
// long-polling route, GET INTERNAL_PREFIX/partitions/<topic>/<partition>/replica-fetch.
//
// Request, as query parameters (all integers):
//   replica_id          the fetching follower's broker id
//   broker_epoch        the follower's broker epoch: the incarnation fetching (KIP-903); the leader refuses an
//                       older one than it has seen (409 40910) and counts a restarted ISR member's fetches for
//                       nothing it did not count before (leader-replica-state.ts)
//   fetch_offset        the follower's log end offset: where it wants to read, and what it tells the leader it has
//   last_fetched_epoch  the latest epoch in the follower's epoch cache (-1 for none): divergence is checked on it
//   leader_epoch        the leader epoch the follower believes in; the leader refuses an older one (409 40905,
//                       fenced) and a newer one (503 50003, it has not learnt it yet)
//   max_bytes, wait_ms  at most this many bytes (but one whole batch at least); wait this long when there is nothing
//
// Answer: status 200, body = record batches exactly as stored (Kafka v2 layout, application/vnd.brook.batches),
// starting at fetch_offset, possibly empty; headers:
//   x-brook-leader-epoch            the leader's epoch (equal to the request's)
//   x-brook-high-watermark          the leader's high watermark
//   x-brook-log-start-offset        the leader's log start offset; a follower whose fetch_offset is below it starts
//                                   its log over there
//   x-brook-diverging-epoch,        present when the follower's log diverges (fetch-divergence.ts): the largest
//   x-brook-diverging-end-offset    epoch both have and where it ends on the leader; the body is then empty and the
//                                   follower truncates (truncationOffset) before fetching again.

export const NEXT_OFFSET_HEADER = 'x-brook-next-offset';
export const HIGH_WATERMARK_HEADER = 'x-brook-high-watermark';
export const LOG_START_OFFSET_HEADER = 'x-brook-log-start-offset';
export const LEADER_EPOCH_HEADER = 'x-brook-leader-epoch';
export const DIVERGING_EPOCH_HEADER = 'x-brook-diverging-epoch';
export const DIVERGING_END_OFFSET_HEADER = 'x-brook-diverging-end-offset';

export interface ReplicaFetchRequest {
  replicaId: number;
  brokerEpoch: number;
  fetchOffset: number;
  lastFetchedEpoch: number;
  leaderEpoch: number;
  maxBytes: number;
  waitMs: number;
}

export interface ReplicaFetchAnswer {
  leaderEpoch: number;
  highWatermark: number;
  logStartOffset: number;
  diverging: { epoch: number; endOffset: number } | null;
  batches: Buffer;
  /**
   * Present when `batches` lies in a reused buffer (the follower's fetch connection): called once the log no
   * longer reads them (the append has settled); never called after a failed append, whose writes may still read.
   */
  release?(): void;
}

/**
 * The answer as the leader writes it: its batches in the pieces it holds them in (kept appends, or one file read),
 * sent one after the other as one body.
 */
export interface LeaderFetchAnswer extends Omit<ReplicaFetchAnswer, 'batches'> {
  batches: readonly Buffer[];
}

export function replicaFetchQuery(request: ReplicaFetchRequest): Record<string, number> {
  return {
    replica_id: request.replicaId,
    broker_epoch: request.brokerEpoch,
    fetch_offset: request.fetchOffset,
    last_fetched_epoch: request.lastFetchedEpoch,
    leader_epoch: request.leaderEpoch,
    max_bytes: request.maxBytes,
    wait_ms: request.waitMs,
  };
}

export function answerHeaders(answer: Omit<ReplicaFetchAnswer, 'batches'>): Record<string, string> {
  const headers: Record<string, string> = {
    [LEADER_EPOCH_HEADER]: String(answer.leaderEpoch),
    [HIGH_WATERMARK_HEADER]: String(answer.highWatermark),
    [LOG_START_OFFSET_HEADER]: String(answer.logStartOffset),
  };
  if (answer.diverging !== null) {
    headers[DIVERGING_EPOCH_HEADER] = String(answer.diverging.epoch);
    headers[DIVERGING_END_OFFSET_HEADER] = String(answer.diverging.endOffset);
  }
  return headers;
}

/** Reads an answer's headers back; throws on a missing or malformed one (a peer that is not a Brook leader). */
export function parseAnswer(
  headers: { get(name: string): string | null },
  batches: Buffer,
  release?: () => void,
): ReplicaFetchAnswer {
  const integer = (name: string): number => {
    const text = headers.get(name);
    const value = Number(text);
    if (text === null || text === '' || !Number.isSafeInteger(value)) {
      throw new Error(`replica fetch answer without a valid ${name} header`);
    }
    return value;
  };
  const diverging =
    headers.get(DIVERGING_EPOCH_HEADER) === null
      ? null
      : { epoch: integer(DIVERGING_EPOCH_HEADER), endOffset: integer(DIVERGING_END_OFFSET_HEADER) };
  return {
    leaderEpoch: integer(LEADER_EPOCH_HEADER),
    highWatermark: integer(HIGH_WATERMARK_HEADER),
    logStartOffset: integer(LOG_START_OFFSET_HEADER),
    diverging,
    batches,
    release,
  };
}
