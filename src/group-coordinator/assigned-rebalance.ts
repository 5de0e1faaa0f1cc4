// When a Brook-assigned group (consumer-group.ts: REST v2 instances, WebSocket and SSE members, whose assignment
// the coordinator computes) rebalances: a join, a leave or a changed subscription starts the PreparingRebalance
// phase, and the coordinator's tick computes the next generation once the phase's deadline has passed. A settled
// group rebalances at the next tick; an empty group's first rebalance waits Kafka's initial delay
// (initial-rebalance-delay.ts). Pure; time from the injected Clock.
import type { Clock } from '../common/clock.js';
import type { Member } from './group-member.js';
import type { GroupState } from './group-state.js';
import { extendedJoinDeadline, initialJoinPhase } from './initial-rebalance-delay.js';

export interface RebalanceHost {
  readonly state: GroupState;
  readonly members: ReadonlyMap<string, Member>;
  moveTo(state: GroupState): void;
}

export class AssignedRebalance {
  private deadlineMs = 0;
  /** Set during the initial rebalance of a new group: the latest the join phase may end. */
  private initialDelayCapMs: number | null = null;

  constructor(
    private readonly host: RebalanceHost,
    private readonly initialRebalanceDelayMs: number,
    private readonly clock: Clock,
  ) {}

  /** The members changed: a rebalance starts, or the initial one waits another delay (capped). */
  trigger(): void {
    const now = this.clock.monotonicMs();
    switch (this.host.state) {
      case 'Empty': {
        this.host.moveTo('PreparingRebalance');
        const rebalanceTimeoutMs = Math.max(0, ...[...this.host.members.values()].map((m) => m.rebalanceTimeoutMs));
        const phase = initialJoinPhase(now, this.initialRebalanceDelayMs, rebalanceTimeoutMs);
        this.initialDelayCapMs = phase.capMs;
        this.deadlineMs = phase.deadlineMs;
        return;
      }
      case 'PreparingRebalance':
        if (this.initialDelayCapMs !== null) {
          this.deadlineMs = extendedJoinDeadline(now, this.initialRebalanceDelayMs, this.initialDelayCapMs);
        }
        return;
      case 'CompletingRebalance':
      case 'Stable':
        this.host.moveTo('PreparingRebalance');
        this.initialDelayCapMs = null;
        this.deadlineMs = now;
        return;
      case 'Dead':
        return;
    }
  }

  /** When the next generation is due (monotonic ms) while a rebalance is being prepared, else null. */
  get dueMs(): number | null {
    return this.host.state === 'PreparingRebalance' ? this.deadlineMs : null;
  }

  /** Whether the next generation is due at `nowMs`: a rebalance is being prepared and its deadline has passed. */
  due(nowMs: number): boolean {
    return this.host.state === 'PreparingRebalance' && nowMs >= this.deadlineMs;
  }

  /** The next generation was computed: any initial delay is over. */
  computed(): void {
    this.initialDelayCapMs = null;
  }
}
