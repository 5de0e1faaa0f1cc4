// The WebSocket endpoint's close codes and the default credits of a subscription; the bounds themselves (frame
// size, sockets, subscriptions, credits, send queue, ping) are settings, in config/stream-limits.ts.

export const CLOSE_CODES = {
  /** The broker is shutting down. */
  goingAway: 1001,
  /** A broker limit was broken (too many sockets). */
  policyViolation: 1008,
  /** A frame larger than BROOK_WS_FRAME_BYTES_MAX (sent by the ws library itself). */
  frameTooLarge: 1009,
  /** Brook: the client did not read what was sent to it (buffered bytes or pause time past its bound). */
  slowConsumer: 4001,
  /** Brook: the socket's credential no longer holds (user or API key removed, client certificate expired). */
  credentialRevoked: 4003,
} as const;

/** The credits of a subscription that names none: one full `records` frame (RECORDS_PER_FRAME_MAX). */
export const DEFAULT_CREDITS = 500;
