// The faults of the fault suite, each done to real processes: brokers killed with SIGKILL and restarted on their
// data dir (with its segments damaged as a machine crash would, segment-damage.ts), paused with SIGSTOP past their
// session, two brokers down at once; the real redis-server restarted empty or paused. Victims are chosen by role
// (the leader of a partition, a follower, the controller) from what the running brokers report.
import type { BrokerProcess } from './broker-process.js';
import { SESSION_TIMEOUT_MS, type TestCluster, waitUntil } from './cluster.js';
import { leaders } from './fault-checks.js';
import { cutUnflushedTails, tearTails } from './segment-damage.js';
import type { SeededRandom } from './seeded-random.js';

export type Role = 'leader' | 'follower' | 'controller';

/** A controller is elected within a few sessions of any fault (a Redis that came back empty takes the longest). */
const CONTROLLER_WAIT_MS = 20_000;

export type FaultKind =
  | 'leader-kill'
  | 'controller-kill'
  | 'pause-past-session'
  | 'power-loss'
  | 'redis-empty'
  | 'redis-pause'
  | 'two-down'
  | 'torn-tail';

export const FAULT_KINDS: readonly FaultKind[] = [
  'leader-kill',
  'controller-kill',
  'pause-past-session',
  'power-loss',
  'redis-empty',
  'redis-pause',
  'two-down',
  'torn-tail',
];

export class Nemesis {
  constructor(
    private readonly cluster: TestCluster,
    private readonly topic: string,
    private readonly partitions: number,
    private readonly random: SeededRandom,
  ) {}

  /** A broker in the role: the leader of a random partition, one that leads none (else any), the controller. */
  async victim(role: Role): Promise<{ broker: BrokerProcess; id: number }> {
    const led = await leaders(this.cluster, this.topic, this.partitions);
    if (led.length === 0) throw new Error(`no running broker reports the leaders of ${this.topic}`);
    let id: number;
    if (role === 'leader') id = this.random.pick(led);
    else if (role === 'follower') {
      const ids = this.cluster.brokers.map((_, index) => index + 1);
      const leadingNothing = ids.filter((broker) => !led.includes(broker));
      id = this.random.pick(leadingNothing.length > 0 ? leadingNothing : ids.filter((b) => b !== led[0]));
    } else {
      const controller = await waitUntil(
        'a controller',
        async () => (await this.cluster.controllers(this.cluster.brokers.filter((b) => b.child !== null)))[0],
        CONTROLLER_WAIT_MS,
      );
      id = controller.broker_id;
    }
    return { broker: this.cluster.broker(id), id };
  }

  /** kill -9, every partition's newest segment cut back to a random point at or above its recovery point, restart. */
  async powerLoss(role: Role): Promise<string> {
    const { broker, id } = await this.victim(role);
    await broker.kill('SIGKILL');
    const damage = cutUnflushedTails(broker.dataDir, this.random);
    await broker.restart();
    return (
      `power loss of broker ${id} (${role}): ${damage.batches} batch(es), ${damage.bytes} bytes cut from ` +
      `${damage.partitions} partition(s)`
    );
  }

  /** Injects one fault of the schedule and returns what it did. */
  async inject(kind: FaultKind): Promise<string> {
    switch (kind) {
      case 'leader-kill':
      case 'controller-kill': {
        const role: Role = kind === 'leader-kill' ? 'leader' : 'controller';
        const { broker, id } = await this.victim(role);
        const downMs = this.random.integer(0, 1_000);
        await broker.kill('SIGKILL');
        await sleep(downMs);
        await broker.restart();
        return `kill -9 of broker ${id} (${role}), restarted after ${downMs} ms`;
      }
      case 'pause-past-session': {
        const { broker, id } = await this.victim('leader');
        const pausedMs = SESSION_TIMEOUT_MS + this.random.integer(500, 2_000);
        broker.signal('SIGSTOP');
        await sleep(pausedMs);
        broker.signal('SIGCONT');
        return `SIGSTOP of broker ${id} (leader) for ${pausedMs} ms`;
      }
      case 'power-loss':
        return this.powerLoss(this.random.pick<Role>(['leader', 'follower', 'controller']));
      case 'redis-empty':
        await this.cluster.redis.restart();
        return 'redis-server restarted empty';
      case 'redis-pause': {
        const pausedMs = this.random.integer(1_000, 4_000);
        await this.cluster.redis.kill('SIGSTOP');
        await sleep(pausedMs);
        await this.cluster.redis.kill('SIGCONT');
        return `SIGSTOP of redis-server for ${pausedMs} ms`;
      }
      case 'two-down': {
        const ids = this.random.shuffled(this.cluster.brokers.map((_, index) => index + 1)).slice(0, 2);
        const downMs = this.random.integer(500, 2_000);
        await Promise.all(ids.map((id) => this.cluster.broker(id).kill('SIGKILL')));
        await sleep(downMs);
        for (const id of ids) await this.cluster.broker(id).restart();
        return `kill -9 of brokers ${ids.join(' and ')} at once, restarted after ${downMs} ms`;
      }
      case 'torn-tail': {
        const { broker, id } = await this.victim(this.random.pick<Role>(['leader', 'follower']));
        await broker.kill('SIGKILL');
        const damage = tearTails(broker.dataDir, this.random);
        await broker.restart();
        return `kill -9 of broker ${id} with torn tails (${damage.bytes} bytes on ${damage.partitions} partition(s))`;
      }
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
