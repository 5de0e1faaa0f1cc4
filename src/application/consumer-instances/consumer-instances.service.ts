// REST Proxy v2 consumer instances (Confluent's /consumers/{group}/instances/{instance} API) on top of the group
// coordinator: creation and deletion, subscription or manual assignment, positions, polling records with a long
// poll bounded by the instance's timeout and max_bytes, Confluent's commit semantics, auto-commit, and removal
// of instances idle longer than consumer.instance.timeout.ms. The instance's configuration lives in
// __consumer_offsets; its fetch positions live here, in memory, as in a Kafka consumer (instance-fetcher.ts reads).
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { BrookError, errors } from '../../common/brook-error.js';
import { type CancelTimer, everyMs, sleep, systemClock, type Clock } from '../../common/clock.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { PartitionRouter } from '../../replication/partition-router.service.js';
import { Metrics } from '../../metrics/metrics.service.js';
import { ReplicaManager } from '../../replication/replica-manager.service.js';
import { MetadataCache } from '../../topic/metadata-cache.service.js';
import type { TopicPartition } from '../../group-coordinator/assignors/assignor.js';
import { ConsumerInstance } from './consumer-instance.js';
import { GroupCoordinator, type OffsetToCommit } from '../../group-coordinator/group-coordinator.service.js';
import { topicPartitionKey, type InstanceFormat, type InstanceValue } from '../../group-coordinator/group-records.js';
import { SchemaSerde } from '../schemas/schema-serde.service.js';
import { InstanceFetcher } from './instance-fetcher.js';
import { PollAnswer } from './poll-answer.js';
import { newInstance, type CreateInstanceBody } from './instance-config.js';
import { parseSubscription, validateGroupId, type Subscriber, type SubscriptionBody } from './instance-requests.js';

/** Kafka's auto.commit.interval.ms default. */
export const AUTO_COMMIT_INTERVAL_MS = 5_000;
/** How often idle instances are looked for. */
const EVICTION_CHECK_INTERVAL_MS = 1_000;
/** How often a waiting poll looks again at partitions led by other brokers. */
const REMOTE_POLL_INTERVAL_MS = 100;
/** How often a poll of an instance without partitions looks again, unless its group assigns it some first. */
const UNASSIGNED_POLL_INTERVAL_MS = 100;

/** A committed partition as Confluent's v2 commit answers it: the last consumed offset and the stored one. */
export interface CommittedPosition extends TopicPartition {
  consumed: number;
  committed: number;
}

export interface PollOptions {
  timeoutMs: number | null;
  maxBytes: number | null;
  /** May the caller READ this topic now? Asked before every round of the poll (security's one read check). */
  mayRead: (topic: string) => boolean;
}

/** What the caller may see of an instance: topics it may not describe are left out of answers. */
export type TopicFilter = (topic: string) => boolean;
const EVERY_TOPIC: TopicFilter = () => true;

