// What the controller does while it holds the lease (Kafka's KafkaController event loop, reduced to this issue):
//   1. on election, if the store has no metadata incarnation (a new cluster, or Redis came back empty), gather the
//      metadata snapshots of every live broker and itself, restore the topics from them (metadata-restore.ts),
//      then write a new incarnation, upon which the brokers apply the store again; then finish the admin commands
//      a previous controller left half-done (admin-plans.ts), and tell every broker, with the new epoch;
//   2. on every change of the broker registrations, and every heartbeat in case a hint was lost, move partition
//      leadership off brokers that left or restarted (a registration with a new broker epoch is a failure followed
//      by a start-up), to an in-sync replica or per unclean.leader.election.enable, drop them from ISRs, and bring
//      offline partitions back when an ISR member returns (partition-leadership.ts);
//   3. on a broker's controlled shutdown, treat it as gone for the same decisions while it still runs;
//   4. every leader.imbalance.check.interval.seconds, give preferred replicas their leadership back
//      (preferred-leader.ts), when nothing else had to change in that pass;
//   5. take every persisted partition reassignment one step further (reassignment-driver.ts): on each pass, and at
//      once when a reassignment is written or, while some are in progress, a partition state (an ISR) changes.
// Every write is fenced by the controller epoch; a fenced write makes this broker resign, which stops the loop.
import { DynamicBrokerConfigs } from '../topic/dynamic-broker-configs.service.js';
import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PeerClient } from '../cluster/peer-client.js';
import { forEachBounded } from '../common/bounded-concurrency.js';
import { BrookError, errors } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { CoordinationFencedError } from '../coordination/coordination-errors.js';
import { CoordinationStore } from '../coordination/coordination-store.js';
import {
  BROKERS_PREFIX,
  METADATA_INCARNATION_KEY,
  PRODUCER_ID_BLOCK_KEY,
  PARTITION_STATE_PREFIX,
  REASSIGNMENTS_PREFIX,
  partitionStateKey,
  topicConfigKey,
  topicKey,
} from '../coordination/cluster-keys.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import { type MetadataSnapshot, parseSnapshot } from '../topic/metadata-snapshot.js';
import type { LiveIncarnations } from '../topic/replica-incarnations.js';
import { resolveTopicConfig } from '../config/topic-config.js';
import { resumePlans } from './admin-plans.js';
import { ControllerElection } from './controller-election.service.js';
import { epochFence } from './epoch-fence.js';
import { mergeSnapshots } from './metadata-restore.js';
import { LeaderDecisions } from './partition-leadership.js';
import { decidePreferredLeaders } from './preferred-leader.js';
import { ReassignmentDriver } from './reassignment-driver.js';
import { type CancelTimer, type Clock, CLOCK, everyMs, sleep, systemClock } from '../common/clock.js';

/** How long a broker has to hand over its metadata snapshot during a restore. */
const SNAPSHOT_REQUEST_TIMEOUT_MS = 5_000;
/** How long a broker has to take a metadata push; a broker that does not will reconcile from the store. */
const PUSH_TIMEOUT_MS = 2_000;
/**
 * Partition-state writes of one controller pass in flight at once. Leader moves after a restart touch every
 * partition: at issue 23's 10,000 on one broker they go out together, so the embedded store writes them in one file
 * write and Redis pipelines them, and the metadata is reloaded, and the roles applied, once for all of them. With
 * 256 at a time each wave's watch hints started a reload that applied the moves written so far (a restart of 10,000
 * partitions: 10-20 reloads, each walking every partition and rewriting the metadata snapshot).
 */
const PARTITION_STATE_WRITES_CONCURRENT_MAX = 16_384;

/** How often whenReady looks again. */
const READY_POLL_MS = 20;

