// The JoinGroup and SyncGroup requests of Kafka clients that wait for their group (classic-membership.ts decides
// when they are answered; this holds the promises the Kafka handlers await until then). At most one wait per
// member and kind: a member that asks again (from another connection) replaces its earlier wait, which is
// answered REBALANCE_IN_PROGRESS so that its client joins again. The machine answers every wait within a
// rebalance or new-member timeout, so the number of waits is bounded by the groups' members.
import {
  joinError,
  syncError,
  type ClassicEffects,
  type ClassicError,
  type JoinAnswer,
  type SyncAnswer,
} from './classic-answers.js';

type Kind = 'join' | 'sync';

interface Waiter {
  kind: Kind;
  resolve(answer: JoinAnswer | SyncAnswer): void;
}

export class ClassicWaiters {
  private readonly byGroup = new Map<string, Map<string, Waiter>>();

  /** Waits for the answer to `memberId`'s JoinGroup in `groupId`. */
  join(groupId: string, memberId: string): Promise<JoinAnswer> {
    return this.wait(groupId, memberId, 'join') as Promise<JoinAnswer>;
  }

  /** Waits for the answer to `memberId`'s SyncGroup in `groupId`. */
  sync(groupId: string, memberId: string): Promise<SyncAnswer> {
    return this.wait(groupId, memberId, 'sync') as Promise<SyncAnswer>;
  }

  private wait(groupId: string, memberId: string, kind: Kind): Promise<JoinAnswer | SyncAnswer> {
    let waiters = this.byGroup.get(groupId);
    if (waiters === undefined) {
      waiters = new Map();
      this.byGroup.set(groupId, waiters);
    }
    const key = `${kind}\u0000${memberId}`;
    const earlier = waiters.get(key);
    if (earlier !== undefined) earlier.resolve(errorAnswer(kind, 'REBALANCE_IN_PROGRESS', memberId));
    return new Promise((resolve) => waiters.set(key, { kind, resolve }));
  }

  /** Answers the waits that `effects` answer; an answer nobody waits for any more is dropped. */
  deliver(groupId: string, effects: ClassicEffects): void {
    const waiters = this.byGroup.get(groupId);
    if (waiters === undefined) return;
    for (const { memberId, answer } of effects.joins) this.settle(waiters, `join\u0000${memberId}`, answer);
    for (const { memberId, answer } of effects.syncs) this.settle(waiters, `sync\u0000${memberId}`, answer);
    if (waiters.size === 0) this.byGroup.delete(groupId);
  }

  /** The group is no longer served here (its coordinator moved): every wait gets `error`. */
  failGroup(groupId: string, error: ClassicError): void {
    const waiters = this.byGroup.get(groupId);
    if (waiters === undefined) return;
    this.byGroup.delete(groupId);
    for (const [key, waiter] of waiters) waiter.resolve(errorAnswer(waiter.kind, error, key.split('\u0000')[1]));
  }

  /** How many requests wait now (a gauge for tests and metrics). */
  get size(): number {
    let count = 0;
    for (const waiters of this.byGroup.values()) count += waiters.size;
    return count;
  }

  private settle(waiters: Map<string, Waiter>, key: string, answer: JoinAnswer | SyncAnswer): void {
    const waiter = waiters.get(key);
    if (waiter === undefined) return;
    waiters.delete(key);
    waiter.resolve(answer);
  }
}

function errorAnswer(kind: Kind, error: ClassicError, memberId: string): JoinAnswer | SyncAnswer {
  return kind === 'join' ? joinError(error, memberId) : syncError(error);
}
