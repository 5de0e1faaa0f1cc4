// Who is controller, and the broker's own registration (Kafka's /controller and /brokers/ids/N, through the
// coordination store).
//
// - Registration: broker-registration.ts (each start a new incarnation, with a new broker epoch); when another
//   process has taken this broker's id, this one is told to stop (onIdTaken).
// - Controller: the lease is taken with SET NX PX and a random token and renewed every heartbeat. The epoch is
//   raised atomically (one Lua script) to max(counter, H) + 1, H being the highest epoch in this broker's data dir,
//   in any registration, or in any partition state: a store that lost data cannot hand out an old epoch again.
//   Every broker keeps the highest epoch it has seen in its data dir and publishes it in its registration.
// - Validity: the holder acts only until sentAt + TTL, sentAt being when the request that took or renewed the lease
//   was sent (monotonic clock). Past that, or when a renewal fails or a fenced write is refused, it resigns.
// - When the store has lost the cluster's keys (no metadata incarnation), a broker that has been in the cluster
//   before waits one session timeout before it stands, so that every broker has re-registered and published its
//   highest epoch and its metadata.
import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { errors } from '../common/brook-error.js';
import { type CancelTimer, type Clock, CLOCK, everyMs, systemClock } from '../common/clock.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { CoordinationStore } from '../coordination/coordination-store.js';
import {
  BROKERS_PREFIX,
  CLUSTER_ID_KEY,
  CONTROLLER_EPOCH_KEY,
  CONTROLLER_KEY,
  METADATA_INCARNATION_KEY,
  PARTITION_STATE_PREFIX,
} from '../coordination/cluster-keys.js';
import type { BrokerRegistration, PartitionState } from '../topic/cluster-metadata.js';
import { type BrokerMeta, BrokerMetaFile } from './broker-meta.js';
import { RegistrationKeeper } from './broker-registration.js';

interface ControllerLeaseValue {
  brokerId: number;
  token: string;
}

export type ElectionListener = (epoch: number) => void;

@Injectable()
export class ControllerElection implements OnModuleDestroy {
  private readonly logger = new Logger(ControllerElection.name);
  private readonly leaseValue: string;
  private controllerEpoch = -1;
  private leaseValidUntilMs = -Infinity;
  private stopHeartbeat: CancelTimer | null = null;
  private ticking = false;
  private storeEmptySinceMs: number | null = null;
  private meta: BrokerMeta = { brokerId: -1, clusterId: null, highestControllerEpochSeen: 0 };
  private readonly electedListeners: ElectionListener[] = [];
  private readonly resignedListeners: ElectionListener[] = [];
  private readonly idTakenListeners: Array<(message: string) => void> = [];
  private stopped = false;
  private readonly metaFile: BrokerMetaFile;
  private readonly registration: RegistrationKeeper;
  clusterId = '';

