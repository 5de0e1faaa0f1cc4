/**
 * Topic name rules, as Kafka's `org.apache.kafka.common.internals.Topic`:
 * - one or more of `[a-zA-Z0-9._-]`, at most 249 characters, and neither `.` nor `..`;
 * - `.` and `_` collide in metric names, so Kafka refuses to create a topic whose name equals an existing topic's
 *   once every `.` is replaced by `_` (`InvalidTopicException: Topic 'a_b' collides with existing topic: a.b`);
 * - names starting with `__` are legal but reserved for internal topics (`__consumer_offsets`,
 *   `__transaction_state`); Kafka only warns when a user creates one, and so does Brook.
 * Brook's built-in schema registry keeps its schemas in `_schemas` (the name Confluent's registry uses): internal
 * too, so that clients may read it but only the registry writes it.
 */

export const MAX_TOPIC_NAME_LENGTH = 249;

/** Kafka's `Topic.LEGAL_CHARS`. */
export const TOPIC_LEGAL_CHARS = '[a-zA-Z0-9._-]';

export const GROUP_METADATA_TOPIC_NAME = '__consumer_offsets';
export const TRANSACTION_STATE_TOPIC_NAME = '__transaction_state';
export const SCHEMAS_TOPIC_NAME = '_schemas';

/** Topics reported with `is_internal: true`: Kafka's, and the schema registry's. */
export const INTERNAL_TOPICS: ReadonlySet<string> = new Set([
  GROUP_METADATA_TOPIC_NAME,
  TRANSACTION_STATE_TOPIC_NAME,
  SCHEMAS_TOPIC_NAME,
]);

/** The prefix Kafka reserves for internal topics. */
export const RESERVED_TOPIC_PREFIX = '__';

const LEGAL_NAME = /^[a-zA-Z0-9._-]+$/;

/**
 * The reason `name` is not a legal topic name, worded as Kafka's `InvalidTopicException`
 * ("Topic name is invalid: ..."), or null when it is legal.
 */
export function validateTopicName(name: string): string | null {
  const reason = invalidReason(name);
  return reason === null ? null : `Topic name is invalid: ${reason}`;
}

function invalidReason(name: unknown): string | null {
  if (typeof name !== 'string') return 'it must be a string';
  if (name.length === 0) return 'the empty string is not allowed';
  if (name === '.') return "'.' is not allowed";
  if (name === '..') return "'..' is not allowed";
  if (name.length > MAX_TOPIC_NAME_LENGTH) {
    return `the length of '${name}' is longer than the max allowed length ${MAX_TOPIC_NAME_LENGTH}`;
  }
  if (!LEGAL_NAME.test(name)) {
    return `'${name}' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'`;
  }
  return null;
}

/** True for the internal topics (`__consumer_offsets`, `__transaction_state`, `_schemas`). */
export function isInternalTopic(name: string): boolean {
  return INTERNAL_TOPICS.has(name);
}

/** True when `name` starts with `__`: legal, but the namespace of internal topics. */
export function hasReservedPrefix(name: string): boolean {
  return name.startsWith(RESERVED_TOPIC_PREFIX);
}

/** Kafka's `Topic.hasCollisionChars`: the name contains `.` or `_`. */
export function hasCollisionChars(name: string): boolean {
  return name.includes('.') || name.includes('_');
}

/** Kafka's `Topic.unifyCollisionChars`: every `.` replaced by `_` (only for comparing, never for storing). */
export function unifyCollisionChars(name: string): string {
  return name.replaceAll('.', '_');
}

/**
 * True when two *different* names would collide in metric names (they differ only by `.` versus `_` at the same
 * positions). Kafka's `Topic.hasCollision` is also true for equal names; Brook leaves that case out because an equal
 * name is a different error (topic already exists, 40002), checked before this one.
 */
export function topicCollides(a: string, b: string): boolean {
  return a !== b && unifyCollisionChars(a) === unifyCollisionChars(b);
}

/**
 * The existing topic that `name` collides with, or null. When several collide, the least name is returned so that
 * the message is deterministic. Only names with `.` or `_` can collide, so others return at once, as in Kafka.
 */
export function findCollidingTopic(name: string, existing: Iterable<string>): string | null {
  if (!hasCollisionChars(name)) return null;
  let found: string | null = null;
  for (const other of existing) {
    if (topicCollides(name, other) && (found === null || other < found)) found = other;
  }
  return found;
}

/** Kafka's message (KRaft controller) when a new topic collides with an existing one. */
export function topicCollisionMessage(name: string, existing: string): string {
  return `Topic '${name}' collides with existing topic: ${existing}`;
}
