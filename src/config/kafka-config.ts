// The Kafka listener's settings (DESIGN.md §3b), read once at start-up with the rest of the broker config:
//
//   BROOK_KAFKA_ENABLED               true: every broker listens for Kafka clients
//   BROOK_KAFKA_PORT                  9092 (flag --kafka-port)
//   BROOK_KAFKA_HOST                  the address to bind; default BROOK_HOST
//   BROOK_KAFKA_ADVERTISED_LISTENER   host:port clients are told to connect to (Metadata, DescribeCluster);
//                                     default the host of BROOK_ADVERTISED_URL with BROOK_KAFKA_PORT. One listener,
//                                     not Kafka's list of named ones: a deliberate difference of name.
//   BROOK_MAX_CONNECTIONS             Kafka's max.connections: open Kafka connections (10000); one more is closed
//                                     at once. The HTTP listener keeps its own bound, BROOK_CONNECTIONS_MAX.
//   BROOK_CONNECTIONS_MAX_IDLE_MS     Kafka's connections.max.idle.ms (600000): a connection with nothing sent,
//                                     received or in progress for this long is closed
//   BROOK_KAFKA_IN_FLIGHT_REQUESTS_MAX  requests of one connection read and not yet answered (32); beyond it the
//                                     broker stops reading that connection until an answer goes out (Kafka itself
//                                     reads one request at a time per connection)
// Requests are bounded by BROOK_SOCKET_REQUEST_MAX_BYTES, the same setting as the HTTP body bound (Kafka's
// socket.request.max.bytes); TLS follows BROOK_TLS_CERT / BROOK_TLS_KEY / BROOK_TLS_CA like the HTTP listener.
import { boolean, ConfigError, integer, type Env } from './env-values.js';

export interface KafkaListenerConfig {
  enabled: boolean;
  port: number;
  host: string;
  /** Where clients reach this broker's Kafka listener. */
  advertisedHost: string;
  advertisedPort: number;
  maxConnections: number;
  connectionsMaxIdleMs: number;
  inFlightRequestsMax: number;
}

export function loadKafkaConfig(env: Env, defaults: { host: string; advertisedUrl: string }): KafkaListenerConfig {
  const port = integer(env, 'BROOK_KAFKA_PORT', 9092, 1, 65535);
  const advertised = parseListener(env.BROOK_KAFKA_ADVERTISED_LISTENER?.trim() || null);
  return {
    enabled: boolean(env, 'BROOK_KAFKA_ENABLED', true),
    port,
    host: env.BROOK_KAFKA_HOST?.trim() || defaults.host,
    advertisedHost: advertised?.host ?? new URL(defaults.advertisedUrl).hostname.replace(/^\[(.*)\]$/, '$1'),
    advertisedPort: advertised?.port ?? port,
    maxConnections: integer(env, 'BROOK_MAX_CONNECTIONS', 10_000, 1, 1_000_000),
    connectionsMaxIdleMs: integer(env, 'BROOK_CONNECTIONS_MAX_IDLE_MS', 600_000, 100, 2 ** 31 - 1),
    inFlightRequestsMax: integer(env, 'BROOK_KAFKA_IN_FLIGHT_REQUESTS_MAX', 32, 1, 10_000),
  };
}

/** `host:port`, `[v6 address]:port`; null when not set. */
function parseListener(raw: string | null): { host: string; port: number } | null {
  if (raw === null) return null;
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(raw);
  const port = match === null ? NaN : Number(match[3]);
  if (match === null || port < 1 || port > 65535) {
    throw new ConfigError(
      `BROOK_KAFKA_ADVERTISED_LISTENER=${raw} is invalid: expected host:port (such as broker-1.example.com:9092)`,
    );
  }
  return { host: match[1] ?? match[2], port };
}
