// The fetchers of the partitions this broker follows (replica-fetcher.ts, one per partition), by partition key,
// and their I/O: a follower fetch is a GET of the leader's internal replica-fetch route (replica-fetch-protocol.ts),
// through PeerClient.getBinary on the fetcher's own connection (peer-fetch-connection.ts: kept alive, the answer's
// batches received into a reused buffer, given back once appended; over https node:https with a keep-alive agent).
// The replica manager starts one when a Partition becomes a follower of a new leader or epoch, and stops it (its
// last write to the log done) before the Partition leads, follows another leader, or goes.
import type { LoggerService } from '@nestjs/common';
import { PEER_REQUEST_TIMEOUT_MS, type PeerClient } from '../cluster/peer-client.js';
import type { PeerFetchConnection } from '../cluster/peer-fetch-connection.js';
import { BATCH_BYTES_MAX } from '../partition-log/record-batch.js';
import type { Clock } from '../common/clock.js';
import type { BrokerConfig } from '../config/broker-config.js';
import type { PartitionLog } from '../partition-log/partition-log.js';
import {
  parseAnswer,
  type ReplicaFetchAnswer,
  type ReplicaFetchRequest,
  replicaFetchQuery,
} from './replica-fetch-protocol.js';
import { ReplicaFetcher } from './replica-fetcher.js';

export interface FetcherTarget {
  topic: string;
  partition: number;
  key: string;
  log: PartitionLog;
  leaderId: number;
  leaderEpoch: number;
}

export interface FetcherEvents {
  onHighWatermark(highWatermark: number): void;
  onFenced(): void;
}

export class FollowerFetchers {
  private readonly fetchers = new Map<string, ReplicaFetcher>();

  constructor(
    private readonly config: BrokerConfig,
    private readonly peers: PeerClient,
    private readonly clock: Clock,
    private readonly logger: LoggerService,
  ) {}

  /** The fetcher running for `key`, if any. */
  get(key: string): ReplicaFetcher | undefined {
    return this.fetchers.get(key);
  }

  /** Starts fetching `target` as incarnation `brokerEpoch`, after stopping any fetcher of the partition. */
  async start(target: FetcherTarget, brokerEpoch: number, events: FetcherEvents): Promise<void> {
    await this.stop(target.key);
    // the loop's own connection to the leader: one fetch at a time, closed with the loop
    const connection = this.peers.fetchConnection(this.config.replicaFetchMaxBytes + BATCH_BYTES_MAX);
    const fetcher = new ReplicaFetcher(
      target.leaderId,
      target.leaderEpoch,
      target.log,
      {
        brokerId: this.config.brokerId,
        brokerEpoch,
        maxBytes: this.config.replicaFetchMaxBytes,
        waitMs: this.config.replicaFetchWaitMaxMs,
        backoffMs: this.config.replicaFetchBackoffMs,
        clock: this.clock,
      },
      {
        fetch: (leaderId, request, signal) => this.fetchFrom(target, leaderId, request, signal, connection),
        onHighWatermark: (highWatermark) => events.onHighWatermark(highWatermark),
        onFenced: () => events.onFenced(),
        onError: (error) =>
          this.logger.debug?.(`${target.key}: fetch from broker ${target.leaderId}: ${error.message}`),
        onStopped: () => connection.close(),
      },
    );
    this.fetchers.set(target.key, fetcher);
  }

  /** Stops the partition's fetcher; resolves once its last write to the log is done. */
  async stop(key: string): Promise<void> {
    const fetcher = this.fetchers.get(key);
    if (fetcher === undefined) return;
    this.fetchers.delete(key);
    await fetcher.stop();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.fetchers.keys()].map((key) => this.stop(key)));
  }

  private async fetchFrom(
    target: FetcherTarget,
    leaderId: number,
    request: ReplicaFetchRequest,
    signal: AbortSignal,
    connection: PeerFetchConnection,
  ): Promise<ReplicaFetchAnswer> {
    const url = await this.peers.brokerUrl(leaderId);
    if (url === null) throw new Error(`the leader, broker ${leaderId}, is not registered`);
    const answer = await this.peers.getBinary(
      url,
      {
        path: `/partitions/${encodeURIComponent(target.topic)}/${target.partition}/replica-fetch`,
        query: replicaFetchQuery(request),
        timeoutMs: PEER_REQUEST_TIMEOUT_MS + request.waitMs,
        signal,
      },
      connection,
    );
    const { headers } = answer;
    try {
      return parseAnswer({ get: (name) => headerText(headers[name]) }, answer.body, answer.release);
    } catch (error) {
      answer.release?.();
      throw error;
    }
  }
}

/** A header of a node:http answer as one string, or null when absent (or repeated, which no Brook leader sends). */
function headerText(value: string | string[] | undefined): string | null {
  return typeof value === 'string' ? value : null;
}
