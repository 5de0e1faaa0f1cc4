// Every bound of the WebSocket gateway and of SSE streams, with its environment variable (defaults in
// config/broker-config.ts), and the close codes Brook uses. Nothing a client does grows the broker's memory
// beyond these: frames are capped, subscriptions and partitions per socket are capped, records are read only
// while the client has credits and its socket has room, and a socket that stops reading is closed.

export interface WsLimits {
  /** BROOK_WS_FRAME_BYTES_MAX: largest client frame; a larger one closes the socket with 1009. */
  frameBytesMax: number;
  /** BROOK_WS_SOCKETS_MAX: open WebSockets per broker; one more is closed with 1008. */
  socketsMax: number;
  /** BROOK_WS_SUBSCRIPTIONS_MAX: live subscriptions per socket (an error frame beyond). */
  subscriptionsMax: number;
  /** BROOK_WS_ASSIGN_PARTITIONS_MAX: partitions in one subscription's `assign`. */
  assignPartitionsMax: number;
  /** BROOK_WS_CREDITS_MAX: records a subscription may have granted and not yet received. */
  creditsMax: number;
  /** BROOK_WS_PRODUCE_IN_FLIGHT_MAX: produce frames of one socket being appended; beyond, reading pauses. */
  produceInFlightMax: number;
  /** BROOK_WS_BUFFERED_BYTES_PAUSE: bytes queued for a socket above which nothing more is read for it. */
  bufferedBytesPause: number;
  /** BROOK_WS_BUFFERED_BYTES_MAX: bytes queued for a socket above which it is closed with 4001 at once. */
  bufferedBytesMax: number;
  /** BROOK_WS_SLOW_CONSUMER_TIMEOUT_MS: a socket paused this long is closed with 4001. */
  slowConsumerTimeoutMs: number;
  /** BROOK_WS_PING_INTERVAL_MS: ping period; a socket that has not answered the previous ping is dropped. */
  pingIntervalMs: number;
  /** BROOK_WS_GROUP_SESSION_TIMEOUT_MS: session of a group subscription (heartbeated by pongs), Kafka's 45 s. */
  groupSessionTimeoutMs: number;
  /** BROOK_WS_FETCH_BYTES_MAX: bytes of stored batches read per partition fetch (WebSocket and SSE). */
  fetchBytesMax: number;
  /** BROOK_SSE_STREAMS_MAX: open SSE streams per broker (429 with 42901 beyond). */
  sseStreamsMax: number;
  /** BROOK_SSE_HEARTBEAT_MS: period of the SSE heartbeat comment. */
  sseHeartbeatMs: number;
  /** How often an SSE group stream commits the positions it has written (Kafka's auto.commit.interval.ms). */
  sseAutoCommitIntervalMs: number;
}

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

/** Records per `records` frame, and the default credits of a subscription that names none. */
export const RECORDS_PER_FRAME_MAX = 500;
export const DEFAULT_CREDITS = 500;
/** Long-poll of a partition stream that has caught up, and the pause after an empty read that came back at once. */
export const STREAM_WAIT_MS = 5_000;
export const EMPTY_READ_BACKOFF_MS = 50;
