// Routing to partition leaders (DESIGN.md §1, the `topic` module's "routing to partition leaders"): produce, read
// and offset requests go to the local replica manager when this broker leads the partition, and otherwise to the
// leader's internal routes (internal.controller.ts), record batches travelling unchanged. A partition without a
// leader, or whose leader cannot be reached, answers 40404 leader not available: the client retries. A produce
// forwarded to a leader whose connection broke after the request was sent (or timed out) may have been appended:
// 503 50003 with an unknown outcome (brook-error.ts), which a client must not retry blindly.
import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  BATCHES_MEDIA_TYPE,
  PEER_REQUEST_TIMEOUT_MS,
  PeerClient,
  PeerUnreachableError,
} from '../cluster/peer-client.js';
import type { PeerAnswer } from '../cluster/peer-http-request.js';
import { BrookError, errors, FENCED_LEADER_EPOCH_CODE } from '../common/brook-error.js';
import { type Clock, CLOCK, sleep, systemClock } from '../common/clock.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import type { AppendInfo } from '../partition-log/partition-log.js';
import { NO_LEADER } from '../topic/cluster-metadata.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import { type Acks, type PartitionRead, type ProduceOptions, ReplicaManager } from './replica-manager.service.js';
import { HIGH_WATERMARK_HEADER, LOG_START_OFFSET_HEADER, NEXT_OFFSET_HEADER } from './replica-fetch-protocol.js';

export { HIGH_WATERMARK_HEADER, LOG_START_OFFSET_HEADER, NEXT_OFFSET_HEADER };

/** How often a produce is routed again after a leader said this broker's metadata is stale. */
export const PRODUCE_ROUTING_ATTEMPTS_MAX = 5;
/** The pause before routing a produce again: a leadership change is under way. */
export const PRODUCE_ROUTING_BACKOFF_MS = 100;
/**
 * Leader answers meaning "nothing appended, ask again elsewhere": fenced epoch, not the leader, and Fastify's bare
 * 503 of a broker that is closing (Brook's own 503s carry five-digit codes).
 */
const STALE_ROUTE_CODES = new Set([FENCED_LEADER_EPOCH_CODE, 40404, 503]);

/** What a routed produce passes on to the leader (the leader epoch the router stamps itself). */
export type RoutedProduceOptions = Pick<ProduceOptions, 'sequenceGaps' | 'keyProducers'>;

export interface ReadOptions {
  maxBytes: number;
  waitMs: number;
  signal?: AbortSignal;
}

