// Every bound of the WebSocket endpoint and of SSE streams, with its environment variable and default, read once at
// start-up with the rest of the broker config. Nothing a client does grows the broker's memory beyond these:
// frames are capped, subscriptions and partitions per socket are capped, records are read only while the client
// has credits and its socket has room, and a socket that stops reading is closed.
import { ConfigError, integer, type Env } from './env-values.js';

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

export function wsLimitsFromEnv(env: Env): WsLimits {
  const limits: WsLimits = {
    frameBytesMax: integer(env, 'BROOK_WS_FRAME_BYTES_MAX', 1_048_576, 1024, 64 * 1024 * 1024),
    socketsMax: integer(env, 'BROOK_WS_SOCKETS_MAX', 10_000, 1, 1_000_000),
    subscriptionsMax: integer(env, 'BROOK_WS_SUBSCRIPTIONS_MAX', 16, 1, 1024),
    assignPartitionsMax: integer(env, 'BROOK_WS_ASSIGN_PARTITIONS_MAX', 1024, 1, 100_000),
    creditsMax: integer(env, 'BROOK_WS_CREDITS_MAX', 10_000, 1, 1_000_000),
    produceInFlightMax: integer(env, 'BROOK_WS_PRODUCE_IN_FLIGHT_MAX', 64, 1, 10_000),
    bufferedBytesPause: integer(env, 'BROOK_WS_BUFFERED_BYTES_PAUSE', 1_048_576, 1024, 2 ** 31 - 1),
    bufferedBytesMax: integer(env, 'BROOK_WS_BUFFERED_BYTES_MAX', 8 * 1_048_576, 2048, 2 ** 31 - 1),
    slowConsumerTimeoutMs: integer(env, 'BROOK_WS_SLOW_CONSUMER_TIMEOUT_MS', 30_000, 100),
    pingIntervalMs: integer(env, 'BROOK_WS_PING_INTERVAL_MS', 15_000, 100),
    groupSessionTimeoutMs: integer(env, 'BROOK_WS_GROUP_SESSION_TIMEOUT_MS', 45_000, 100),
    fetchBytesMax: integer(env, 'BROOK_WS_FETCH_BYTES_MAX', 256 * 1024, 1024, 64 * 1024 * 1024),
    sseStreamsMax: integer(env, 'BROOK_SSE_STREAMS_MAX', 1_000, 1, 1_000_000),
    sseHeartbeatMs: integer(env, 'BROOK_SSE_HEARTBEAT_MS', 15_000, 100),
    sseAutoCommitIntervalMs: integer(env, 'BROOK_SSE_AUTO_COMMIT_INTERVAL_MS', 5_000, 10, 3_600_000),
  };
  if (limits.bufferedBytesMax <= limits.bufferedBytesPause) {
    throw new ConfigError(
      `BROOK_WS_BUFFERED_BYTES_MAX=${limits.bufferedBytesMax} is invalid: it must exceed BROOK_WS_BUFFERED_BYTES_PAUSE (${limits.bufferedBytesPause})`,
    );
  }
  if (limits.groupSessionTimeoutMs <= limits.pingIntervalMs) {
    throw new ConfigError(
      `BROOK_WS_GROUP_SESSION_TIMEOUT_MS=${limits.groupSessionTimeoutMs} is invalid: it must exceed BROOK_WS_PING_INTERVAL_MS (${limits.pingIntervalMs}), since pongs are the heartbeats`,
    );
  }
  return limits;
}
