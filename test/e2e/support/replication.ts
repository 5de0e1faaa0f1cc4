// Helpers for the replication tests: a partition's leader and ISR as the brokers report them, acks=all produce
// that records what was acknowledged, reading a partition to its high watermark, each broker's own replica (its
// offsets and its bytes, through the internal routes), and the counts a fault run prints.
import type { BrokerProcess } from './broker-process.js';
import { call } from './http.js';
import { SECRET_HEADER, type TestCluster, waitUntil } from './cluster.js';

/** Short replication timings so that the fault tests see shrinks, expansions and failovers in seconds. */
export const REPLICATION_ENV = {
  BROOK_REPLICA_LAG_TIME_MAX_MS: '2000',
  BROOK_REPLICA_FETCH_WAIT_MAX_MS: '500',
  BROOK_REPLICA_FETCH_BACKOFF_MS: '100',
  BROOK_ACKS_ALL_TIMEOUT_MS: '8000',
  BROOK_CONTROLLED_SHUTDOWN_RETRY_BACKOFF_MS: '300',
  BROOK_REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS: '200',
};

/** A client's patience with one produce request: longer than the acks=all bound plus forwarding. */
const PRODUCE_TIMEOUT_MS = 20_000;

export interface PartitionView {
  leader: number;
  isr: number[];
}

export interface ReplicaView {
  broker_id: number;
  role: 'leader' | 'follower' | 'none';
  leader_epoch: number;
  isr: number[] | null;
  log_start_offset: number;
  log_end_offset: number;
  high_watermark: number;
  epochs: Array<{ epoch: number; startOffset: number }>;
}

export type ProduceResult =
  { ok: true; offset: number } | { ok: false; status: number; errorCode: number | null; message: string };

export class ReplicatedTopic {
  constructor(
    readonly cluster: TestCluster,
    readonly clusterId: string,
    readonly name: string,
  ) {}

  static async create(
    cluster: TestCluster,
    through: BrokerProcess,
    name: string,
    configs: Record<string, string> = { 'min.insync.replicas': '2' },
  ): Promise<ReplicatedTopic> {
    const clusterId = await through.clusterId();
    const created = await call(through.url, 'POST', `/v3/clusters/${clusterId}/topics`, {
      body: {
        topic_name: name,
        partitions_count: 1,
        replication_factor: 3,
        configs: Object.entries(configs).map(([key, value]) => ({ name: key, value })),
      },
    });
    if (created.status !== 201) throw new Error(`create ${name}: ${created.status} ${created.text}`);
    const topic = new ReplicatedTopic(cluster, clusterId, name);
    await topic.waitForIsr([1, 2, 3], 15_000);
    return topic;
  }

  /** Leader and ISR of partition 0 as a broker's metadata has them; null when it does not answer within a second. */
  async view(through: BrokerProcess): Promise<PartitionView | null> {
    try {
      const response = await call<{ leader: number; replicas: Array<{ broker: number; in_sync: boolean }> }>(
        through.url,
        'GET',
        `/topics/${this.name}/partitions/0`,
        { timeoutMs: 1_000 },
      );
      if (response.status !== 200) return null;
      const body = response.body;
      return {
        leader: body.leader,
        isr: body.replicas
          .filter((replica) => replica.in_sync)
          .map((replica) => replica.broker)
          .sort(),
      };
    } catch {
      return null;
    }
  }

  /** Waits until the broker's (default: any running broker's) metadata shows exactly this ISR. */
  async waitForIsr(isr: number[], timeoutMs: number, through?: BrokerProcess): Promise<PartitionView> {
    const wanted = [...isr].sort().join(',');
    return waitUntil(
      `ISR [${wanted}] of ${this.name}`,
      async () => {
        for (const broker of through ? [through] : this.running()) {
          const view = await this.view(broker);
          if (view !== null && view.leader >= 0 && view.isr.join(',') === wanted) return view;
        }
        return null;
      },
      timeoutMs,
    );
  }

  /** Waits until one of `asking` (default: the running brokers) names a leader other than `not`. */
  async waitForLeader(not: number, timeoutMs: number, asking?: BrokerProcess[]): Promise<number> {
    return waitUntil(
      `a new leader of ${this.name}`,
      async () => {
        for (const broker of asking ?? this.running()) {
          const view = await this.view(broker);
          if (view !== null && view.leader >= 0 && view.leader !== not) return view.leader;
        }
        return null;
      },
      timeoutMs,
    );
  }

  running(): BrokerProcess[] {
    return this.cluster.brokers.filter((broker) => broker.child !== null);
  }

  async produce(through: BrokerProcess, value: string, acks = 'all'): Promise<ProduceResult> {
    try {
      const response = await call<{ offset?: number; error_code?: number; message?: string }>(
        through.url,
        'POST',
        `/v3/clusters/${this.clusterId}/topics/${this.name}/records?acks=${acks}`,
        { body: { partition_id: 0, value: { type: 'STRING', data: value } }, timeoutMs: PRODUCE_TIMEOUT_MS },
      );
      const body = response.body;
      if (response.status === 200 && typeof body.offset === 'number') return { ok: true, offset: body.offset };
      return { ok: false, status: response.status, errorCode: body.error_code ?? null, message: body.message ?? '' };
    } catch (error) {
      return { ok: false, status: 0, errorCode: null, message: (error as Error).message };
    }
  }

