// Detecting and resolving log divergence between a follower and its leader by leader epochs (KIP-101, KIP-279,
// and KIP-595's divergingEpoch in the fetch): a follower's fetch carries its log end offset and the epoch of its
// last batch; the leader checks them against its own epoch history and, when they disagree, tells the follower
// the largest epoch they share and where that epoch ends on the leader. The follower truncates to the smaller of
// that end and its own end of the same epoch, never to its high watermark, then fetches again from there.

export interface EpochEndOffset {
  epoch: number;
  endOffset: number;
}

/** What the leader knows: its epoch history as `endOffsetFor` (Kafka's LeaderEpochFileCache.endOffsetFor). */
export type EndOffsetForEpoch = (epoch: number) => EpochEndOffset;

/**
 * The leader's check of a fetch at `fetchOffset` whose previous batch has `lastFetchedEpoch`: null when the
 * follower's log is a prefix of the leader's, else the diverging epoch and its end on the leader.
 */
export function divergingEpoch(
  fetchOffset: number,
  lastFetchedEpoch: number,
  leaderEndOffsetFor: EndOffsetForEpoch,
): EpochEndOffset | null {
  if (lastFetchedEpoch < 0) return null; // an empty follower log cannot diverge
  const leader = leaderEndOffsetFor(lastFetchedEpoch);
  if (leader.epoch === lastFetchedEpoch && leader.endOffset >= fetchOffset) return null;
  return leader;
}

/**
 * The offset a follower truncates to on a diverging answer: the smaller of the leader's end of the shared epoch
 * and the follower's own end of that epoch (its data past either is not the leader's). With no shared epoch
 * (`epoch` -1) the follower keeps nothing before the leader's answer offset.
 */
export function truncationOffset(
  diverging: EpochEndOffset,
  followerEndOffsetFor: EndOffsetForEpoch,
  followerLogEndOffset: number,
): number {
  if (diverging.epoch < 0) return Math.min(diverging.endOffset < 0 ? 0 : diverging.endOffset, followerLogEndOffset);
  const own = followerEndOffsetFor(diverging.epoch);
  const ownEnd = own.epoch === diverging.epoch ? own.endOffset : Math.min(own.endOffset, followerLogEndOffset);
  return Math.max(0, Math.min(diverging.endOffset, ownEnd, followerLogEndOffset));
}