@Injectable()
export class ConsumerInstances implements OnApplicationShutdown {
  private readonly logger = new Logger('ConsumerInstances');
  private readonly runtimes = new Map<string, ConsumerInstance>();
  private readonly clock: Clock = systemClock;
  private stopEviction: CancelTimer | null = null;
  private readonly fetcher: InstanceFetcher;

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly coordinator: GroupCoordinator,
    private readonly replicas: ReplicaManager,
    private readonly router: PartitionRouter,
    private readonly metadata: MetadataCache,
    metrics: Metrics,
    schemas: SchemaSerde,
  ) {
    this.fetcher = new InstanceFetcher(coordinator, router, metrics, schemas);
  }

  /** Gives every instance loaded from __consumer_offsets a fresh idle clock, then starts evicting idle ones. */
  start(): void {
    const now = this.clock.monotonicMs();
    for (const group of this.coordinator.allGroups()) {
      for (const name of group.instances.keys())
        this.runtimes.set(runtimeKey(group.groupId, name), new ConsumerInstance(group.groupId, name, now));
    }
    this.stopEviction = everyMs(this.clock, EVICTION_CHECK_INTERVAL_MS, () => void this.evictIdle());
  }

  onApplicationShutdown(): void {
    this.stopEviction?.();
    for (const runtime of this.runtimes.values()) runtime.closing.abort();
  }

  baseUri(groupId: string, name: string): string {
    return `${this.config.advertisedUrl}/consumers/${encodeURIComponent(groupId)}/instances/${encodeURIComponent(name)}`;
  }

  async create(groupId: string, body: CreateInstanceBody): Promise<{ instance_id: string; base_uri: string }> {
    validateGroupId(groupId);
    await this.coordinator.ensureOffsetsTopic();
    this.coordinator.assertCoordinator(groupId);
    const { name, value } = newInstance(
      body,
      { requestTimeoutMs: this.config.groups.consumerRequestTimeoutMs },
      this.clock.nowMs(),
    );
    if (this.coordinator.instance(groupId, name) !== undefined) throw errors.consumerInstanceExists(groupId, name);
    if (this.coordinator.instanceCount() >= this.config.groups.consumerInstancesMax) {
      throw errors.tooManyRequests(
        `This broker already serves ${this.config.groups.consumerInstancesMax} consumer instances; delete unused ones.`,
        10,
      );
    }
    await this.coordinator.putInstance(groupId, name, value);
    this.runtimes.set(runtimeKey(groupId, name), new ConsumerInstance(groupId, name, this.clock.monotonicMs()));
    return { instance_id: name, base_uri: this.baseUri(groupId, name) };
  }

  async delete(groupId: string, name: string): Promise<void> {
    const { runtime, value } = this.use(groupId, name);
    runtime.closing.abort();
    await runtime.exclusive(async () => {
      if (value.autoCommitEnable) await this.commitReturned(runtime, value).catch(() => undefined);
      await this.coordinator.deleteInstance(groupId, name);
      this.runtimes.delete(runtimeKey(groupId, name));
    });
  }

  // ---- subscription and assignment ----

  async subscribe(groupId: string, name: string, body: SubscriptionBody, subscriber: Subscriber): Promise<void> {
    const { runtime, value } = this.use(groupId, name);
    const subscription = parseSubscription(body, subscriber);
    if (value.assignment !== null) {
      throw errors.subscriptionConflict('Subscription to topics, partitions and pattern are mutually exclusive.');
    }
    await runtime.exclusive(() => this.coordinator.putInstance(groupId, name, { ...value, subscription }));
  }

  /** The subscribed topics (a pattern's current matches) that `visible` lets the caller see. */
  subscription(groupId: string, name: string, visible: TopicFilter = EVERY_TOPIC): { topics: string[] } {
    const { value } = this.use(groupId, name);
    if (value.subscription === null) return { topics: [] };
    return { topics: this.coordinator.subscribedTopics(value.subscription).filter(visible).sort() };
  }

  async unsubscribe(groupId: string, name: string): Promise<void> {
    const { runtime, value } = this.use(groupId, name);
    await runtime.exclusive(async () => {
      runtime.retainAssigned([]);
      await this.coordinator.putInstance(groupId, name, { ...value, subscription: null, assignment: null });
    });
  }

  async assign(groupId: string, name: string, partitions: TopicPartition[]): Promise<void> {
    const { runtime, value } = this.use(groupId, name);
    if (value.subscription !== null) {
      throw errors.subscriptionConflict('Subscription to topics, partitions and pattern are mutually exclusive.');
    }
    for (const tp of partitions) this.checkPartition(tp);
    await runtime.exclusive(() => this.coordinator.putInstance(groupId, name, { ...value, assignment: partitions }));
  }

  assignments(groupId: string, name: string, visible: TopicFilter = EVERY_TOPIC): TopicPartition[] {
    const { value } = this.use(groupId, name);
    return this.assignedPartitions(groupId, name, value).filter((tp) => visible(tp.topic));
  }

  // ---- positions ----

  async seek(groupId: string, name: string, offsets: Array<TopicPartition & { offset: number }>): Promise<void> {
    const { runtime, value } = this.use(groupId, name);
    await runtime.exclusive(async () => {
      this.checkAssigned(groupId, name, value, offsets);
      for (const { topic, partition, offset } of offsets) runtime.seek(topic, partition, offset);
    });
  }

  async seekToEdge(
    groupId: string,
    name: string,
    partitions: TopicPartition[],
    edge: 'beginning' | 'end',
  ): Promise<void> {
    const { runtime, value } = this.use(groupId, name);
    await runtime.exclusive(async () => {
      this.checkAssigned(groupId, name, value, partitions);
      for (const { topic, partition } of partitions) {
        const { earliest, latest } = await this.router.offsets(topic, partition);
        runtime.seek(topic, partition, edge === 'beginning' ? earliest : latest);
      }
    });
  }

  // ---- records ----

  format(groupId: string, name: string): InstanceFormat {
    return this.use(groupId, name).value.format;
  }

  /** The records of one poll as the JSON array text of the answer (record-json.ts), UTF-8. */
  async poll(groupId: string, name: string, options: PollOptions): Promise<Buffer> {
    const { runtime, value } = this.use(groupId, name);
    const timeoutMs = Math.min(options.timeoutMs ?? value.requestTimeoutMs, this.config.readWaitMsMax);
    const maxBytes = Math.min(options.maxBytes ?? this.config.readBytesMax, this.config.readBytesMax);
    return runtime.exclusive(async () => {
      const deadline = this.clock.monotonicMs() + timeoutMs;
      if (value.autoCommitEnable && this.clock.monotonicMs() - runtime.lastAutoCommitMs >= AUTO_COMMIT_INTERVAL_MS) {
        runtime.lastAutoCommitMs = this.clock.monotonicMs();
        await this.commitReturned(runtime, value).catch((error: unknown) =>
          this.logger.warn(`auto-commit of ${groupId}/${name} failed: ${(error as Error).message}`),
        );
      }
      const answer = new PollAnswer();
      let bytes = 0;
      for (;;) {
        const current = this.coordinator.instance(groupId, name) ?? value;
        const assigned = this.assignedPartitions(groupId, name, current);
        const generation = this.coordinator.assignment(groupId, name)?.generation ?? -1;
        // Rights are asked at every round: an assignment that grew during the wait, or an ACL revoked, is seen
        // before anything more is read; what was collected is of topics readable when it was read.
        const unreadable = assigned.find((tp) => !options.mayRead(tp.topic));
        if (unreadable !== undefined) {
          if (answer.count > 0) return answer.finish();
          throw forbiddenRead(unreadable.topic);
        }
        await this.fetcher.initPositions(runtime, current, assigned);
        bytes += await this.fetcher.fetchOnce(runtime, assigned, generation, answer, maxBytes - bytes);
        runtime.lastUsedMs = this.clock.monotonicMs();
        const remaining = deadline - this.clock.monotonicMs();
        const satisfied = answer.count > 0 && bytes >= value.fetchMinBytes;
        if (satisfied || remaining <= 0 || runtime.closing.signal.aborted || bytes >= maxBytes) {
          return answer.finish();
        }
        if (assigned.length === 0) {
          await this.waitForAssignment(runtime, Math.min(remaining, UNASSIGNED_POLL_INTERVAL_MS));
          continue;
        }
        const positions = assigned.map((tp) => ({
          ...tp,
          offset: runtime.positions.get(topicPartitionKey(tp.topic, tp.partition))?.offset ?? 0,
        }));
        // Local partitions wake the poll as soon as they are appended to; with partitions led by other brokers
        // the poll looks again every REMOTE_POLL_INTERVAL_MS.
        const remote = positions.some(({ topic, partition }) => !this.router.isLocal(topic, partition));
        await this.replicas.waitForAny(
          positions.filter(({ topic, partition }) => this.router.isLocal(topic, partition)),
          remote ? Math.min(remaining, REMOTE_POLL_INTERVAL_MS) : remaining,
          runtime.closing.signal,
        );
      }
    });
  }

  /**
   * A poll of an instance with no partitions waits until its group gives it an assignment (it is told the moment
   * the generation is written), the instance closes, or `ms` pass (a manual assignment or a subscription may
   * change meanwhile).
   */
  private async waitForAssignment(runtime: ConsumerInstance, ms: number): Promise<void> {
    const assigned = new AbortController();
    const stopWatching = this.coordinator.watchMember(runtime.groupId, runtime.name, () => assigned.abort());
    try {
      await sleep(this.clock, ms, AbortSignal.any([assigned.signal, runtime.closing.signal]));
    } finally {
      stopWatching();
    }
  }

  // ---- offsets ----

  /**
   * Explicit offsets name the last processed records (stored + 1); none commits what was returned. Answers what was
   * committed, as Confluent's v2 answer: per partition the last consumed offset and the stored (next) offset.
   */
  async commit(
    groupId: string,
    name: string,
    offsets: Array<TopicPartition & { offset: number; metadata?: string }> | null,
  ): Promise<CommittedPosition[]> {
    const { runtime, value } = this.use(groupId, name);
    return runtime.exclusive(async () => {
      const toCommit =
        offsets === null ? this.returnedPositions(runtime) : offsets.map((o) => ({ ...o, offset: o.offset + 1 }));
      await this.commitAs(runtime, value, toCommit);
      return toCommit.map(({ topic, partition, offset }) => ({
        topic,
        partition,
        consumed: offset - 1,
        committed: offset,
      }));
    });
  }

  private commitReturned(runtime: ConsumerInstance, value: InstanceValue): Promise<void> {
    return this.commitAs(runtime, value, this.returnedPositions(runtime));
  }

  /** One past the last record returned to the client, for each partition it has read. */
  private returnedPositions(runtime: ConsumerInstance): OffsetToCommit[] {
    return [...runtime.returned.values()].map(({ topic, partition, nextOffset }) => ({
      topic,
      partition,
      offset: nextOffset,
    }));
  }

  /**
   * Commits as the instance: as its group member (fenced by the generation each partition was fetched in) when it
   * is subscribed, else as a simple consumer.
   */
  private async commitAs(runtime: ConsumerInstance, value: InstanceValue, toCommit: OffsetToCommit[]): Promise<void> {
    if (value.subscription === null) return this.coordinator.commit(runtime.groupId, null, toCommit);
    const generations = new Map([...runtime.returned].map(([key, returned]) => [key, returned.generation]));
    await this.coordinator.commit(runtime.groupId, runtime.name, toCommit, generations);
  }

  committed(
    groupId: string,
    name: string,
    partitions: TopicPartition[],
  ): Array<TopicPartition & { offset: number; metadata: string }> {
    this.use(groupId, name);
    const group = this.coordinator.group(groupId);
    const result: Array<TopicPartition & { offset: number; metadata: string }> = [];
    for (const { topic, partition } of partitions) {
      const committed = group?.committed(topic, partition);
      if (committed !== undefined)
        result.push({ topic, partition, offset: committed.offset, metadata: committed.metadata });
    }
    return result;
  }

  // ---- helpers ----

  /** The instance (or 40403), marking it used now and keeping its group membership alive. */
  private use(groupId: string, name: string): { runtime: ConsumerInstance; value: InstanceValue } {
    this.coordinator.assertCoordinator(groupId);
    const value = this.coordinator.instance(groupId, name);
    const key = runtimeKey(groupId, name);
    if (value === undefined) {
      this.runtimes.delete(key);
      throw errors.consumerInstanceNotFound(groupId, name);
    }
    let runtime = this.runtimes.get(key);
    if (runtime === undefined) {
      runtime = new ConsumerInstance(groupId, name, this.clock.monotonicMs());
      this.runtimes.set(key, runtime);
    }
    runtime.lastUsedMs = this.clock.monotonicMs();
    if (value.subscription !== null) this.coordinator.heartbeat(groupId, name);
    return { runtime, value };
  }

  private assignedPartitions(groupId: string, name: string, value: InstanceValue): TopicPartition[] {
    if (value.assignment !== null) return value.assignment.filter((tp) => this.partitionExists(tp));
    if (value.subscription === null) return [];
    return [...(this.coordinator.assignment(groupId, name)?.partitions ?? [])].filter((tp) => this.partitionExists(tp));
  }

  private checkAssigned(groupId: string, name: string, value: InstanceValue, partitions: TopicPartition[]): void {
    const assigned = new Set(
      this.assignedPartitions(groupId, name, value).map((tp) => topicPartitionKey(tp.topic, tp.partition)),
    );
    for (const { topic, partition } of partitions) {
      if (!assigned.has(topicPartitionKey(topic, partition))) {
        throw errors.partitionNotAssigned(
          `Partition ${topic}-${partition} is not assigned to consumer instance ${name}.`,
        );
      }
    }
  }

  private partitionExists({ topic, partition }: TopicPartition): boolean {
    const metadata = this.metadata.topic(topic);
    return metadata !== undefined && partition < metadata.assignment.replicas.length;
  }

  private checkPartition({ topic, partition }: TopicPartition): void {
    const metadata = this.metadata.topic(topic);
    if (metadata === undefined) throw errors.topicNotFound(topic);
    if (partition >= metadata.assignment.replicas.length) throw errors.partitionNotFound(partition);
  }

  private async evictIdle(): Promise<void> {
    const now = this.clock.monotonicMs();
    for (const runtime of [...this.runtimes.values()]) {
      if (now - runtime.lastUsedMs < this.config.groups.consumerInstanceTimeoutMs) continue;
      try {
        await this.delete(runtime.groupId, runtime.name);
        this.logger.log(`consumer instance ${runtime.groupId}/${runtime.name} idle; removed`);
      } catch (error) {
        if (error instanceof BrookError && error.errorCode === 40403)
          this.runtimes.delete(runtimeKey(runtime.groupId, runtime.name));
        else this.logger.warn(`evicting ${runtime.groupId}/${runtime.name} failed: ${(error as Error).message}`);
      }
    }
  }
}

function runtimeKey(groupId: string, name: string): string {
  return `${groupId}\u0000${name}`;
}

function forbiddenRead(topic: string): BrookError {
  return new BrookError(403, 40301, `Not authorized to READ topic '${topic}', which is assigned to this instance.`);
}
