// Authorisation: may this principal do this operation on this resource? Off (BROOK_AUTHORIZER_ENABLE=false) every
// authenticated principal may do everything; on, super users (BROOK_SUPER_USERS) may, and everyone else needs a
// matching ALLOW and no matching DENY in the ACLs (acl.ts has the rules, acl-store.service.ts the ACLs).
//
// This is the API the WebSocket gateway and SSE call too:
//   authorize(principal, host, operation, resource) -> boolean
//   check(principal, host, operation, resource)     -> throws 403 (40301) when not allowed
// Decisions are remembered until the ACLs change (at most AUTHORIZATION_CACHE_ENTRIES_MAX of them), since streams
// ask before every delivery and pattern subscriptions ask for every topic at every group tick.
import { Inject, Injectable } from '@nestjs/common';
import { BrookError } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { decide, type Operation, type Resource } from './acl.js';
import { AclStore } from './acl-store.service.js';

export type CheckedOperation = Exclude<Operation, 'ALL'>;

/** One right a request needs (a REST route's, a WebSocket frame's). */
export interface Check {
  operation: CheckedOperation;
  resource: Resource;
  /** Also satisfied by the same operation on the cluster (Kafka's rule for CREATE). */
  orCluster?: boolean;
}

export const forbidden = (message: string) => new BrookError(403, 40301, message);

export const AUTHORIZATION_CACHE_ENTRIES_MAX = 100_000;

@Injectable()
export class Authorizer {
  private readonly superUsers: ReadonlySet<string>;
  private readonly decisions = new Map<string, boolean>();
  private decisionsVersion = -1;

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly acls: AclStore,
  ) {
    this.superUsers = new Set(config.security.superUsers);
  }

  get enabled(): boolean {
    return this.config.security.authorizerEnable;
  }

  authorize(principal: string, host: string, operation: CheckedOperation, resource: Resource): boolean {
    if (!this.enabled || this.superUsers.has(principal)) return true;
    if (this.decisionsVersion !== this.acls.version || this.decisions.size >= AUTHORIZATION_CACHE_ENTRIES_MAX) {
      this.decisions.clear();
      this.decisionsVersion = this.acls.version;
    }
    const key = `${principal}\u0000${host}\u0000${operation}\u0000${resource.type}\u0000${resource.name}`;
    let allowed = this.decisions.get(key);
    if (allowed === undefined) {
      allowed = decide(this.acls.all(), { principal, host, operation, resource });
      this.decisions.set(key, allowed);
    }
    return allowed;
  }

  /** Called after every change of the ACLs. */
  onChange(listener: () => void): void {
    this.acls.onChange(listener);
  }

  check(principal: string, host: string, operation: CheckedOperation, resource: Resource): void {
    if (!this.authorize(principal, host, operation, resource)) {
      throw forbidden(
        `${principal} is not authorized to ${operation} ${resource.type.toLowerCase()} '${resource.name}'.`,
      );
    }
  }
}
