// Who is controller, and the broker's own registration (Kafka's /controller and /brokers/ids/N, through the
// coordination store). The lease is held with a random token and renewed by heartbeat; the controller epoch is
// raised atomically to max(counter, highest epoch this broker has seen) + 1, and the highest epoch seen is kept in
// the data dir, so a store that lost its data cannot hand out an old epoch again. The holder stops acting as soon
// as its lease may have lapsed: validity = TTL minus the time since the renewal request was sent (monotonic clock).
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../common/atomic-file.js';
import { errors } from '../common/brook-error.js';
import { systemClock } from '../common/clock.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { CoordinationStore } from '../coordination/coordination-store.js';
import {
  BROKERS_PREFIX,
  brokerKey,
  CLUSTER_ID_KEY,
  CONTROLLER_EPOCH_KEY,
  CONTROLLER_KEY,
  BROKER_EPOCH_KEY,
} from '../coordination/cluster-keys.js';
import type { BrokerRegistration } from '../topic/cluster-metadata.js';

export const BROKER_SESSION_TIMEOUT_MS_DEFAULT = 9_000;
export const BROKER_HEARTBEAT_INTERVAL_MS_DEFAULT = 2_000;
const BROKER_META_FILE = 'broker-meta.json';

interface BrokerMeta {
  brokerId: number;
  clusterId: string | null;
  highestControllerEpochSeen: number;
}

@Injectable()
export class ControllerElection implements OnModuleDestroy {
  private readonly logger = new Logger(ControllerElection.name);
  private readonly token = randomBytes(16).toString('hex');
  private controllerEpoch = -1;
  private leaseValidUntilMs = -Infinity;
  private heartbeat: NodeJS.Timeout | null = null;
  private registeredValue = '';
  private meta: BrokerMeta = { brokerId: -1, clusterId: null, highestControllerEpochSeen: 0 };
  brokerEpoch = -1;
  clusterId = '';

  constructor(
    private readonly store: CoordinationStore,
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
  ) {}

  get sessionTimeoutMs(): number {
    return BROKER_SESSION_TIMEOUT_MS_DEFAULT;
  }