@Injectable()
export class ClusterController implements OnModuleDestroy {
  private readonly logger = new Logger(ClusterController.name);
  private epoch = -1;
  private restored = false;
  private stopWatches: Array<() => void> = [];
  private cancelHeartbeat: CancelTimer | null = null;
  private running: Promise<void> | null = null;
  private runAgain = false;
  /** Callers waiting for the next whole pass (controlled shutdown). */
  private passWaiters: Array<() => void> = [];
  private readonly reassignments: ReassignmentDriver;
  /** The leader pass's decisions; an idle pass over unchanged metadata walks no partition (partition-leadership.ts). */
  private readonly leaderDecisions = new LeaderDecisions();
  /** Brokers in controlled shutdown, by broker id, with the broker epoch of the incarnation that asked. */
  private readonly shuttingDown = new Map<number, number>();
  private lastRebalanceMs: number;

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly store: CoordinationStore,
    private readonly election: ControllerElection,
    private readonly metadata: MetadataCache,
    private readonly peers: PeerClient,
    private readonly brokerConfigs: DynamicBrokerConfigs,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {
    this.lastRebalanceMs = clock.monotonicMs();
    this.reassignments = new ReassignmentDriver(store, metadata, this.logger, (epoch) => this.epoch === epoch);
    election.onElected((epoch) => this.begin(epoch));
    election.onResigned(() => this.end());
    metadata.onChange(() => {
      if (this.epoch >= 0 && !this.restored) this.schedule();
    });
  }

  /** True once this controller has made the store's metadata complete (restored, when it had to). */
  get ready(): boolean {
    return this.epoch >= 0 && this.restored;
  }

  /** Resolves with `ready` once it holds or `timeoutMs` has passed (a controller elected moments ago is loading). */
  async whenReady(timeoutMs: number): Promise<boolean> {
    const deadline = this.clock.monotonicMs() + timeoutMs;
    while (!this.ready && this.election.isController() && this.clock.monotonicMs() < deadline) {
      await sleep(this.clock, READY_POLL_MS);
    }
    return this.ready;
  }

  onModuleDestroy(): void {
    this.end();
  }

  private begin(epoch: number): void {
    this.end();
    this.epoch = epoch;
    this.restored = false;
    this.stopWatches = [
      this.store.watch(BROKERS_PREFIX, () => this.schedule()),
      this.store.watch(REASSIGNMENTS_PREFIX, () => this.schedule()),
      // an ISR change may let a reassignment take its next step; otherwise the heartbeat pass is soon enough
      this.store.watch(PARTITION_STATE_PREFIX, () => {
        if (this.reassignments.inProgress) this.schedule();
      }),
    ];
    this.cancelHeartbeat = everyMs(this.clock, this.config.brokerHeartbeatIntervalMs, () => this.schedule());
    this.schedule();
  }

  private end(): void {
    this.epoch = -1;
    this.restored = false;
    this.reassignments.inProgress = false;
    for (const stop of this.stopWatches) stop();
    this.stopWatches = [];
    this.cancelHeartbeat?.();
    this.cancelHeartbeat = null;
  }

  /** Runs one pass now, or once more after the running one. */
  schedule(): void {
    if (this.running) {
      this.runAgain = true;
      return;
    }
    this.running = (async () => {
      do {
        this.runAgain = false;
        const waiting = this.passWaiters.splice(0);
        await this.pass();
        for (const resolve of waiting) resolve();
      } while (this.runAgain && this.epoch >= 0);
    })().finally(() => {
      this.running = null;
      for (const resolve of this.passWaiters.splice(0)) resolve();
    });
  }

  /**
   * Resolves once a whole pass has run after this call, or after `timeoutMs`; at once when this broker is not the
   * controller. At start-up a broker that is its own controller (a single broker always is) settles leadership
   * before it serves: the partitions it led before its restart move to a new leader epoch first.
   */
  async settle(timeoutMs: number): Promise<void> {
    if (this.epoch < 0) return;
    let cancelTimer: CancelTimer = () => undefined;
    const timeout = new Promise<void>((resolve) => (cancelTimer = this.clock.setTimer(timeoutMs, resolve)));
    await Promise.race([this.nextPass(), timeout]);
    cancelTimer();
  }

  /** Resolves once a pass that started after this call has run (or this broker stopped being controller). */
  private nextPass(): Promise<void> {
    const done = new Promise<void>((resolve) => this.passWaiters.push(resolve));
    this.schedule();
    return done;
  }

