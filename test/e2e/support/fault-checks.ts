// The checks of a fault run over a topic of several partitions, after the faults and once healed: every replica
// caught up with its leader and byte-identical to it up to the high watermark, and the final read of every
// partition compared with what the workload (fault-workload.ts) was acknowledged and served:
//   lost                 acknowledged, but not at its offset in the final read
//   duplicated           a value stored at two offsets
//   divergent            an offset served with two values, or with a value the final read does not have there
//   vanished             an offset served that the final read does not reach
//   failed-but-visible   a produce that failed saying nothing was appended (40404, or 50003 without the unknown
//                        marker) whose value is stored
import type { BrokerProcess } from './broker-process.js';
import { SECRET_HEADER, type TestCluster, waitUntil } from './cluster.js';
import type { FaultWorkload } from './fault-workload.js';

/** Failed-but-visible answers shown in the report. */
const ANSWERS_SHOWN_MAX = 5;

interface ReplicaView {
  role: 'leader' | 'follower' | 'none';
  isr: number[] | null;
  /** On the leader: the incarnation (broker epoch) each ISR member was admitted as. */
  isr_broker_epochs: Record<string, number> | null;
  log_end_offset: number;
  high_watermark: number;
}

export interface FaultVerdict {
  acknowledged: number;
  read: number;
  lost: number;
  duplicated: number;
  divergent: number;
  vanished: number;
  failedButVisible: number;
  /** The answers of the first few failed-but-visible produces. */
  failedButVisibleAnswers: string[];
  offsetsAckedTwice: number;
  highWatermarkDecreases: number;
  replicasIdentical: boolean;
}

/** Leader and ISR of a partition as a broker's metadata has them; null when it does not answer in a second. */
export async function partitionView(
  broker: BrokerProcess,
  topic: string,
  partition: number,
): Promise<{ leader: number; isr: number[] } | null> {
  try {
    const response = await fetch(`${broker.url}/topics/${topic}/partitions/${partition}`, {
      signal: AbortSignal.timeout(1_000),
    });
    if (response.status !== 200) return null;
    const body = (await response.json()) as { leader: number; replicas: Array<{ broker: number; in_sync: boolean }> };
    const isr = body.replicas.filter((replica) => replica.in_sync).map((replica) => replica.broker);
    return { leader: body.leader, isr: isr.sort((a, b) => a - b) };
  } catch {
    return null;
  }
}

/** The leader of every partition, as the first running broker that answers sees them. */
export async function leaders(cluster: TestCluster, topic: string, partitions: number): Promise<number[]> {
  for (const broker of cluster.brokers.filter((b) => b.child !== null)) {
    const views = await Promise.all(Array.from({ length: partitions }, (_, p) => partitionView(broker, topic, p)));
    if (views.every((view) => view !== null && view.leader >= 0)) return views.map((view) => view!.leader);
  }
  return [];
}

/**
 * Waits until every partition's leader has all brokers in its ISR, each as the incarnation it runs now (a broker
 * that restarted is in sync again only once its new incarnation was admitted).
 */
export async function waitForFullIsr(cluster: TestCluster, topic: string, partitions: number, timeoutMs: number) {
  const all = cluster.brokers.map((_, index) => index + 1).join(',');
  await waitUntil(
    `every partition of ${topic} led with ISR [${all}], as the incarnations running`,
    async () => {
      const epochs = await Promise.all(cluster.brokers.map((broker) => cluster.status(broker)));
      if (epochs.some((status) => status === null)) return false;
      const led = await leaders(cluster, topic, partitions);
      if (led.length !== partitions) return false;
      for (let partition = 0; partition < partitions; partition++) {
        const view = await replica(cluster, cluster.broker(led[partition]), topic, partition).catch(() => null);
        if (view?.role !== 'leader' || [...(view.isr ?? [])].sort((a, b) => a - b).join(',') !== all) return false;
        const admitted = view.isr_broker_epochs ?? {};
        if (epochs.some((status) => admitted[String(status!.broker_id)] !== status!.broker_epoch)) return false;
      }
      return true;
    },
    timeoutMs,
  );
}

async function replica(cluster: TestCluster, broker: BrokerProcess, topic: string, partition: number) {
  const response = await fetch(`${broker.url}/internal/v1/partitions/${topic}/${partition}/replica`, {
    headers: { [SECRET_HEADER]: cluster.secret },
    signal: AbortSignal.timeout(2_000),
  });
  if (!response.ok) throw new Error(`replica of ${topic}-${partition} at ${broker.url}: ${response.status}`);
  return (await response.json()) as ReplicaView;
}

