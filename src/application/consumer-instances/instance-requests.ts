// The v2 consumer-instance requests that the service checks itself: the group id of the route, and what a
// subscription's pattern means (the REST edge has validated the body's shape). Each failure is Confluent's error.
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
/** The most topics a subscription names. */
export const SUBSCRIPTION_TOPICS_MAX = 10_000;

/** Confluent's ConsumerSubscriptionRecord: topics, or a topic_pattern (a regular expression), never both. */
export interface SubscriptionBody {
  topics?: string[] | null;
  topic_pattern?: string | null;
}

export function validateGroupId(groupId: string): void {
  if (groupId.length === 0 || groupId.length > GROUP_ID_MAX_LENGTH) {
    throw errors.invalidConsumerConfig(`The group name must be 1 to ${GROUP_ID_MAX_LENGTH} characters.`);
  }
  if (isDotSegment(groupId)) throw errors.invalidConsumerConfig(dotSegmentMessage('The group name'));
}

export function parseSubscription(body: SubscriptionBody, subscriber: Subscriber): Subscription {
  const pattern = body.topic_pattern;
  if (typeof pattern === 'string') {
    try {
      topicPatterns.validate(pattern);
    } catch (error) {
      if (error instanceof TopicPatternError) throw errors.invalidPayload(error.message);
      throw error;
    }
    return { pattern, principal: subscriber.principal, host: subscriber.host };
  }
  return { topics: [...new Set(body.topics ?? [])] };
}
