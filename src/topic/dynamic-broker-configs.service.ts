// The dynamic broker configs (Kafka's /config/brokers/<id> and /config/brokers/<default>), kept in the coordination
// store (cluster-keys.ts: brook/broker-configs/default and brook/broker-configs/<id>) so that every broker of the
// cluster sees the same ones, and what each broker started with (brook/broker-start-configs/<id>, written at
// start-up) so that any broker describes any live one. Each broker caches the dynamic layers, reloads them on a
// watch event and every BROKER_CONFIGS_RECONCILE_INTERVAL_MS (watches are hints), and tells its listeners after a
// reload that changed them; a broker's own change is applied before the request that made it returns.
//
// A change is a read-modify-write of one key, compare-and-set on its version, retried at most
// BROKER_CONFIGS_WRITE_ATTEMPTS_MAX times when another broker wrote the key in between.
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { errors } from '../common/brook-error.js';
import { CLOCK, systemClock, type Clock } from '../common/clock.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import {
  applyBrokerConfigChanges,
  checkTopicDefaults,
  effectiveBrokerSettings,
  startLayer,
  type BrokerConfigChange,
  type DynamicLayer,
  type EffectiveBrokerSettings,
  type StartLayer,
} from '../config/broker-configs.js';
import {
  BROKER_CONFIGS_DEFAULT_KEY,
  BROKER_CONFIGS_PREFIX,
  brokerConfigsKey,
  brokerStartConfigsKey,
} from '../coordination/cluster-keys.js';
import { CoordinationStore } from '../coordination/coordination-store.js';
import { PrefixReconciler } from '../coordination/prefix-reconciler.js';

export const BROKER_CONFIGS_RECONCILE_INTERVAL_MS = 5_000;
export const BROKER_CONFIGS_WRITE_ATTEMPTS_MAX = 5;

/** Which layer a change is for: one broker's, or the cluster-wide defaults. */
export type BrokerConfigScope = { kind: 'broker'; brokerId: number } | { kind: 'default' };

@Injectable()
export class DynamicBrokerConfigs implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('DynamicBrokerConfigs');
  private clusterDefault: DynamicLayer = {};
  private brokers = new Map<number, DynamicLayer>();
  private fingerprint = '';
  private current: EffectiveBrokerSettings;
  private readonly start: StartLayer;
  private readonly listeners: Array<() => void> = [];
  private readonly reconciler: PrefixReconciler;

  constructor(
    private readonly store: CoordinationStore,
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    @Optional() @Inject(CLOCK) clock: Clock = systemClock,
  ) {
    this.start = startLayer(config);
    this.current = effectiveBrokerSettings(config, {}, {});
    this.reconciler = new PrefixReconciler(store, BROKER_CONFIGS_PREFIX, {
      reload: () => this.reload(),
      intervalMs: BROKER_CONFIGS_RECONCILE_INTERVAL_MS,
      clock,
      onError: (error) => this.logger.warn(`reloading the dynamic broker configs failed: ${error.message}`),
    });
  }

  async onModuleInit(): Promise<void> {
    await this.store.put(brokerStartConfigsKey(this.config.brokerId), JSON.stringify(this.start));
    await this.reconciler.start();
  }

  onModuleDestroy(): void {
    this.reconciler.stop();
  }

  /** Called after every change of the dynamic configs, made on this broker or another. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** What this broker acts on now. */
  settings(): EffectiveBrokerSettings {
    return this.current;
  }

  defaults(): DynamicLayer {
    return this.clusterDefault;
  }

  brokerLayer(brokerId: number): DynamicLayer {
    return this.brokers.get(brokerId) ?? {};
  }

  /** What a broker started with: this broker's from memory, another's from the store (null when never written). */
  async startLayerOf(brokerId: number): Promise<StartLayer | null> {
    if (brokerId === this.config.brokerId) return this.start;
    const stored = await this.store.get(brokerStartConfigsKey(brokerId));
    return stored === null ? null : (JSON.parse(stored.value) as StartLayer);
  }

  /**
   * Applies changes to one layer (all or none): 400 40002 for an unknown or read-only name or an invalid value;
   * with validateOnly nothing is written. Resolves once this broker acts on the result.
   */
  async alter(scope: BrokerConfigScope, changes: readonly BrokerConfigChange[], validateOnly: boolean): Promise<void> {
    const key = scope.kind === 'default' ? BROKER_CONFIGS_DEFAULT_KEY : brokerConfigsKey(scope.brokerId);
    for (let attempt = 1; attempt <= BROKER_CONFIGS_WRITE_ATTEMPTS_MAX; attempt++) {
      const stored = await this.store.get(key);
      const current = stored === null ? {} : (JSON.parse(stored.value) as DynamicLayer);
      const applied = applyBrokerConfigChanges(current, changes);
      if (!applied.ok) throw errors.invalidConfig(applied.message);
      const [defaults, broker] =
        scope.kind === 'default'
          ? [applied.configs, this.brokerLayer(this.config.brokerId)]
          : [this.clusterDefault, scope.brokerId === this.config.brokerId ? applied.configs : {}];
      const incoherent = checkTopicDefaults(this.config, defaults, broker);
      if (incoherent !== null) throw errors.invalidConfig(incoherent);
      if (validateOnly) return;
      const written =
        Object.keys(applied.configs).length === 0
          ? stored === null || (await this.store.delete(key, { expectedVersion: stored.version }))
          : (await this.store.put(key, JSON.stringify(applied.configs), { expectedVersion: stored?.version ?? 0 })).ok;
      if (written) {
        await this.reload();
        return;
      }
    }
    throw errors.retriable(`Broker configs changed concurrently ${BROKER_CONFIGS_WRITE_ATTEMPTS_MAX} times; try again`);
  }

  private async reload(): Promise<void> {
    const entries = await this.store.list(BROKER_CONFIGS_PREFIX);
    const fingerprint = entries.map((entry) => `${entry.key}@${entry.version}`).join('\n');
    if (fingerprint === this.fingerprint) return;
    let clusterDefault: DynamicLayer = {};
    const brokers = new Map<number, DynamicLayer>();
    for (const entry of entries) {
      const name = entry.key.slice(BROKER_CONFIGS_PREFIX.length);
      const layer = JSON.parse(entry.value) as DynamicLayer;
      if (entry.key === BROKER_CONFIGS_DEFAULT_KEY) clusterDefault = layer;
      else if (/^\d+$/.test(name)) brokers.set(Number(name), layer);
    }
    this.fingerprint = fingerprint;
    this.clusterDefault = clusterDefault;
    this.brokers = brokers;
    this.current = effectiveBrokerSettings(this.config, clusterDefault, this.brokerLayer(this.config.brokerId));
    for (const listener of this.listeners) listener();
  }
}
