// What one API's handler is (handlers/*.ts, listed in handler-table.ts): a thin translation of a decoded request
// into calls of the application layer and of its results into the response body, in the manner of Redpanda's
// handlers/. A handler never writes to the socket; the connection (kafka-connection.ts) encodes its answer.
//
// Ordering (DESIGN.md §3b: a connection's requests are applied and answered in arrival order):
//   'pipelined'  started as soon as it arrives, while earlier requests may still be waiting (a Produce behind a
//                Produce, a Fetch long-polling). Such a handler must apply its effects synchronously, before its
//                first await (a Produce queues its appends, which get their offsets in that order), so that
//                requests started in arrival order take effect in arrival order.
//   'exclusive'  started only once every earlier request of the connection has been answered, and nothing after it
//                starts before it is answered (SASL, admin and group requests, whose effects span awaits).
// Answers always go out in arrival order, whatever order handlers finish in.
import type { ApiName, ResponseInput } from './protocol/apis.js';
import type { KafkaRequest } from './protocol/codec.js';
import type { QuotaKind } from '../security/quota.js';
import type { KafkaServices } from './kafka-services.js';
import type { KafkaSession } from './kafka-session.js';

export type RequestOf<N extends ApiName> = Extract<KafkaRequest, { apiName: N }>;

export type Ordering = 'pipelined' | 'exclusive';

/** A handler's answer when the protocol sends none (Produce with acks=0). */
export const NO_RESPONSE = Symbol('no response');

/**
 * A handler's answer that ends the connection, as Kafka does after a failed SASL exchange (whose error answer is
 * sent first) or a failed Produce with acks=0 (which has no answer): `body`, if given, goes out in its turn, and
 * then the connection closes.
 */
export class CloseConnection<N extends ApiName = ApiName> {
  constructor(
    readonly reason: string,
    readonly body: ResponseInput<N> | null = null,
  ) {}
}

export type HandlerAnswer<N extends ApiName> = ResponseInput<N> | typeof NO_RESPONSE | CloseConnection<N>;

export interface KafkaRequestContext {
  readonly session: KafkaSession;
  readonly services: KafkaServices;
  /** Aborted when the connection closes (long polls stop waiting). */
  readonly signal: AbortSignal;
  /** The size of the request's frame (what producer_byte_rate charges for a Produce). */
  readonly requestBytes: number;
  /**
   * Charges the session's principal `amount` on one of its client quotas and answers how long it is now over it,
   * in ms (0 when it is within it). The connection reads nothing more from the client for the longest such time
   * of a request once its answer is out, and the answer carries it as throttle_time_ms (KIP-219).
   */
  charge(kind: QuotaKind, amount: number): number;
  /** How long the principal is over one of its quotas right now, without charging anything. */
  overQuotaMs(kind: QuotaKind): number;
}

export interface KafkaHandler<N extends ApiName = ApiName> {
  readonly api: N;
  /** The versions the handler implements, all of which are advertised by ApiVersions (advertised-versions.ts). */
  readonly minVersion: number;
  readonly maxVersion: number;
  /**
   * Advertised from a lower version than implemented: Produce, from v0 as Kafka 4 does (apis.ts,
   * ADVERTISED_VERSION_RANGES: librdkafka 2.0 compresses only then); the codec refuses v0-2 and the connection closes.
   */
  readonly advertisedMinVersion?: number;
  readonly ordering: Ordering;
  /** Served before the connection has authenticated (ApiVersions and the SASL requests only). */
  readonly beforeAuthentication?: boolean;
  handle(request: RequestOf<N>, context: KafkaRequestContext): HandlerAnswer<N> | Promise<HandlerAnswer<N>>;
}

/** A handler of any API (the table's element type). */
export type AnyKafkaHandler = { [N in ApiName]: KafkaHandler<N> }[ApiName];

export function defineHandler<N extends ApiName>(handler: KafkaHandler<N>): KafkaHandler<N> {
  return handler;
}
