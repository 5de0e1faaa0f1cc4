// One fault run of the fault suite (the power-loss nemesis, the randomised schedule): a topic of RF 3 with
// min.insync.replicas=2 on a three-broker cluster, acks=all producers running while faults are injected one after
// another, each followed by a wait until every partition has its three replicas in sync again; then the verdict
// (fault-checks.ts), a report of what each fault did and how long until every partition was writable again, and the
// safety expectations every run shares.
import { expect } from 'vitest';
import { call } from './http.js';
import type { TestCluster } from './cluster.js';
import { formatVerdict, verify, waitForFullIsr, type FaultVerdict } from './fault-checks.js';
import { FaultWorkload } from './fault-workload.js';

export const FAULT_RUN_PARTITIONS = 3;
export const FAULT_RUN_PRODUCERS = 6;
/** Producers that retry every failed request (fault-workload.ts): one with Idempotency-Key, one with a producer id. */
export const FAULT_RUN_IDEMPOTENT_PRODUCERS = 2;
/** Long enough for a Redis that came back empty: one session for the brokers to re-register, then the restore. */
export const FAULT_HEAL_TIMEOUT_MS = 60_000;

export interface InjectedFault {
  /** What the fault did, as the nemesis describes it. */
  what: string;
  /** Whatever the run groups faults by (a fault kind, a role). */
  label: string;
  /** performance.now() when it was injected. */
  at: number;
  /** Milliseconds until every partition acknowledged a request sent after it; null if one never did. */
  availabilityMs: number | null;
}

export interface FaultRunResult {
  verdict: FaultVerdict;
  faults: InjectedFault[];
  workload: FaultWorkload;
  seconds: number;
}

/** Creates the run's topic and waits until its replicas are all in sync. */
export async function createFaultTopic(cluster: TestCluster, clusterId: string, topic: string): Promise<void> {
  const created = await call(cluster.brokers[0].url, 'POST', `/v3/clusters/${clusterId}/topics`, {
    body: {
      topic_name: topic,
      partitions_count: FAULT_RUN_PARTITIONS,
      replication_factor: 3,
      configs: [{ name: 'min.insync.replicas', value: '2' }],
    },
  });
  if (created.status !== 201) throw new Error(`create ${topic}: ${created.status} ${created.text}`);
  await waitForFullIsr(cluster, topic, FAULT_RUN_PARTITIONS, FAULT_HEAL_TIMEOUT_MS);
}

/** Runs the workload through `faults` (label, inject) with `produceBetweenMs` of production before each and after the last. */
export async function runFaults(
  cluster: TestCluster,
  clusterId: string,
  topic: string,
  faults: ReadonlyArray<{ label: string; inject: () => Promise<string> }>,
  produceBetweenMs: number,
): Promise<FaultRunResult> {
  const workload = new FaultWorkload(
    cluster,
    clusterId,
    topic,
    FAULT_RUN_PARTITIONS,
    FAULT_RUN_PRODUCERS,
    FAULT_RUN_IDEMPOTENT_PRODUCERS,
  );
  const injected: Array<{ what: string; label: string; at: number }> = [];
  const startedAt = performance.now();
  workload.start();
  try {
    for (const fault of faults) {
      await sleep(produceBetweenMs);
      const at = performance.now();
      injected.push({ what: await fault.inject(), label: fault.label, at });
      await waitForFullIsr(cluster, topic, FAULT_RUN_PARTITIONS, FAULT_HEAL_TIMEOUT_MS);
    }
    await sleep(produceBetweenMs);
  } finally {
    await workload.stop();
  }
  const verdict = await verify(cluster, clusterId, workload, FAULT_HEAL_TIMEOUT_MS);
  return {
    verdict,
    workload,
    seconds: Math.round((performance.now() - startedAt) / 1000),
    faults: injected.map((fault) => ({ ...fault, availabilityMs: workload.availabilityAfter(fault.at) })),
  };
}

/** The run's report: the verdict, the failures the producers were told, and a line per fault. */
export function formatRun(name: string, seed: number, run: FaultRunResult): string {
  const { workload } = run;
  return (
    `[faults] ${name} x${run.faults.length} (seed ${seed}, ${run.seconds} s): ` +
    `${formatVerdict(run.verdict)} reads=${workload.reads} ` +
    `failed: not-appended=${workload.failures('not-appended')} outcome-unknown=${workload.failures('outcome-unknown')} ` +
    `no-answer=${workload.failures('no-answer')} other=${workload.failures('other')} ` +
    `idempotent: retried=${workload.idempotentRetried} replays=${workload.idempotentReplays} ` +
    `offset-changes=${workload.idempotentOffsetChanges}\n` +
    run.faults
      .map((f, i) => `  #${i + 1} ${f.what}; every partition writable after ${f.availabilityMs ?? '?'} ms`)
      .join('\n') +
    (workload.highWatermarkDecreases.length > 0
      ? `\n  hw decreases: ${workload.highWatermarkDecreases.join('; ')}`
      : '')
  );
}

/** What every fault run must show: enough acknowledged to mean something, and nothing unsafe. */
export function expectSafe(run: FaultRunResult): void {
  expect(run.verdict.acknowledged).toBeGreaterThan(run.faults.length * 20);
  expect(run.verdict).toMatchObject({
    lost: 0,
    duplicated: 0,
    divergent: 0,
    vanished: 0,
    failedButVisible: 0,
    failedButVisibleAnswers: [],
    offsetsAckedTwice: 0,
    highWatermarkDecreases: 0,
    replicasIdentical: true,
  });
  // the retrying idempotent producers: no duplicate (counted in `duplicated` above), and every replay at its offset
  expect(run.workload.idempotentReplays).toBeGreaterThan(0);
  expect(run.workload.idempotentOffsetChanges).toBe(0);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
