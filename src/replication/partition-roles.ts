// The role changes of the partitions this broker hosts, for the replica manager: from a partition state in the
// metadata (the controller's decision) to the transition of its Partition (partition-role.ts has the transition
// table), the follower fetcher it needs started or stopped (follower-fetchers.ts), and the effects executed
// (effect-executor.ts). A leadership or a transition refused is logged once per partition and leader epoch.
//
//   role       entered when the partition state says              here
//   none       the log is not open, or the partition has no leader, stop any fetcher
//              or it names this broker but leadership-admission.ts
//              refuses (an earlier incarnation, an old epoch)
//   follower   another broker leads, epoch E                      start a fetcher for (leader, E) unless one runs
//   leader     this broker, as the incarnation it runs, leads in  stop the fetcher (its last write done) first
//              epoch E
import type { LoggerService } from '@nestjs/common';
import { NO_LEADER, type PartitionState } from '../topic/cluster-metadata.js';
import type { EffectExecutor } from './effect-executor.js';
import type { FollowerFetchers } from './follower-fetchers.js';
import { type Incarnation, leadershipAdmission } from './leadership-admission.js';
import type { Partition } from './partition.js';
import type { Role } from './partition-role.js';

export interface PartitionRolePorts {
  brokerId: number;
  fetchers: FollowerFetchers;
  effects: EffectExecutor;
  logger: LoggerService;
  /** This process's incarnation (known once the broker has registered). */
  incarnation(): Incarnation;
  /** A follower fenced by its leader asks for the metadata again. */
  reloadMetadata(): void;
}

export class PartitionRoles {
  /** Leaderships and transitions refused, as `<partition>@<leader epoch>`: each is logged once. */
  private readonly refusals = new Set<string>();

  constructor(private readonly ports: PartitionRolePorts) {}

  /** Gives `partition`'s role up: its fetcher stopped (its last write done), then its role none. */
  async release(partition: Partition, forgetHighWatermark = false): Promise<void> {
    await this.ports.fetchers.stop(partition.key);
    this.ports.effects.step(partition, () => partition.makeNone(forgetHighWatermark));
  }

  /** Moves `partition` to the role `state` gives this broker (in assignment `replicas`, state version `version`). */
  async apply(partition: Partition, state: PartitionState, replicas: number[], version: number): Promise<void> {
    const { key, log } = partition;
    const { fetchers, effects, logger } = this.ports;
    const incarnation = this.ports.incarnation();
    if (state.leader === this.ports.brokerId) {
      const admission = leadershipAdmission(state, incarnation, log.latestEpochAtOpen);
      if (!admission.lead) {
        await this.release(partition);
        this.refuseOnce(key, state.leaderEpoch, `not leading: ${admission.reason}`);
        return;
      }
      if (!this.allowed(partition, 'leader', state.leaderEpoch)) return;
      const wasLeader = partition.leader?.epoch === state.leaderEpoch;
      if (!wasLeader) await fetchers.stop(key);
      effects.execute(partition, await partition.makeLeader({ state, replicas, version }));
      if (!wasLeader) logger.log(`${key}: leader in epoch ${state.leaderEpoch}, ISR [${state.isr.join(',')}]`);
      return;
    }
    if (state.leader === NO_LEADER) {
      await this.release(partition);
      return;
    }
    if (!this.allowed(partition, 'follower', state.leaderEpoch)) return;
    let startFetcher = false;
    effects.step(partition, () => {
      const followed = partition.makeFollower(state.leader, state.leaderEpoch);
      startFetcher = followed.startFetcher;
      return followed.effects;
    });
    if (startFetcher || fetchers.get(key)?.log !== log) await this.startFetcher(partition, state, incarnation);
  }

  /**
   * Whether `partition` holds the role `state` gives this broker as `apply` leaves it: leading in the state's epoch
   * (or none when the leadership was refused), following the state's leader in its epoch with a fetcher on this
   * log, none without a leader.
   */
  holds(partition: Partition, state: PartitionState): boolean {
    const followed = partition.followedLeader;
    if (state.leader === this.ports.brokerId) {
      return partition.leader === null ? followed === null : partition.leader.epoch === state.leaderEpoch;
    }
    if (state.leader === NO_LEADER) return partition.leader === null && followed === null;
    return (
      partition.leader === null &&
      followed?.leaderId === state.leader &&
      followed.leaderEpoch === state.leaderEpoch &&
      this.ports.fetchers.get(partition.key)?.log === partition.log
    );
  }

  /** Whether the partition's transition table allows the role; a refusal is logged once per epoch. */
  private allowed(partition: Partition, to: Role, epoch: number): boolean {
    const check = partition.check(to, epoch);
    if (!check.allowed) this.refuseOnce(partition.key, epoch, `refused: ${check.reason}`);
    return check.allowed;
  }

  private refuseOnce(key: string, epoch: number, message: string): void {
    const refusal = `${key}@${epoch}`;
    if (this.refusals.has(refusal)) return;
    this.refusals.add(refusal);
    this.ports.logger.warn(`${key}: ${message}`);
  }

  private async startFetcher(partition: Partition, state: PartitionState, incarnation: Incarnation): Promise<void> {
    const { topic, partition: index, key, log } = partition;
    const target = { topic, partition: index, key, log, leaderId: state.leader, leaderEpoch: state.leaderEpoch };
    await this.ports.fetchers.start(target, incarnation.brokerEpoch, {
      onHighWatermark: (highWatermark) =>
        this.ports.effects.execute(partition, partition.followerLearnt(highWatermark)),
      onFenced: () => this.ports.reloadMetadata(),
    });
  }
}
