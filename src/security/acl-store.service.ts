// The ACLs, kept in the coordination store so that every broker enforces the same ones: one key per binding,
// brook/acls/<SHA-256 of the binding>, value = the binding as JSON. Each broker caches them all in memory
// (authorization is on the request path), reloads on a watch event, and reconciles every
// ACL_RECONCILE_INTERVAL_MS in case an event was lost (watches are hints, coordination-store.ts). A broker's own
// changes are visible to it as soon as the request that made them returns. Every reload that changes the set
// bumps `version` and tells the listeners (the authorizer's decision cache, the re-authorization of open
// streams), whichever broker made the change.
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { CLOCK, systemClock, type Clock } from '../common/clock.js';
import { CoordinationStore } from '../coordination/coordination-store.js';
import { PrefixReconciler } from '../coordination/prefix-reconciler.js';
import { bindingKey, filterMatches, isKafkaResourceType, type AclBinding, type AclFilter } from './acl.js';

export const ACLS_PREFIX = 'brook/acls/';
export const ACL_RECONCILE_INTERVAL_MS = 5_000;
/** Bound on stored bindings: each request scans the cache. */
export const ACL_COUNT_MAX = 10_000;

const aclKey = (acl: AclBinding) => `${ACLS_PREFIX}${createHash('sha256').update(bindingKey(acl)).digest('hex')}`;

@Injectable()
export class AclStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AclStore');
  private acls: readonly AclBinding[] = [];
  private fingerprint = '';
  private readonly listeners: Array<() => void> = [];
  /** Incremented whenever the stored ACLs change. */
  version = 0;
  private readonly reconciler: PrefixReconciler;

  constructor(
    private readonly store: CoordinationStore,
    @Optional() @Inject(CLOCK) clock: Clock = systemClock,
  ) {
    this.reconciler = new PrefixReconciler(store, ACLS_PREFIX, {
      reload: () => this.reload(),
      intervalMs: ACL_RECONCILE_INTERVAL_MS,
      clock,
      onError: (error) => this.logger.warn(`reloading ACLs failed: ${error.message}`),
    });
  }

  onModuleInit(): Promise<void> {
    return this.reconciler.start();
  }

  onModuleDestroy(): void {
    this.reconciler.stop();
  }

  /** Called after every change of the ACLs (made on this broker or another). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  all(): readonly AclBinding[] {
    return this.acls;
  }

  search(filter: AclFilter): AclBinding[] {
    return this.acls.filter((acl) => filterMatches(filter, acl));
  }

  /** The bindings Kafka's DescribeAcls answers: the filter's matches of the resource types Kafka has (no SUBJECT). */
  searchKafka(filter: AclFilter): AclBinding[] {
    return this.search(filter).filter((acl) => isKafkaResourceType(acl.resource_type));
  }

  /** Stores a binding (idempotent: the same binding twice is one ACL). */
  async create(acl: AclBinding): Promise<void> {
    if (this.acls.length >= ACL_COUNT_MAX) throw new Error(`at most ${ACL_COUNT_MAX} ACLs can be stored`);
    await this.store.put(aclKey(acl), JSON.stringify(acl));
    await this.reload();
  }

  /** Stores several bindings (acls:batch), refusing the whole batch when it would pass the bound. */
  async createAll(bindings: readonly AclBinding[]): Promise<void> {
    if (this.acls.length + bindings.length > ACL_COUNT_MAX) {
      throw new Error(`at most ${ACL_COUNT_MAX} ACLs can be stored`);
    }
    for (const acl of bindings) await this.store.put(aclKey(acl), JSON.stringify(acl));
    await this.reload();
  }

  /** Deletes the bindings matching filter; returns them. */
  async delete(filter: AclFilter): Promise<AclBinding[]> {
    const doomed = this.search(filter);
    for (const acl of doomed) await this.store.delete(aclKey(acl));
    await this.reload();
    return doomed;
  }

  private async reload(): Promise<void> {
    const entries = await this.store.list(ACLS_PREFIX);
    const fingerprint = entries
      .map((entry) => entry.key)
      .sort()
      .join('\n');
    this.acls = entries.map((entry) => JSON.parse(entry.value) as AclBinding);
    if (fingerprint === this.fingerprint) return;
    this.fingerprint = fingerprint;
    this.version++;
    for (const listener of this.listeners) listener();
  }
}
