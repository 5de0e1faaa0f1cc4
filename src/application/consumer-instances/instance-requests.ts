// The bodies of REST Proxy v2 consumer-instance requests that the service checks itself: the group id of the route
// and a subscription (topics or a pattern). Each failure is Confluent's error for it.
import { errors } from '../../common/brook-error.js';
import { dotSegmentMessage, isDotSegment } from '../../common/url-ids.js';
import type { Subscription } from '../../group-coordinator/group-records.js';
import { topicPatterns, TopicPatternError } from '../../topic/topic-pattern.js';

/** Who subscribes: a pattern matches only topics this principal, from this host, may describe. */
export interface Subscriber {
  principal: string;
  host: string;
}

/** Group ids end up in URLs and keys; Kafka allows any string, Brook bounds the length. */
export const GROUP_ID_MAX_LENGTH = 255;

export function validateGroupId(groupId: string): void {
  if (groupId.length === 0 || groupId.length > GROUP_ID_MAX_LENGTH) {
    throw errors.invalidConsumerConfig(`The group name must be 1 to ${GROUP_ID_MAX_LENGTH} characters.`);
  }
  if (isDotSegment(groupId)) throw errors.invalidConsumerConfig(dotSegmentMessage('The group name'));
}

export function parseSubscription(body: Record<string, unknown>, subscriber: Subscriber): Subscription {
  const { topics, topic_pattern: pattern } = body;
  if (topics !== undefined && pattern !== undefined) {
    throw errors.subscriptionConflict('Subscription to topics, partitions and pattern are mutually exclusive.');
  }
  if (pattern !== undefined) {
    if (typeof pattern !== 'string') throw errors.invalidPayload('topic_pattern must be a string.');
    try {
      topicPatterns.validate(pattern);
    } catch (error) {
      if (error instanceof TopicPatternError) throw errors.invalidPayload(error.message);
      throw error;
    }
    return { pattern, principal: subscriber.principal, host: subscriber.host };
  }
  if (!Array.isArray(topics) || topics.length === 0 || topics.some((t) => typeof t !== 'string' || t.length === 0)) {
    throw errors.invalidPayload('The subscription needs topics (a non-empty array of topic names) or topic_pattern.');
  }
  if (topics.length > 10_000) throw errors.invalidPayload('A subscription names at most 10000 topics.');
  return { topics: [...new Set(topics as string[])] };
}
