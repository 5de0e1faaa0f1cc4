// The internal routes through which a broker holding a WebSocket group subscription reaches the group's coordinator
// on another broker (application/streaming/routing-group-port.ts): join, heartbeat, leave, a long poll for the
// member's next generation, commit and committed offsets. Guarded by the cluster secret; not public, not in
// openapi.yaml. The asking broker has already authenticated and authorised the socket's operation.
import { Body, Controller, Delete, Get, Inject, Optional, Param, Post, Query, UseGuards } from '@nestjs/common';
import { errors } from '../common/brook-error.js';
import { type Clock, CLOCK, systemClock } from '../common/clock.js';
import { GroupCoordinator } from '../group-coordinator/group-coordinator.service.js';
import { ClusterSecretGuard } from './cluster-secret.guard.js';
import { integerParam } from '../application/params.js';
import { CoordinatorGroupPort, type GroupAssignment } from '../application/streaming/group-port.js';
import { WS_GROUP_POLL_WAIT_MS } from '../application/streaming/routing-group-port.js';

const TOPICS_MAX = 10_000;

@Controller('internal/v1/ws-groups')
@UseGuards(ClusterSecretGuard)
export class WsGroupsInternalController {
  private readonly port: CoordinatorGroupPort;

  constructor(
    private readonly coordinator: GroupCoordinator,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {
    this.port = new CoordinatorGroupPort(coordinator);
  }

  /** Joins; answers the generation before the join, after which the caller's long poll looks. */
  @Post(':group/members/:member')
  async join(@Param('group') group: string, @Param('member') member: string, @Body() body: unknown) {
    const { group_instance_id: groupInstanceId, topics, session_timeout_ms: sessionTimeoutMs } = objectBody(body);
    if (groupInstanceId !== null && typeof groupInstanceId !== 'string') {
      throw errors.invalidRequest('group_instance_id must be a string or null.');
    }
    if (
      !Array.isArray(topics) ||
      topics.length > TOPICS_MAX ||
      !topics.every((topic): topic is string => typeof topic === 'string')
    ) {
      throw errors.invalidRequest('topics must be an array of topic names.');
    }
    if (typeof sessionTimeoutMs !== 'number' || !Number.isSafeInteger(sessionTimeoutMs) || sessionTimeoutMs <= 0) {
      throw errors.invalidRequest('session_timeout_ms must be a positive integer.');
    }
    const generation = this.coordinator.generationOf(group);
    await this.port.join(group, { memberId: member, groupInstanceId, topics, sessionTimeoutMs });
    return { generation };
  }

  @Post(':group/members/:member/heartbeat')
  async heartbeat(@Param('group') group: string, @Param('member') member: string) {
    this.coordinator.assertCoordinator(group);
    return { known: await this.port.heartbeat(group, member) };
  }

  @Delete(':group/members/:member')
  async leave(@Param('group') group: string, @Param('member') member: string) {
    await this.port.leave(group, member);
    return {};
  }

  /**
   * The member's assignment once its generation is newer than `after_generation`, waiting up to `wait_ms` for one;
   * `known: false` when this coordinator does not have the member (its session expired, or the group moved here
   * without it).
   */
  @Get(':group/members/:member/assignment')
  async assignment(
    @Param('group') group: string,
    @Param('member') member: string,
    @Query('after_generation') afterText: string | undefined,
    @Query('wait_ms') waitText: string | undefined,
  ): Promise<{ known: boolean; assignment: GroupAssignment | null }> {
    this.coordinator.assertCoordinator(group);
    const after = afterText === '-1' ? -1 : integerParam(afterText, 'after_generation');
    const waitMs = integerParam(waitText, 'wait_ms', { max: WS_GROUP_POLL_WAIT_MS, fallback: 0 });
    const now = this.status(group, member);
    if (!now.known || (now.assignment?.generation ?? -1) > after || waitMs === 0) return now;
    await new Promise<void>((resolve) => {
      const cancelTimer = this.clock.setTimer(waitMs, done);
      const stop = this.coordinator.watchMember(group, member, done);
      function done(): void {
        cancelTimer();
        stop();
        resolve();
      }
    });
    return this.status(group, member);
  }

  /** The member's assignment only in a stable generation: a rebalance in progress has none to give yet. */
  private status(group: string, member: string): { known: boolean; assignment: GroupAssignment | null } {
    const { known, assignment } = this.coordinator.memberStatus(group, member);
    return {
      known,
      assignment: assignment === null ? null : { generation: assignment.generation, partitions: assignment.partitions },
    };
  }

  @Post(':group/commit')
  async commit(@Param('group') group: string, @Body() body: unknown) {
    const { member_id: memberId, offsets, generations } = objectBody(body);
    if (typeof memberId !== 'string') throw errors.invalidRequest('member_id must be a string.');
    if (!Array.isArray(offsets) || !offsets.every((entry) => typeof entry === 'object' && entry !== null)) {
      throw errors.invalidRequest('offsets must be an array of {topic, partition, offset}.');
    }
    if (typeof generations !== 'object' || generations === null) {
      throw errors.invalidRequest('generations must be an object.');
    }
    const byPartition = new Map<string, number>();
    for (const [partition, generation] of Object.entries(generations)) {
      if (typeof generation === 'number') byPartition.set(partition, generation);
    }
    await this.port.commit(group, memberId, offsets as Parameters<CoordinatorGroupPort['commit']>[2], byPartition);
    return {};
  }

  @Get(':group/committed')
  async committed(
    @Param('group') group: string,
    @Query('topic') topic: string | undefined,
    @Query('partition') partition: string | undefined,
  ) {
    if (topic === undefined || topic === '') throw errors.invalidRequest('topic is required.');
    this.coordinator.assertCoordinator(group);
    return { offset: await this.port.committed(group, topic, integerParam(partition, 'partition')) };
  }
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.invalidRequest('A JSON object body is required.');
  }
  return body as Record<string, unknown>;
}