async function replicaBytes(cluster: TestCluster, broker: BrokerProcess, topic: string, p: number, end: number) {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < end;) {
    const response = await fetch(
      `${broker.url}/internal/v1/partitions/${topic}/${p}/replica-log?offset=${offset}&end_offset=${end}&max_bytes=1048576`,
      { headers: { [SECRET_HEADER]: cluster.secret } },
    );
    if (!response.ok) throw new Error(`replica log of ${topic}-${p} at ${broker.url}: ${response.status}`);
    const next = Number(response.headers.get('x-brook-next-offset'));
    chunks.push(Buffer.from(await response.arrayBuffer()));
    if (next <= offset) throw new Error(`replica log of ${topic}-${p} at ${broker.url} stopped at ${offset}`);
    offset = next;
  }
  return Buffer.concat(chunks);
}

/** Waits until every replica of the partition has the leader's HW as its log end and HW; returns that HW. */
async function healedHighWatermark(cluster: TestCluster, topic: string, partition: number, timeoutMs: number) {
  return waitUntil(
    `every replica of ${topic}-${partition} caught up`,
    async () => {
      const views = await Promise.all(
        cluster.brokers.map((broker) => replica(cluster, broker, topic, partition).catch(() => null)),
      );
      if (views.some((view) => view === null)) return null;
      const leader = views.find((view) => view!.role === 'leader');
      if (leader === undefined || leader!.isr?.length !== cluster.brokers.length) return null;
      const hw = leader!.high_watermark;
      return views.every((view) => view!.log_end_offset === hw && view!.high_watermark === hw) ? hw : null;
    },
    timeoutMs,
  );
}

async function readPartition(through: BrokerProcess, clusterId: string, topic: string, partition: number) {
  const values = new Map<number, string>();
  for (let offset = 0; ;) {
    const response = await fetch(
      `${through.url}/v3/clusters/${clusterId}/topics/${topic}/partitions/${partition}/records` +
        `?offset=${offset}&format=string&max_bytes=1048576`,
    );
    if (response.status !== 200) throw new Error(`read ${topic}-${partition} at ${offset}: ${response.status}`);
    const body = (await response.json()) as {
      records: Array<{ offset: number; value: string }>;
      next_offset: number;
      high_watermark: number;
    };
    for (const record of body.records) values.set(record.offset, record.value);
    offset = body.next_offset;
    if (offset >= body.high_watermark) return values;
  }
}

/** Heals, reads everything back and compares (see the header). */
export async function verify(
  cluster: TestCluster,
  clusterId: string,
  workload: FaultWorkload,
  timeoutMs: number,
): Promise<FaultVerdict> {
  const verdict: FaultVerdict = {
    acknowledged: workload.acknowledged.size,
    read: 0,
    lost: 0,
    duplicated: 0,
    divergent: 0,
    vanished: 0,
    failedButVisible: 0,
    failedButVisibleAnswers: [],
    offsetsAckedTwice: workload.offsetsAckedTwice,
    highWatermarkDecreases: workload.highWatermarkDecreaseCount,
    replicasIdentical: true,
  };
  const stored = new Map<string, number>();
  for (let partition = 0; partition < workload.partitions; partition++) {
    const highWatermark = await healedHighWatermark(cluster, workload.topic, partition, timeoutMs);
    const bytes = await Promise.all(
      cluster.brokers.map((broker) => replicaBytes(cluster, broker, workload.topic, partition, highWatermark)),
    );
    if (!bytes.every((replicaBytes) => replicaBytes.equals(bytes[0]))) verdict.replicasIdentical = false;
    const final = await readPartition(cluster.brokers[0], clusterId, workload.topic, partition);
    verdict.read += final.size;
    for (const value of final.values()) stored.set(value, (stored.get(value) ?? 0) + 1);
    for (const [offset, values] of workload.seen[partition]) {
      const finalValue = final.get(offset);
      if (finalValue === undefined) verdict.vanished++;
      else if (values.size > 1 || !values.has(finalValue)) verdict.divergent++;
    }
    for (const [value, ack] of workload.acknowledged) {
      if (ack.partition === partition && final.get(ack.offset) !== value) verdict.lost++;
    }
  }
  verdict.duplicated = [...stored.values()].filter((count) => count > 1).length;
  for (const [value, failure] of workload.failed) {
    if (failure.kind !== 'not-appended' || !stored.has(value)) continue;
    verdict.failedButVisible++;
    if (verdict.failedButVisibleAnswers.length < ANSWERS_SHOWN_MAX)
      verdict.failedButVisibleAnswers.push(failure.answer);
  }
  return verdict;
}

export function formatVerdict(verdict: FaultVerdict): string {
  return (
    `acknowledged=${verdict.acknowledged} read=${verdict.read} lost=${verdict.lost} ` +
    `duplicated=${verdict.duplicated} divergent=${verdict.divergent} vanished=${verdict.vanished} ` +
    `failed-but-visible=${verdict.failedButVisible} offsets-acked-twice=${verdict.offsetsAckedTwice} ` +
    `hw-decreases=${verdict.highWatermarkDecreases} replicas-identical=${verdict.replicasIdentical}` +
    (verdict.failedButVisibleAnswers.length > 0
      ? `\n  failed but visible: ${verdict.failedButVisibleAnswers.join(' | ')}`
      : '')
  );
}
