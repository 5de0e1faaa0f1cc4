import { describe, expect, it } from 'vitest';
import { type PeerClient, PeerUnreachableError } from '../../cluster/peer-client.js';
import type { GroupAssignment, StreamGroupPort } from './group-port.js';
import { RoutingGroupPort } from './routing-group-port.js';

const SELF = 1;

/** One broker's view of group `g` as its coordinator: members and the generation they are in. */
class FakeCoordinator {
  readonly members = new Set<string>();
  generation = 0;
  alive = true;
  joins = 0;
}

/** Brokers 1..3; broker 1 is the one under test. Remote brokers answer the internal ws-groups routes. */
class FakeCluster {
  readonly brokers = new Map([1, 2, 3].map((id) => [id, new FakeCoordinator()]));
  coordinator = 2;

  local(): StreamGroupPort {
    const me = this.brokers.get(SELF)!;
    const listeners = new Map<string, (assignment: GroupAssignment | null) => void>();
    return {
      join: async (_group, member) => {
        me.members.add(member.memberId);
        me.joins++;
      },
      watch: (_group, memberId, listener) => {
        listeners.set(memberId, listener);
        return () => listeners.delete(memberId);
      },
      assignment: async (_group, memberId) =>
        me.members.has(memberId) ? { generation: me.generation, partitions: [] } : null,
      heartbeat: async (_group, memberId) => me.members.has(memberId),
      leave: async (_group, memberId) => void me.members.delete(memberId),
      commit: async () => undefined,
      committed: async () => null,
    };
  }

  peers(): PeerClient {
    return {
      brokerUrl: async (id: number) => `http://broker-${id}`,
      call: async (url: string, request: { method: string; path: string; query?: Record<string, unknown> }) => {
        const id = Number(/broker-(\d+)/.exec(url)![1]);
        const broker = this.brokers.get(id)!;
        if (!broker.alive) throw new PeerUnreachableError(`broker ${id} is down`);
        const member = decodeURIComponent(/members\/([^/]+)/.exec(request.path)?.[1] ?? '');
        const answer = (body: unknown) => new Response(JSON.stringify(body));
        if (request.method === 'POST' && request.path.endsWith('/heartbeat')) {
          return answer({ known: broker.members.has(member) });
        }
        if (request.method === 'POST') {
          const before = broker.generation;
          broker.members.add(member);
          broker.joins++;
          return answer({ generation: before });
        }
        if (request.method === 'DELETE') {
          broker.members.delete(member);
          return answer({});
        }
        // the long poll: answers at once with what it has (the port loops)
        await new Promise((resolve) => setTimeout(resolve, 5));
        const after = Number(request.query?.after_generation);
        if (!broker.members.has(member)) return answer({ known: false, assignment: null });
        return answer({
          known: true,
          assignment: broker.generation > after ? { generation: broker.generation, partitions: [] } : null,
        });
      },
    } as unknown as PeerClient;
  }
}

function setUp() {
  const cluster = new FakeCluster();
  const port = new RoutingGroupPort(
    cluster.local(),
    { coordinatorOf: () => cluster.coordinator, ensureOffsetsTopic: async () => undefined },
    SELF,
    cluster.peers(),
  );
  const seen: Array<number | null> = [];
  const stop = port.watch('g', 'm', (assignment) => seen.push(assignment?.generation ?? null));
  const member = { memberId: 'm', groupInstanceId: null, topics: ['t'], sessionTimeoutMs: 1000 };
  return { cluster, port, seen, stop, member };
}

const settle = (ms = 40) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RoutingGroupPort', () => {
  it('joins, heartbeats and watches a member at a remote coordinator', async () => {
    const { cluster, port, seen, stop, member } = setUp();
    await port.join('g', member);
    expect(cluster.brokers.get(2)!.members.has('m')).toBe(true);
    expect(await port.heartbeat('g', 'm')).toBe(true);
    cluster.brokers.get(2)!.generation = 1;
    await settle();
    expect(seen).toEqual([1]);
    stop();
  });

  it('rejoins at the new coordinator when the old one dies, without ending the member', async () => {
    const { cluster, port, seen, stop, member } = setUp();
    await port.join('g', member);
    cluster.brokers.get(2)!.alive = false;
    cluster.coordinator = 3;
    expect(await port.heartbeat('g', 'm')).toBe(true);
    expect(cluster.brokers.get(3)!.members.has('m')).toBe(true);
    cluster.brokers.get(3)!.generation = 4;
    await settle();
    expect(seen).toEqual([4]);
    stop();
  });

  it('rejoins when the poll finds the coordinator moved, even before a heartbeat', async () => {
    const { cluster, port, seen, stop, member } = setUp();
    await port.join('g', member);
    cluster.brokers.get(2)!.alive = false;
    cluster.coordinator = 3;
    await settle(400);
    expect(cluster.brokers.get(3)!.members.has('m')).toBe(true);
    expect(seen).toEqual([]);
    stop();
  });

  it('moves the member to this broker when it becomes the coordinator', async () => {
    const { cluster, port, stop, member } = setUp();
    await port.join('g', member);
    cluster.coordinator = SELF;
    cluster.brokers.get(2)!.members.clear(); // the old coordinator unloaded the group
    expect(await port.heartbeat('g', 'm')).toBe(true);
    expect(cluster.brokers.get(SELF)!.members.has('m')).toBe(true);
    stop();
  });

  it('reports the member gone when its own coordinator forgot it (session expired)', async () => {
    const { cluster, port, seen, stop, member } = setUp();
    await port.join('g', member);
    cluster.brokers.get(2)!.members.delete('m');
    expect(await port.heartbeat('g', 'm')).toBe(false);
    await settle();
    expect(seen).toEqual([null]);
    expect(cluster.brokers.get(2)!.joins).toBe(1);
    stop();
  });

  it('keeps retrying a join while the coordinator cannot be reached, and joins once it answers', async () => {
    const { cluster, port, stop, member } = setUp();
    cluster.brokers.get(2)!.alive = false;
    const joining = port.join('g', member);
    await settle(300);
    cluster.brokers.get(2)!.alive = true;
    await joining;
    expect(cluster.brokers.get(2)!.members.has('m')).toBe(true);
    stop();
  });
});