  private async pass(): Promise<void> {
    const epoch = this.epoch;
    if (epoch < 0 || !this.election.isController() || !this.metadata.loaded) return;
    try {
      if (!this.restored) {
        await this.restoreIfNeeded(epoch);
        const resumed = await resumePlans(this.store, epochFence(epoch));
        for (const description of resumed) this.logger.warn(`resumed an unfinished admin command: ${description}`);
        if (this.epoch !== epoch) return;
        this.restored = true;
        await this.metadata.reload();
        await this.pushMetadata(epoch);
      }
      const live = await this.moveLeaders(epoch);
      if (this.epoch === epoch && (await this.reassignments.step(epoch, live))) {
        await this.metadata.reload();
        await this.pushMetadata(epoch);
        this.runAgain = true;
      }
    } catch (error) {
      if (error instanceof CoordinationFencedError) {
        this.election.resign(`a write was fenced: ${error.message}`);
        return;
      }
      this.logger.error(`controller pass failed: ${(error as Error).message}`);
    }
  }

  /** Preferred-leader election runs at most once per leader.imbalance.check.interval.seconds. */
  private rebalanceDue(): boolean {
    if (!this.config.autoLeaderRebalanceEnable) return false;
    const nowMs = this.clock.monotonicMs();
    if (nowMs - this.lastRebalanceMs < this.config.leaderImbalanceCheckIntervalMs) return false;
    this.lastRebalanceMs = nowMs;
    return true;
  }

  private async restoreIfNeeded(epoch: number): Promise<void> {
    if ((await this.store.get(METADATA_INCARNATION_KEY)) !== null) return;
    const snapshots = [this.metadata.snapshot(), ...(await this.peerSnapshots())];
    const fence = epochFence(epoch);
    const topics = mergeSnapshots(snapshots, epoch);
    let restored = 0;
    for (const topic of topics) {
      const name = topic.assignment.name;
      if ((await this.store.get(topicKey(name))) !== null) continue;
      await this.store.put(topicConfigKey(name), JSON.stringify(topic.configs), { fence });
      for (let partition = 0; partition < topic.states.length; partition++) {
        await this.store.put(partitionStateKey(name, partition), JSON.stringify(topic.states[partition]), { fence });
      }
      await this.store.put(topicKey(name), JSON.stringify(topic.assignment), { fence, expectedVersion: 0 });
      restored++;
    }
    await this.restoreProducerIdBlocks();
    await this.store.put(METADATA_INCARNATION_KEY, randomUUID(), { fence, expectedVersion: 0 });
    if (restored > 0) this.logger.warn(`restored ${restored} topic(s) from the brokers' metadata snapshots`);
  }

  /**
   * The producer-id block counter after the store lost its data: raised above every block a live broker took or saw
   * (their registrations, this broker's data dir) before the metadata is marked complete, since brokers take blocks
   * only once it is (application/idempotence/producer-ids.service.ts).
   */
  private async restoreProducerIdBlocks(): Promise<void> {
    const floor = await this.election.producerIdBlockFloor();
    if (floor > 0) await this.store.raiseCounterAbove(PRODUCER_ID_BLOCK_KEY, floor);
  }

  /**
   * Tells every other live broker that the metadata changed, with this controller's epoch (DESIGN.md §1). A broker
   * that has seen a higher epoch refuses it, and this controller resigns. Brokers that cannot be reached are left
   * to the store watch and their periodic reconcile.
   */
  async pushMetadata(epoch: number): Promise<void> {
    const brokers = (await this.election.liveBrokers()).filter((b) => b.brokerId !== this.config.brokerId);
    await Promise.all(
      brokers.map(async (broker) => {
        try {
          await this.peers.call(broker.url, {
            method: 'POST',
            path: '/metadata/updates',
            json: { controller_epoch: epoch },
            timeoutMs: PUSH_TIMEOUT_MS,
          });
        } catch (error) {
          if (error instanceof BrookError && error.status === 409) {
            this.election.resign(`broker ${broker.brokerId} refused epoch ${epoch}: ${error.message}`);
          }
        }
      }),
    );
  }

