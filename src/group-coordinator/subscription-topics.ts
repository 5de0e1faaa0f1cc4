// Which topics a subscription reads. A topic list names them; a pattern (`topic_pattern`) matches the cluster's
// topics through RE2 (topic/topic-pattern.ts) and, as in Kafka, only those its subscriber may DESCRIBE: the
// subscriber's principal and host are kept with the pattern, and the broker's authorizer is asked through
// TopicVisibility (the security layer provides it; without it every topic is visible). Evaluated at every group
// tick, so a topic created later, or an ACL granted or revoked, changes what the pattern matches and the group
// rebalances. A stored pattern that the bounds of topic-pattern.ts refuse (one subscribed before they existed)
// matches nothing.
import { topicPatterns, TopicPatternError } from '../topic/topic-pattern.js';
import type { Subscription } from './group-records.js';

/** Partition counts of every (non-internal) topic of the cluster; one immutable map per metadata version. */
export type TopicCounts = ReadonlyMap<string, number>;

/** May this principal, from this host, DESCRIBE this topic? */
export type TopicVisibility = (principal: string, host: string, topic: string) => boolean;

/** Injection token of the TopicVisibility the group coordinator asks (SecurityModule provides it). */
export const TOPIC_VISIBILITY = Symbol('TopicVisibility');

/** A pattern subscription written before subscribers were kept with it is evaluated as this principal. */
export const UNKNOWN_SUBSCRIBER = 'User:ANONYMOUS';

export function subscribedTopics(
  subscription: Subscription,
  topics: TopicCounts,
  visible: TopicVisibility | null = null,
): string[] {
  if ('topics' in subscription) return [...subscription.topics];
  const matched = matchedOrNone(subscription.pattern, topics);
  if (visible === null) return [...matched];
  const principal = subscription.principal ?? UNKNOWN_SUBSCRIBER;
  const host = subscription.host ?? '';
  return matched.filter((topic) => visible(principal, host, topic));
}

/** A stored pattern that today's bounds refuse (kept from before them) matches nothing rather than stopping ticks. */
function matchedOrNone(pattern: string, topics: TopicCounts): readonly string[] {
  try {
    return topicPatterns.match(pattern, topics);
  } catch (error) {
    if (error instanceof TopicPatternError) return [];
    throw error;
  }
}
