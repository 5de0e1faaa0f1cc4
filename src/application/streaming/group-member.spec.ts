import { describe, expect, it } from 'vitest';
import { type BrookError, errors } from '../../common/brook-error.js';
import type { PartitionRouter } from '../../replication/partition-router.service.js';
import { GroupMember, type MemberEvent, type MemberStreams, type MemberSubscription } from './group-member.js';
import type { GroupAssignment, StreamGroupPort } from './group-port.js';

class FakePort implements StreamGroupPort {
  listener: ((assignment: GroupAssignment | null) => void) | null = null;
  joined: string[] = [];
  left: string[] = [];
  alive = true;
  committedOffsets = new Map<string, number>();
  /** Answers to give before a join succeeds (a coordinator still loading, then moving). */
  joinFailures: BrookError[] = [];
  async join(_group: string, member: { memberId: string }) {
    const failure = this.joinFailures.shift();
    if (failure !== undefined) throw failure;
    this.joined.push(member.memberId);
  }
  watch(_group: string, _memberId: string, listener: (assignment: GroupAssignment | null) => void) {
    this.listener = listener;
    return () => (this.listener = null);
  }
  current: GroupAssignment | null = null;
  async assignment() {
    return this.current;
  }
  async heartbeat() {
    return this.alive;
  }
  async leave(_group: string, memberId: string) {
    this.left.push(memberId);
  }
  async commit() {}
  async committed(_group: string, topic: string, partition: number) {
    return this.committedOffsets.get(`${topic}-${partition}`) ?? null;
  }
}

function setUp(groupInstanceId: string | null = null) {
  const port = new FakePort();
  const events: string[] = [];
  const frames: Array<Record<string, unknown>> = [];
  const subscription = {
    closed: false,
    startPartition: (topic: string, partition: number, offset: number, generation: number) =>
      events.push(`start ${topic}-${partition}@${offset} g${generation}`),
    stopPartition: (topic: string, partition: number) => events.push(`stop ${topic}-${partition}`),
    close: () => events.push('close'),
    generations: () => new Map(),
  } as unknown as MemberStreams;
  const replicas = { offsets: () => Promise.resolve({ earliest: 2, latest: 50 }) } as unknown as PartitionRouter;
  const owner = {
    announce: (event: MemberEvent, id: string | number) => {
      frames.push({ ...event, id });
      events.push(event.op);
    },
    sendError: (error: BrookError) => events.push(`error ${error.errorCode}`),
    ended: () => events.push('ended'),
  };
  const subscribed: MemberSubscription = {
    id: 's',
    topics: ['t'],
    group: 'g',
    groupInstanceId,
    from: 'earliest',
    timestampMs: null,
  };
  const member = new GroupMember(subscribed, subscription, port, replicas, owner, 45_000);
  return { port, events, frames, member };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupMember', () => {
  it('joins through a coordinator that answers "loading, retry" first: the broker retries, the client sees nothing', async () => {
    const { port, events, member } = setUp();
    port.joinFailures = [
      errors.retriable('The coordinator of group g is loading its state; retry.'),
      errors.retriable('Broker 1 is not the coordinator of group g; retry.'),
    ];
    await member.join();
    expect(port.joined).toEqual([member.memberId]);
    expect(events).toEqual([]);
  });

  it('hands a non-retriable join error to its owner', async () => {
    const { port, member } = setUp();
    port.joinFailures = [errors.topicNotFound('t')];
    await expect(member.join()).rejects.toMatchObject({ errorCode: 40401 });
  });

  it('starts assigned partitions at the committed offset, else where `from` says', async () => {
    const { port, events, frames, member } = setUp();
    await member.join();
    port.committedOffsets.set('t-1', 7);
    port.committedOffsets.set('t-2', 99); // past the log end: `from` decides
    port.listener!({
      generation: 1,
      partitions: [0, 1, 2].map((partition) => ({ topic: 't', partition })),
    });
    await flush();
    expect(events).toEqual(['assigned', 'start t-0@2 g1', 'start t-1@7 g1', 'start t-2@2 g1']);
    expect(frames[0]).toEqual({
      op: 'assigned',
      id: 's',
      generation: 1,
      partitions: [0, 1, 2].map((partition) => ({ topic: 't', partition })),
    });
  });

  it('stops and reports revoked partitions before announcing the new assignment', async () => {
    const { port, events, frames, member } = setUp();
    await member.join();
    port.listener!({ generation: 1, partitions: [0, 1].map((partition) => ({ topic: 't', partition })) });
    await flush();
    events.length = 0;
    port.listener!({ generation: 2, partitions: [{ topic: 't', partition: 1 }] });
    await flush();
    expect(events).toEqual(['stop t-0', 'revoked', 'assigned']);
    expect(frames.at(-2)).toEqual({ op: 'revoked', id: 's', partitions: [{ topic: 't', partition: 0 }] });
  });

  it('leaves the group on close when dynamic, and stays (for its session) when static', async () => {
    const dynamic = setUp();
    await dynamic.member.join();
    dynamic.member.close();
    expect(dynamic.port.left).toEqual([dynamic.member.memberId]);
    expect(dynamic.port.listener).toBeNull();

    const fixed = setUp('instance-1');
    await fixed.member.join();
    fixed.member.close();
    expect(fixed.port.left).toEqual([]);
    expect(fixed.port.listener).toBeNull();
  });

  it('takes the partitions a static member kept at once when it rejoins without a rebalance', async () => {
    const { port, events, member } = setUp('instance-1');
    port.current = { generation: 4, partitions: [{ topic: 't', partition: 3 }] };
    await member.join();
    await flush();
    expect(events).toEqual(['assigned', 'start t-3@2 g4']);
  });

  it('ends the subscription with 40903 when the coordinator forgot the member', async () => {
    const { port, events, member } = setUp();
    port.alive = false;
    await member.heartbeat(); // before the join completed: not a verdict
    expect(events).toEqual([]);
    port.alive = true;
    await member.join();
    port.alive = false;
    await member.heartbeat();
    expect(events).toEqual(['close', 'error 40903', 'ended']);
    await member.heartbeat();
    port.listener?.(null);
    expect(events).toEqual(['close', 'error 40903', 'ended']);
  });
});