  private async peerSnapshots(): Promise<MetadataSnapshot[]> {
    const snapshots: MetadataSnapshot[] = [];
    for (const broker of await this.election.liveBrokers()) {
      if (broker.brokerId === this.config.brokerId) continue;
      try {
        const response = await this.peers.call(broker.url, {
          method: 'GET',
          path: '/metadata-snapshot',
          timeoutMs: SNAPSHOT_REQUEST_TIMEOUT_MS,
        });
        snapshots.push(parseSnapshot(await response.text()));
      } catch (error) {
        this.logger.warn(`no metadata snapshot from broker ${broker.brokerId}: ${(error as Error).message}`);
      }
    }
    return snapshots;
  }

  /**
   * A broker asks to stop (Kafka's controlled shutdown): until that incarnation (broker epoch) is gone, it counts
   * as not live for leadership, so its partitions are led by other in-sync replicas and it leaves every ISR before
   * it stops. Resolves after the pass that moved them.
   */
  async controlledShutdown(brokerId: number, brokerEpoch: number): Promise<void> {
    const epoch = this.epoch;
    if (epoch < 0 || !this.restored) throw errors.brokerNotAvailable('The controller is still loading; retry.');
    this.shuttingDown.set(brokerId, brokerEpoch);
    this.logger.log(`broker ${brokerId} (epoch ${brokerEpoch}) is shutting down: moving its leadership`);
    await this.nextPass();
  }

  /** The incarnations that may lead or be in sync: registered, and not in a controlled shutdown. */
  async leadershipCandidates(): Promise<LiveIncarnations> {
    const registrations = await this.election.liveBrokers();
    for (const [brokerId, brokerEpoch] of [...this.shuttingDown]) {
      const registration = registrations.find((broker) => broker.brokerId === brokerId);
      if (registration?.brokerEpoch !== brokerEpoch) this.shuttingDown.delete(brokerId);
    }
    return new Map(
      registrations
        .filter((broker) => !this.shuttingDown.has(broker.brokerId))
        .map((broker) => [broker.brokerId, broker.brokerEpoch]),
    );
  }

  /** Returns the incarnations that may lead, as this pass saw them. */
  private async moveLeaders(epoch: number): Promise<LiveIncarnations> {
    await this.metadata.reload();
    const live = await this.leadershipCandidates();
    const topicConfigDefaults = this.brokerConfigs.settings().topicConfigDefaults;
    const changes = this.leaderDecisions.decide(
      this.metadata.allTopics(),
      live,
      epoch,
      (topic) => resolveTopicConfig(topic.configs, topicConfigDefaults).uncleanLeaderElectionEnable,
      topicConfigDefaults,
    );
    if (changes.length === 0 && this.rebalanceDue()) {
      changes.push(
        ...decidePreferredLeaders(
          this.metadata.allTopics().values(),
          live,
          epoch,
          this.config.leaderImbalancePerBrokerPercentage,
        ),
      );
    }
    // Each change is its own compare-and-set on its own key; issued together, the embedded store writes them in one
    // file write and Redis pipelines them (one after another, 10,000 partitions took 10,000 store round trips).
    await forEachBounded(changes, PARTITION_STATE_WRITES_CONCURRENT_MAX, async (change) => {
      if (this.epoch !== epoch) return;
      const written = await this.store.put(
        partitionStateKey(change.topic, change.partition),
        JSON.stringify(change.state),
        {
          fence: epochFence(epoch),
          expectedVersion: change.expectedVersion,
        },
      );
      if (written.ok) {
        const where = change.state.leader < 0 ? 'offline' : `led by broker ${change.state.leader}`;
        this.logger.log(`${change.topic}-${change.partition} is ${where} (leader epoch ${change.state.leaderEpoch})`);
      }
    });
    if (this.epoch !== epoch || changes.length === 0) return live;
    await this.metadata.reload();
    await this.pushMetadata(epoch);
    return live;
  }
}
