// Ids that end up as segments of URL paths: consumer group ids, v2 instance names (base_uri), member and group
// instance ids (v3 consumer routes). `.` and `..` are dot segments that clients and proxies normalise away
// (RFC 3986 section 5.2.4), so a base_uri or `self` link built from them would name another resource: such ids are
// refused wherever a client chooses one.
export function isDotSegment(id: string): boolean {
  return id === '.' || id === '..';
}

/** The refusal as a predicate, for a message that names the field before it. */
export const DOT_SEGMENT_RULE = "must not be '.' or '..': it becomes a segment of URL paths.";

/** The message of the refusal, naming the field. */
export function dotSegmentMessage(field: string): string {
  return `${field} ${DOT_SEGMENT_RULE}`;
}
