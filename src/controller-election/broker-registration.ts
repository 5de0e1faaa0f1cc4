// This broker's registration (Kafka's /brokers/ids/N): a TTL key renewed every heartbeat, value = BrokerRegistration
// (also the lease token).
//
// - Each start of the process is a new incarnation: a new broker epoch from a counter raised above the last one
//   this broker had (and above the registration it replaces), so it never goes backwards even when the store lost it.
// - A registration of this id that carries this data dir's random directory id is this broker's own previous
//   incarnation (main.ts holds the data dir's lock, so that process is gone): it is replaced at once, and the
//   controller handles the new epoch as a failure followed by a start-up. A registration of this id from another
//   directory is another broker: wait one session timeout for it to lapse, then refuse to start.
// - A registration lost while the process runs (paused past its session, a store that lost its keys) is taken again
//   with the same broker epoch: the same process, with the same logs, is the same incarnation. Held by another
//   process by then, the id is taken: the caller stops.
import type { Logger } from '@nestjs/common';
import { type Clock, sleep } from '../common/clock.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { BROKER_EPOCH_KEY, brokerKey } from '../coordination/cluster-keys.js';
import type { CoordinationStore } from '../coordination/coordination-store.js';
import type { BrokerRegistration } from '../topic/cluster-metadata.js';
import type { BrokerMeta } from './broker-meta.js';

/** How often start-up looks again whether another broker's registration of this id has lapsed. */
const LAPSE_POLL_MS_MAX = 500;

export class RegistrationKeeper {
  brokerEpoch = -1;
  private registeredValue = '';

  constructor(
    private readonly store: CoordinationStore,
    private readonly config: BrokerConfig,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** The data dir's meta, read by the owner at start: directory id, last broker epoch, highest epoch seen. */
    private readonly meta: () => BrokerMeta,
  ) {}

  private get key(): string {
    return brokerKey(this.config.brokerId);
  }

  private get ttlMs(): number {
    return this.config.brokerSessionTimeoutMs;
  }

  /** Registers this incarnation; refuses to start after one session of another broker holding the id. */
  async registerAtStart(): Promise<void> {
    const deadline = this.clock.monotonicMs() + this.ttlMs + this.config.brokerHeartbeatIntervalMs;
    let warned = false;
    while (!(await this.registerNewIncarnation())) {
      if (this.clock.monotonicMs() > deadline) {
        throw new Error(
          `broker id ${this.config.brokerId} is already registered by a live broker; refusing to start ` +
            '(give each broker its own BROOK_BROKER_ID)',
        );
      }
      if (!warned) {
        this.logger.warn(`broker id ${this.config.brokerId} is registered; waiting for that registration to lapse`);
        warned = true;
      }
      await sleep(this.clock, Math.min(this.config.brokerHeartbeatIntervalMs, LAPSE_POLL_MS_MAX));
    }
  }

  /**
   * One heartbeat's renewal, publishing the highest controller epoch seen; a lost registration is taken again.
   * 'taken' when another process holds this id now.
   */
  async renew(): Promise<'renewed' | 'taken'> {
    if (!(await this.store.renewLease(this.key, this.registeredValue, this.ttlMs))) {
      if (await this.adoptOwnRegistration()) return 'renewed'; // ours, under a value whose write answer was lost
      this.logger.warn(`registration of broker ${this.config.brokerId} was lost; registering again`);
      return (await this.registerAgain()) ? 'renewed' : 'taken';
    }
    const wanted = this.value();
    if (wanted === this.registeredValue) return 'renewed';
    const current = await this.store.get(this.key);
    if (current === null || current.value !== this.registeredValue) return 'renewed';
    const written = await this.store.put(this.key, wanted, { ttlMs: this.ttlMs, expectedVersion: current.version });
    if (written.ok) this.registeredValue = wanted;
    return 'renewed';
  }

  /** Deletes the registration if it is still this process's (a clean stop). */
  async release(): Promise<void> {
    if (this.registeredValue === '') return;
    await this.store.releaseLease(this.key, this.registeredValue).catch(() => false);
  }

  private value(): string {
    const meta = this.meta();
    const registration: BrokerRegistration = {
      brokerId: this.config.brokerId,
      url: this.config.advertisedUrl,
      ...(this.config.kafka.enabled
        ? { kafka: { host: this.config.kafka.advertisedHost, port: this.config.kafka.advertisedPort } }
        : {}),
      brokerEpoch: this.brokerEpoch,
      highestControllerEpochSeen: meta.highestControllerEpochSeen,
      directoryId: meta.directoryId,
      highestProducerIdBlockSeen: meta.highestProducerIdBlockSeen ?? 0,
    };
    return JSON.stringify(registration);
  }

  /**
   * Takes the registration key with a new broker epoch, replacing this broker's own earlier registration (same
   * directory id); false when another broker's live registration holds it.
   */
  private async registerNewIncarnation(): Promise<boolean> {
    const meta = this.meta();
    const current = await this.store.get(this.key);
    const previous = current === null ? null : parseRegistration(current.value);
    if (current !== null && (previous === null || previous.directoryId !== meta.directoryId)) return false;
    const floor = Math.max(meta.lastBrokerEpoch ?? 0, previous?.brokerEpoch ?? 0);
    this.brokerEpoch = await this.store.raiseCounterAbove(BROKER_EPOCH_KEY, floor);
    meta.lastBrokerEpoch = this.brokerEpoch;
    const value = this.value();
    const written =
      current === null
        ? await this.store.acquireLease(this.key, value, this.ttlMs)
        : (await this.store.put(this.key, value, { ttlMs: this.ttlMs, expectedVersion: current.version })).ok;
    // the write may have landed with its answer lost (a command timeout): then the key is ours
    if (!written) return this.adoptOwnRegistration();
    if (previous !== null) {
      this.logger.warn(
        `broker ${this.config.brokerId} replaced the registration of its previous incarnation ` +
          `(broker epoch ${previous.brokerEpoch} -> ${this.brokerEpoch})`,
      );
    }
    this.registeredValue = value;
    return true;
  }

  /**
   * Takes the registration key again, as the same incarnation, after it was lost while this process ran; false
   * when another process holds it. The counter is raised past this epoch in case the store lost it.
   */
  private async registerAgain(): Promise<boolean> {
    await this.store.raiseCounterAbove(BROKER_EPOCH_KEY, this.brokerEpoch);
    const value = this.value();
    if (!(await this.store.acquireLease(this.key, value, this.ttlMs))) return this.adoptOwnRegistration();
    this.registeredValue = value;
    return true;
  }

  /**
   * Whether the registration key holds this incarnation's registration (its broker epoch, its URL) under a value
   * this process lost track of: a write that landed while its answer timed out, or an update whose answer was lost.
   * If so the value is adopted, so that the next renewal matches it.
   */
  private async adoptOwnRegistration(): Promise<boolean> {
    const current = await this.store.get(this.key);
    const stored = current === null ? null : parseRegistration(current.value);
    if (stored === null || stored.brokerEpoch !== this.brokerEpoch || stored.url !== this.config.advertisedUrl) {
      return false;
    }
    this.registeredValue = current!.value;
    return true;
  }
}

function parseRegistration(value: string): BrokerRegistration | null {
  try {
    return JSON.parse(value) as BrokerRegistration;
  } catch {
    return null;
  }
}