  constructor(
    private readonly store: CoordinationStore,
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {
    const lease: ControllerLeaseValue = { brokerId: config.brokerId, token: randomBytes(16).toString('hex') };
    this.leaseValue = JSON.stringify(lease);
    this.metaFile = new BrokerMetaFile(config.dataDir, config.brokerId);
    this.registration = new RegistrationKeeper(store, config, clock, this.logger, () => this.meta);
  }

  /** This process's incarnation: its broker epoch, known once start() has registered it. */
  get brokerEpoch(): number {
    return this.registration.brokerEpoch;
  }

  get sessionTimeoutMs(): number {
    return this.config.brokerSessionTimeoutMs;
  }

  get highestControllerEpochSeen(): number {
    return this.meta.highestControllerEpochSeen;
  }

  /** Called with the new epoch when this broker becomes controller. */
  /** Called when another live process has taken this broker's id: this process must stop serving. */
  onIdTaken(listener: (message: string) => void): void {
    this.idTakenListeners.push(listener);
  }

  onElected(listener: ElectionListener): void {
    this.electedListeners.push(listener);
  }

  /** Called with the old epoch when this broker stops being controller. */
  onResigned(listener: ElectionListener): void {
    this.resignedListeners.push(listener);
  }

  /** Registers this broker, learns or creates the cluster id, and tries to become controller. */
  async start(): Promise<void> {
    this.meta = await this.metaFile.read();
    this.clusterId = await this.ensureClusterId();
    if (this.meta.clusterId !== null && this.meta.clusterId !== this.clusterId) {
      throw new Error(
        `data dir ${this.config.dataDir} belongs to cluster ${this.meta.clusterId}, but the coordination store holds cluster ${this.clusterId}`,
      );
    }
    this.meta.clusterId = this.clusterId;
    this.meta.directoryId ??= randomBytes(16).toString('hex');
    await this.metaFile.save(this.meta);
    await this.registration.registerAtStart();
    await this.metaFile.save(this.meta);
    await this.standIfAllowed();
    this.stopHeartbeat = everyMs(this.clock, this.config.brokerHeartbeatIntervalMs, () => void this.tick());
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.stopHeartbeat?.();
    if (this.controllerEpoch >= 0) this.resign('shutting down');
    await this.store.releaseLease(CONTROLLER_KEY, this.leaseValue).catch(() => false);
    await this.registration.release();
  }

  isController(): boolean {
    return this.controllerEpoch >= 0 && this.clock.monotonicMs() < this.leaseValidUntilMs;
  }

  /** The epoch to stamp on a controller write; refuses when this broker may no longer hold the lease. */
  assertController(): number {
    if (!this.isController()) throw errors.brokerNotAvailable('This broker is not the controller; retry.');
    return this.controllerEpoch;
  }

  currentControllerEpoch(): number {
    return this.controllerEpoch;
  }

  /** Stops acting as controller at once (a fenced write was refused, or the lease may have lapsed). */
  resign(reason: string): void {
    const epoch = this.controllerEpoch;
    if (epoch < 0) return;
    this.controllerEpoch = -1;
    this.leaseValidUntilMs = -Infinity;
    this.logger.warn(`broker ${this.config.brokerId} resigns as controller (epoch ${epoch}): ${reason}`);
    for (const listener of this.resignedListeners) listener(epoch);
    // If the key is still ours, free it for the next candidate now rather than after its TTL (token-checked).
    void this.store.releaseLease(CONTROLLER_KEY, this.leaseValue).catch(() => false);
  }

  /** The controller's broker id, null when none is elected; 503 while the store cannot be read. */
  async controllerId(): Promise<number | null> {
    const lease = await this.store.get(CONTROLLER_KEY).catch(storeUnavailable);
    if (lease === null) return null;
    return (JSON.parse(lease.value) as ControllerLeaseValue).brokerId;
  }

  /** The registered brokers by id; 503 while the store cannot be read. */
  async liveBrokers(): Promise<BrokerRegistration[]> {
    const entries = await this.store.list(BROKERS_PREFIX).catch(storeUnavailable);
    return entries
      .map((entry) => JSON.parse(entry.value) as BrokerRegistration)
      .sort((a, b) => a.brokerId - b.brokerId);
  }

  async liveBrokerIds(): Promise<number[]> {
    return (await this.liveBrokers()).map((broker) => broker.brokerId);
  }

  /**
   * The floor of the next producer-id block: the highest block this broker took or saw, and the highest any live
   * broker publishes in its registration, so that a counter the store lost never hands out a block again.
   */
  async producerIdBlockFloor(): Promise<number> {
    let highest = this.meta.highestProducerIdBlockSeen ?? 0;
    for (const broker of await this.liveBrokers()) highest = Math.max(highest, broker.highestProducerIdBlockSeen ?? 0);
    return highest;
  }

  /** Remembers a producer-id block taken or seen, in the data dir at once (before its ids are handed out). */
  async observeProducerIdBlock(block: number): Promise<void> {
    if (block <= (this.meta.highestProducerIdBlockSeen ?? 0)) return;
    this.meta.highestProducerIdBlockSeen = block;
    await this.metaFile.save(this.meta);
  }

  /** Remembers an epoch seen elsewhere (a partition state, a peer's answer); persisted at the next heartbeat. */
  observeControllerEpoch(epoch: number): void {
    if (epoch > this.meta.highestControllerEpochSeen) this.meta.highestControllerEpochSeen = epoch;
  }

  private async tick(): Promise<void> {
    if (this.ticking || this.stopped) return;
    this.ticking = true;
    try {
      await this.renewControllerLease();
      await this.renewRegistration();
      await this.noticeEmptyStore();
      if (this.controllerEpoch < 0) await this.standIfAllowed();
      await this.metaFile.save(this.meta);
    } catch (error) {
      this.logger.error(`heartbeat failed: ${(error as Error).message}`);
    } finally {
      this.ticking = false;
    }
    if (this.controllerEpoch >= 0 && this.clock.monotonicMs() >= this.leaseValidUntilMs) {
      this.resign('the lease may have expired (no successful renewal within the session timeout)');
    }
  }

  private async renewControllerLease(): Promise<void> {
    if (this.controllerEpoch < 0) return;
    if (this.clock.monotonicMs() >= this.leaseValidUntilMs) {
      this.resign('the lease may have expired before it could be renewed');
      return;
    }
    const sentAt = this.clock.monotonicMs();
    if (await this.store.renewLease(CONTROLLER_KEY, this.leaseValue, this.sessionTimeoutMs)) {
      this.leaseValidUntilMs = sentAt + this.sessionTimeoutMs;
    } else {
      this.resign('the controller lease is gone or held by another broker');
    }
  }

  /** Renews the registration, publishing a higher epoch seen; stops this process when another holds its id. */
  private async renewRegistration(): Promise<void> {
    this.observeControllerEpoch(await this.store.readCounter(CONTROLLER_EPOCH_KEY));
    if ((await this.registration.renew()) === 'renewed') return;
    // Another process now holds this id (it started while this one was paused past its session). Two brokers with
    // one id would both act on that id's partitions: this one, the stale one, stops.
    const message = `broker id ${this.config.brokerId} is now registered by another broker process; this one stops`;
    this.logger.error(message);
    this.stopped = true;
    for (const listener of this.idTakenListeners) listener(message);
  }

  /** Tracks how long the store has been without the cluster's keys; puts the cluster id back at once. */
  private async noticeEmptyStore(): Promise<void> {
    if ((await this.store.get(METADATA_INCARNATION_KEY)) !== null) {
      this.storeEmptySinceMs = null;
      return;
    }
    this.storeEmptySinceMs ??= this.clock.monotonicMs();
    await this.store.put(CLUSTER_ID_KEY, this.clusterId, { expectedVersion: 0 });
  }

  private async standIfAllowed(): Promise<void> {
    if (this.stopped) return;
    if (await this.mustWaitForRegistrations()) return;
    const sentAt = this.clock.monotonicMs();
    if (!(await this.store.acquireLease(CONTROLLER_KEY, this.leaseValue, this.sessionTimeoutMs))) return;
    let epoch: number;
    try {
      epoch = await this.store.raiseCounterAbove(CONTROLLER_EPOCH_KEY, await this.highestKnownEpoch());
    } catch (error) {
      await this.store.releaseLease(CONTROLLER_KEY, this.leaseValue).catch(() => false);
      throw error;
    }
    this.controllerEpoch = epoch;
    this.leaseValidUntilMs = sentAt + this.sessionTimeoutMs;
    this.observeControllerEpoch(epoch);
    await this.metaFile.save(this.meta);
    this.logger.log(`broker ${this.config.brokerId} is controller with epoch ${epoch}`);
    for (const listener of this.electedListeners) listener(epoch);
  }

  /**
   * A store without the cluster's keys: a new cluster, or Redis came back empty. Brokers that were in the cluster
   * before (and so may hold metadata to restore) wait one session timeout for everybody to re-register. One broker
   * on the embedded store has nobody to wait for.
   */
  private async mustWaitForRegistrations(): Promise<boolean> {
    if (this.config.redisUrl === null) return false;
    if (this.storeEmptySinceMs === null && (await this.store.get(METADATA_INCARNATION_KEY)) === null) {
      if (this.meta.highestControllerEpochSeen > 0) this.storeEmptySinceMs = this.clock.monotonicMs();
    }
    if (this.storeEmptySinceMs === null) return false;
    return this.clock.monotonicMs() - this.storeEmptySinceMs < this.sessionTimeoutMs;
  }

  /** H of the epoch rule: the highest epoch in this data dir, in any registration, or in any partition state. */
  private async highestKnownEpoch(): Promise<number> {
    let highest = this.meta.highestControllerEpochSeen;
    for (const broker of await this.liveBrokers()) highest = Math.max(highest, broker.highestControllerEpochSeen);
    for (const entry of await this.store.list(PARTITION_STATE_PREFIX)) {
      highest = Math.max(highest, (JSON.parse(entry.value) as PartitionState).controllerEpoch);
    }
    return highest;
  }

  private async ensureClusterId(): Promise<string> {
    const candidate = this.meta.clusterId ?? randomBytes(16).toString('base64url').slice(0, 22);
    await this.store.put(CLUSTER_ID_KEY, candidate, { expectedVersion: 0 });
    const stored = await this.store.get(CLUSTER_ID_KEY);
    if (stored === null) throw new Error('the coordination store lost the cluster id while starting');
    return stored.value;
  }
}

function storeUnavailable(error: unknown): never {
  throw errors.brokerNotAvailable(`The coordination store is not reachable: ${(error as Error).message}`);
}
