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
} as const;

/** Records per `records` frame, and the default credits of a subscription that names none. */
export const RECORDS_PER_FRAME_MAX = 500;
export const DEFAULT_CREDITS = 500;
/** Long-poll of a partition stream that has caught up, and the pause after an empty read that came back at once. */
export const STREAM_WAIT_MS = 5_000;
export const EMPTY_READ_BACKOFF_MS = 50;