  /** Produces, retrying while the answer is 40404 (no leader yet: nothing was appended), as Kafka clients do. */
  async produceRetrying(
    through: BrokerProcess,
    value: string,
    acks = 'all',
    timeoutMs = 10_000,
  ): Promise<ProduceResult> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const result = await this.produce(through, value, acks);
      if (result.ok || result.errorCode !== 40404 || performance.now() > deadline) return result;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Every record from offset 0 to the high watermark, read through `through` (values by offset). */
  async readAll(through: BrokerProcess): Promise<Map<number, string>> {
    const values = new Map<number, string>();
    let offset = 0;
    for (;;) {
      const answer = await call(
        through.url,
        'GET',
        `/v3/clusters/${this.clusterId}/topics/${this.name}/partitions/0/records?offset=${offset}&format=string&max_bytes=1048576`,
      );
      if (answer.status !== 200) throw new Error(`read at ${offset}: ${answer.status} ${answer.text}`);
      for (const record of answer.body.records as Array<{ offset: number; value: string }>) {
        values.set(record.offset, record.value);
      }
      offset = answer.body.next_offset as number;
      if (offset >= (answer.body.high_watermark as number)) return values;
    }
  }

  async replica(broker: BrokerProcess): Promise<ReplicaView> {
    const response = await call<ReplicaView>(broker.url, 'GET', `/internal/v1/partitions/${this.name}/0/replica`, {
      headers: { [SECRET_HEADER]: this.cluster.secret },
    });
    if (response.status !== 200) throw new Error(`replica of broker at ${broker.url}: ${response.status}`);
    return response.body;
  }

  /** The bytes of a broker's own replica from 0 to `endOffset`. */
  async replicaBytes(broker: BrokerProcess, endOffset: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let offset = 0;
    while (offset < endOffset) {
      const response = await call(
        broker.url,
        'GET',
        `/internal/v1/partitions/${this.name}/0/replica-log?offset=${offset}&end_offset=${endOffset}&max_bytes=1048576`,
        { headers: { [SECRET_HEADER]: this.cluster.secret } },
      );
      if (response.status !== 200) throw new Error(`replica log of broker at ${broker.url}: ${response.status}`);
      const next = Number(response.headers.get('x-brook-next-offset'));
      chunks.push(response.raw);
      if (next <= offset) throw new Error(`replica log of broker at ${broker.url} stopped at ${offset}`);
      offset = next;
    }
    return Buffer.concat(chunks);
  }

  /**
   * Waits until every broker's replica has the leader's high watermark as its log end and its own HW, then
   * returns each replica's bytes up to it.
   */
  async healedReplicas(timeoutMs: number): Promise<{ highWatermark: number; bytes: Buffer[] }> {
    const highWatermark = await waitUntil(
      `every replica of ${this.name} caught up`,
      async () => {
        const views = await Promise.all(this.cluster.brokers.map((broker) => this.replica(broker).catch(() => null)));
        const present = views.filter((view): view is ReplicaView => view !== null);
        if (present.length !== views.length) return null;
        const leader = present.find((view) => view.role === 'leader');
        if (leader === undefined || leader.isr?.length !== this.cluster.brokers.length) return null;
        const hw = leader.high_watermark;
        const caughtUp = present.every((view) => view.log_end_offset === hw && view.high_watermark === hw);
        return caughtUp ? hw : null;
      },
      timeoutMs,
    );
    const bytes = await Promise.all(this.cluster.brokers.map((broker) => this.replicaBytes(broker, highWatermark)));
    return { highWatermark, bytes };
  }
}

/** What a fault run checks and prints. */
export interface FaultCounts {
  acknowledged: number;
  read: number;
  lost: number;
  duplicated: number;
  divergent: number;
}

/**
 * Compares acknowledged records with a final read and with everything seen by readers during the run:
 * lost = acknowledged but not at its offset; duplicated = a value at two offsets; divergent = an offset seen with
 * two different values (during the run or at the end).
 */
export function countFaults(
  acknowledged: ReadonlyMap<string, number>,
  finalRead: ReadonlyMap<number, string>,
  seenDuringRun: ReadonlyMap<number, Set<string>>,
): FaultCounts {
  let lost = 0;
  for (const [value, offset] of acknowledged) if (finalRead.get(offset) !== value) lost++;
  const offsetsByValue = new Map<string, number>();
  for (const value of finalRead.values()) offsetsByValue.set(value, (offsetsByValue.get(value) ?? 0) + 1);
  const duplicated = [...offsetsByValue.values()].filter((count) => count > 1).length;
  let divergent = 0;
  for (const [offset, values] of seenDuringRun) {
    const final = finalRead.get(offset);
    if (values.size > 1 || (final !== undefined && !values.has(final))) divergent++;
  }
  return { acknowledged: acknowledged.size, read: finalRead.size, lost, duplicated, divergent };
}