@Injectable()
export class PartitionRouter {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly metadata: MetadataCache,
    private readonly replicas: ReplicaManager,
    private readonly peers: PeerClient,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Produces on the leader, here or forwarded with the leader epoch this broker believes in. When the leader
   * answers that this broker's view is stale (fenced epoch, or "I do not lead"), or this broker is not leader yet
   * or any more, nothing was appended: wait a moment, reload the metadata and try the leader again, up to
   * PRODUCE_ROUTING_ATTEMPTS_MAX times. A leader that could not be reached is not retried: when no connection was
   * made the answer is 40404 (nothing was appended), otherwise the request may have arrived (outcome unknown).
   */
  async produce(
    topic: string,
    partition: number,
    batch: Buffer,
    acks: Acks,
    options: RoutedProduceOptions = {},
  ): Promise<AppendInfo | null> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.produceOnce(topic, partition, batch, acks, options);
      if (!(outcome instanceof StaleRouteError)) return outcome;
      if (attempt >= PRODUCE_ROUTING_ATTEMPTS_MAX) throw outcome.answer;
      await sleep(this.clock, PRODUCE_ROUTING_BACKOFF_MS);
      await this.metadata.reload();
    }
  }

  private async produceOnce(
    topic: string,
    partition: number,
    batch: Buffer,
    acks: Acks,
    options: RoutedProduceOptions,
  ): Promise<AppendInfo | null | StaleRouteError> {
    const leader = await this.leaderUrl(topic, partition);
    if (leader === null) {
      try {
        return await this.replicas.produce(topic, partition, batch, acks, options);
      } catch (error) {
        // 40404 from the local replica manager is raised before appending (not the leader yet, or any more)
        if (error instanceof BrookError && error.errorCode === 40404) return new StaleRouteError(error);
        throw error;
      }
    }
    const leaderEpoch = this.metadata.topic(topic)!.states[partition].leaderEpoch;
    let response: PeerAnswer;
    try {
      response = await this.peers.call(leader, {
        method: 'POST',
        path: partitionPath(topic, partition, 'records'),
        query: { acks, leader_epoch: leaderEpoch, ...routedProduceQuery(options) },
        body: batch,
        timeoutMs: PEER_REQUEST_TIMEOUT_MS + this.config.acksAllTimeoutMs,
      });
    } catch (error) {
      // A BrookError is the leader's own answer: the request reached it.
      if (error instanceof BrookError && STALE_ROUTE_CODES.has(error.errorCode)) return new StaleRouteError(error);
      if (!(error instanceof PeerUnreachableError)) throw error;
      if (!error.requestMayHaveArrived) {
        throw errors.leaderNotAvailable(`The leader of ${topic}-${partition} is not reachable: ${error.message}`);
      }
      throw errors.outcomeUnknown(
        `The produce to the leader of ${topic}-${partition} was sent but got no answer: ${error.message}; the ` +
          'records may or may not have been appended (outcome unknown).',
      );
    }
    try {
      return ((await response.json()) as { append: AppendInfo | null }).append;
    } catch (error) {
      throw errors.outcomeUnknown(
        `The answer of the leader of ${topic}-${partition} broke off: ${(error as Error).message}; what it says ` +
          'about the records is not known (outcome unknown).',
      );
    }
  }

  /** A read of a partition led here answered now from the batches appended last, else null (replica-reads.ts). */
  readRecent(topic: string, partition: number, offset: number, maxBytes: number): PartitionRead | null {
    return this.isLocal(topic, partition) ? this.replicas.readRecent(topic, partition, offset, maxBytes) : null;
  }

  async read(topic: string, partition: number, offset: number, options: ReadOptions): Promise<PartitionRead> {
    const leader = await this.leaderUrl(topic, partition);
    if (leader === null) return this.replicas.read(topic, partition, offset, options);
    const response = await this.forward(topic, partition, leader, {
      method: 'GET',
      path: partitionPath(topic, partition, 'records'),
      query: { offset, max_bytes: options.maxBytes, wait_ms: options.waitMs },
      timeoutMs: PEER_REQUEST_TIMEOUT_MS + options.waitMs,
      signal: options.signal,
    });
    if (response.headers.get('content-type') !== BATCHES_MEDIA_TYPE) throw errors.kafkaError('Bad answer from leader.');
    return {
      batches: Buffer.from(await response.arrayBuffer()),
      nextOffset: Number(response.headers.get(NEXT_OFFSET_HEADER)),
      highWatermark: Number(response.headers.get(HIGH_WATERMARK_HEADER)),
      logStartOffset: Number(response.headers.get(LOG_START_OFFSET_HEADER)),
    };
  }

  async offsets(topic: string, partition: number): Promise<{ earliest: number; latest: number }> {
    const leader = await this.leaderUrl(topic, partition);
    if (leader === null) return this.replicas.offsets(topic, partition);
    const response = await this.forward(topic, partition, leader, {
      method: 'GET',
      path: partitionPath(topic, partition, 'offsets'),
    });
    return (await response.json()) as { earliest: number; latest: number };
  }

  async offsetForTimestamp(topic: string, partition: number, timestampMs: number): Promise<number> {
    const leader = await this.leaderUrl(topic, partition);
    if (leader === null) return this.replicas.offsetForTimestamp(topic, partition, timestampMs);
    const response = await this.forward(topic, partition, leader, {
      method: 'GET',
      path: partitionPath(topic, partition, 'offset-for-timestamp'),
      query: { timestamp: timestampMs },
    });
    return ((await response.json()) as { offset: number }).offset;
  }

  /**
   * Resolves when the partition may have data at `offset` or after `waitMs`: the local waiters when this broker
   * leads it, else a long-polling read on the leader (its answer is dropped; the caller reads again).
   */
  waitForData(topic: string, partition: number, offset: number, waitMs: number, signal?: AbortSignal): Promise<void> {
    // the waiter's own promise when local: its caller resumes in the first reaction after the wake-up
    if (this.isLocal(topic, partition)) return this.replicas.waitForRecords(topic, partition, offset, waitMs, signal);
    return this.read(topic, partition, offset, { maxBytes: 1, waitMs, signal }).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Whether this broker leads the partition (or the partition is unknown, which the local path reports). */
  isLocal(topic: string, partition: number): boolean {
    const state = this.metadata.topic(topic)?.states[partition];
    return state === undefined || state.leader === this.config.brokerId;
  }

  /** null when this broker leads (or the partition is unknown: the local path reports that); else the leader's URL. */
  private async leaderUrl(topic: string, partition: number): Promise<string | null> {
    const state = this.metadata.topic(topic)?.states[partition];
    if (state === undefined || state.leader === this.config.brokerId) return null;
    if (state.leader === NO_LEADER) {
      throw errors.leaderNotAvailable(`${topic}-${partition} has no leader: its replicas' brokers are down.`);
    }
    const url = await this.peers.brokerUrl(state.leader);
    if (url === null) {
      throw errors.leaderNotAvailable(`The leader of ${topic}-${partition}, broker ${state.leader}, is not available.`);
    }
    return url;
  }

  private async forward(
    topic: string,
    partition: number,
    leaderUrl: string,
    request: Parameters<PeerClient['call']>[1],
  ): Promise<PeerAnswer> {
    try {
      return await this.peers.call(leaderUrl, request);
    } catch (error) {
      if (!(error instanceof PeerUnreachableError)) throw error;
      throw errors.leaderNotAvailable(`The leader of ${topic}-${partition} is not reachable: ${error.message}`);
    }
  }
}

/** The leader appended nothing because this broker's metadata is stale. */
class StaleRouteError {
  constructor(readonly answer: BrookError) {}
}

function partitionPath(topic: string, partition: number, what: string): string {
  return `/partitions/${encodeURIComponent(topic)}/${partition}/${what}`;
}

/** The routed produce options as the internal produce route's query parameters (internal.controller.ts). */
function routedProduceQuery(options: RoutedProduceOptions): Record<string, string> {
  const query: Record<string, string> = {};
  if (options.sequenceGaps === true) query.sequence_gaps = 'true';
  if (options.keyProducers === true) query.key_producers = 'true';
  return query;
}
