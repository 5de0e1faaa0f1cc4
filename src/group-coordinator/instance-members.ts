// The REST v2 consumer instances of a group as its members (consumer-group.ts keeps both): after a load, an
// instance with a subscription is a member with the instance's session, and a REST member whose instance is gone
// is not. A group that Kafka clients use has no instances to reconcile.
import type { JoinRequest, Member } from './group-member.js';
import type { InstanceValue } from './group-records.js';
import { sameSubscription } from './group-generation.js';

export interface InstanceGroup {
  readonly usedBy: 'kafka' | 'brook' | null;
  readonly members: ReadonlyMap<string, Member>;
  readonly instances: ReadonlyMap<string, InstanceValue>;
  join(request: JoinRequest): { rebalance: boolean };
  leave(memberId: string): boolean;
}

/** Returns whether membership changed. */
export function reconcileInstances(group: InstanceGroup, instanceSessionTimeoutMs: number): boolean {
  let changed = false;
  if (group.usedBy === 'kafka') return false;
  for (const [name, instance] of group.instances) {
    if (instance.subscription === null) continue;
    const member = group.members.get(name);
    if (member !== undefined && sameSubscription(member.subscription, instance.subscription)) continue;
    group.join({
      memberId: name,
      groupInstanceId: null,
      clientId: name,
      kind: 'rest',
      subscription: instance.subscription,
      sessionTimeoutMs: instanceSessionTimeoutMs,
      rebalanceTimeoutMs: instanceSessionTimeoutMs,
    });
    changed = true;
  }
  for (const member of [...group.members.values()]) {
    if (member.kind === 'rest' && group.instances.get(member.memberId)?.subscription == null) {
      group.leave(member.memberId);
      changed = true;
    }
  }
  return changed;
}