  /** Registers this broker, learns or creates the cluster id, and tries to become controller. */
  async start(): Promise<void> {
    this.meta = await this.readMeta();
    this.clusterId = await this.ensureClusterId();
    if (this.meta.clusterId !== null && this.meta.clusterId !== this.clusterId) {
      throw new Error(
        `data dir ${this.config.dataDir} belongs to cluster ${this.meta.clusterId}, but the coordination store holds cluster ${this.clusterId}`,
      );
    }
    this.brokerEpoch = await this.store.increment(BROKER_EPOCH_KEY);
    await this.register();
    await this.tryBecomeController();
    await this.saveMeta();
    this.heartbeat = setInterval(() => void this.tick(), BROKER_HEARTBEAT_INTERVAL_MS_DEFAULT);
    this.heartbeat.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.isController()) await this.store.releaseLease(CONTROLLER_KEY, this.token).catch(() => false);
    await this.store.releaseLease(brokerKey(this.config.brokerId), this.registeredValue).catch(() => false);
  }

  isController(): boolean {
    return this.controllerEpoch >= 0 && systemClock.monotonicMs() < this.leaseValidUntilMs;
  }

  /** The epoch to stamp on a controller write; refuses when this broker may no longer hold the lease. */
  assertController(): number {
    if (!this.isController()) throw errors.brokerNotAvailable('This broker is not the controller; retry.');
    return this.controllerEpoch;
  }

  currentControllerEpoch(): number {
    return this.controllerEpoch;
  }

  async controllerId(): Promise<number | null> {
    const lease = await this.store.get(CONTROLLER_KEY);
    if (lease === null) return null;
    return (JSON.parse(lease.value) as { brokerId: number }).brokerId;
  }

  async liveBrokers(): Promise<BrokerRegistration[]> {
    const entries = await this.store.list(BROKERS_PREFIX);
    return entries
      .map((entry) => JSON.parse(entry.value) as BrokerRegistration)
      .sort((a, b) => a.brokerId - b.brokerId);
  }

  async liveBrokerIds(): Promise<number[]> {
    return (await this.liveBrokers()).map((broker) => broker.brokerId);
  }

  private registrationValue(): string {
    const registration: BrokerRegistration = {
      brokerId: this.config.brokerId,
      url: this.config.advertisedUrl,
      brokerEpoch: this.brokerEpoch,
      highestControllerEpochSeen: this.meta.highestControllerEpochSeen,
    };
    return JSON.stringify(registration);
  }

  private async register(): Promise<void> {
    this.registeredValue = this.registrationValue();
    const acquired = await this.store.acquireLease(
      brokerKey(this.config.brokerId),
      this.registeredValue,
      this.sessionTimeoutMs,
    );
    if (!acquired) {
      throw new Error(`broker id ${this.config.brokerId} is already registered by a live broker; refusing to start`);
    }
  }

  private async tryBecomeController(): Promise<void> {
    const sentAt = systemClock.monotonicMs();
    const value = JSON.stringify({ brokerId: this.config.brokerId, token: this.token });
    if (!(await this.store.acquireLease(CONTROLLER_KEY, value, this.sessionTimeoutMs))) return;
    this.controllerEpoch = await this.store.raiseCounterAbove(
      CONTROLLER_EPOCH_KEY,
      this.meta.highestControllerEpochSeen,
    );
    this.meta.highestControllerEpochSeen = this.controllerEpoch;
    this.leaseValidUntilMs = sentAt + this.sessionTimeoutMs;
    this.logger.log(`broker ${this.config.brokerId} is controller with epoch ${this.controllerEpoch}`);
  }

  private async tick(): Promise<void> {
    try {
      if (!(await this.store.renewLease(brokerKey(this.config.brokerId), this.registeredValue, this.sessionTimeoutMs)))
        await this.register();
      if (this.controllerEpoch >= 0) {
        const sentAt = systemClock.monotonicMs();
        const value = JSON.stringify({ brokerId: this.config.brokerId, token: this.token });
        if (await this.store.renewLease(CONTROLLER_KEY, value, this.sessionTimeoutMs)) {
          this.leaseValidUntilMs = sentAt + this.sessionTimeoutMs;
        } else {
          this.logger.warn(`lost the controller lease (epoch ${this.controllerEpoch}); resigning`);
          this.controllerEpoch = -1;
        }
      }
      if (this.controllerEpoch < 0) {
        await this.tryBecomeController();
        await this.saveMeta();
      }
    } catch (error) {
      this.logger.error(`heartbeat failed: ${(error as Error).message}`);
    }
  }

  private async ensureClusterId(): Promise<string> {
    const candidate = this.meta.clusterId ?? randomBytes(16).toString('base64url').slice(0, 22);
    await this.store.put(CLUSTER_ID_KEY, candidate, { expectedVersion: 0 });
    const stored = await this.store.get(CLUSTER_ID_KEY);
    if (stored === null) throw new Error('the coordination store lost the cluster id while starting');
    return stored.value;
  }

  private async readMeta(): Promise<BrokerMeta> {
    try {
      const meta = JSON.parse(await readFile(join(this.config.dataDir, BROKER_META_FILE), 'utf8')) as BrokerMeta;
      if (meta.brokerId !== this.config.brokerId) {
        throw new Error(
          `data dir ${this.config.dataDir} belongs to broker ${meta.brokerId}, not ${this.config.brokerId}`,
        );
      }
      return meta;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return { brokerId: this.config.brokerId, clusterId: null, highestControllerEpochSeen: 0 };
      }
      throw error;
    }
  }

  private async saveMeta(): Promise<void> {
    this.meta.clusterId = this.clusterId;
    await writeFileAtomic(join(this.config.dataDir, BROKER_META_FILE), JSON.stringify(this.meta));
  }
}
