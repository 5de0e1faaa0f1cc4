// G1: consumer-group consumption end to end. A 6-partition topic is prefilled with BROOK_BENCH_GROUP_RECORDS
// (default 300,000) records of 100 bytes (not timed). Then, alternating in rounds:
//   - stateless: 3 readers, each reading 2 partitions from offset 0 to the end through Brook's stateless read
//     route (JSON, format=binary, 1 MiB per request) — the same data, no group;
//   - group: a fresh consumer group of 3 REST v2 instances (binary format) that subscribe, wait for their
//     assignment, and loop poll (max_bytes 1 MiB) + commit (empty body) until every record has been consumed.
// Both sides count records the same way (occurrences of "offset": in the answers), so the client's parsing cost
// is equal; the ratio is group / stateless. Beside the rates: the broker's CPU time per record of each side (from
// /proc, so that a figure taken while other processes share the CPU can still be judged), and the group's two
// fixed phases per round: until the first records come (instances created and subscribed, the initial rebalance
// delay, the assignment), and after the last ones (an instance whose partitions are drained while others still
// read polls again and waits out its timeout, since no record comes; then the instances are deleted).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatMeasurement, type Measurement } from './measure.js';
import { call, callJson, cpuMs, rssBytes, startBroker, stop, type Server } from './bench-processes.js';

const TOPIC = 'group-bench';
const PARTITIONS = 6;
const INSTANCES = 3;
const RECORD_BYTES = 100;
const RECORDS_PER_REQUEST = 1000;
const READ_BYTES = 1024 * 1024;
const ROUNDS = 2;
const V2 = { 'content-type': 'application/vnd.kafka.v2+json' };

function countRecords(body: Buffer): number {
  const text = body.toString('latin1');
  let count = 0;
  for (let at = text.indexOf('"offset":'); at !== -1; at = text.indexOf('"offset":', at + 9)) count++;
  return count;
}

async function prefill(broker: Server, records: number): Promise<void> {
  const value = Buffer.alloc(RECORD_BYTES, 'g').toString('base64');
  const body = Buffer.from(JSON.stringify({ records: Array.from({ length: RECORDS_PER_REQUEST }, () => ({ value })) }));
  const headers = { 'content-type': 'application/vnd.kafka.binary.v2+json' };
  let sent = 0;
  const loop = async () => {
    while (sent < records) {
      const partition = (sent / RECORDS_PER_REQUEST) % PARTITIONS;
      sent += RECORDS_PER_REQUEST;
      const res = await call(broker, 'POST', `/topics/${TOPIC}/partitions/${partition}`, body, headers);
      if (res.status !== 200 || /"error_code":\d/.test(res.body.toString('latin1'))) {
        throw new Error(`prefill: ${res.status} ${res.body.toString('utf8', 0, 200)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, loop));
}

async function readStateless(broker: Server, clusterId: string, ends: number[]): Promise<number> {
  let total = 0;
  const reader = async (partitions: number[]) => {
    for (const partition of partitions) {
      let offset = 0;
      while (offset < ends[partition]) {
        const path = `/v3/clusters/${clusterId}/topics/${TOPIC}/partitions/${partition}/records?offset=${offset}&max_bytes=${READ_BYTES}&max_records=10000&format=binary`;
        const res = await call(broker, 'GET', path);
        if (res.status !== 200) throw new Error(`stateless read: ${res.status}`);
        total += countRecords(res.body);
        const text = res.body.toString('latin1');
        const next = Number(/"next_offset":(\d+)/.exec(text.slice(text.lastIndexOf('"next_offset":')))?.[1]);
        if (!(next > offset)) throw new Error('stateless read made no progress');
        offset = next;
      }
    }
  };
  await Promise.all(Array.from({ length: INSTANCES }, (_, i) => reader([2 * i, 2 * i + 1])));
  return total;
}

interface GroupRound {
  consumed: number;
  /** Monotonic ms when the first records came and when the last did. */
  firstRecordsAt: number;
  lastRecordsAt: number;
}

async function consumeAsGroup(broker: Server, group: string, records: number): Promise<GroupRound> {
  const names = Array.from({ length: INSTANCES }, (_, i) => `bench-${i}`);
  for (const name of names) {
    await callJson(broker, 'POST', `/consumers/${group}`, {
      name,
      format: 'binary',
      'auto.offset.reset': 'earliest',
      'auto.commit.enable': 'false',
    });
    const res = await call(
      broker,
      'POST',
      `/consumers/${group}/instances/${name}/subscription`,
      JSON.stringify({ topics: [TOPIC] }),
      V2,
    );
    if (res.status !== 204) throw new Error(`subscribe: ${res.status}`);
  }
  let consumed = 0;
  let firstRecordsAt = NaN;
  let lastRecordsAt = NaN;
  const consumer = async (name: string) => {
    const base = `/consumers/${group}/instances/${name}`;
    while (consumed < records) {
      const res = await call(broker, 'GET', `${base}/records?timeout=200&max_bytes=${READ_BYTES}`, undefined, {
        accept: 'application/vnd.kafka.binary.v2+json',
      });
      if (res.status !== 200) throw new Error(`poll: ${res.status} ${res.body.toString('utf8', 0, 200)}`);
      const count = countRecords(res.body);
      consumed += count;
      if (count > 0) {
        lastRecordsAt = performance.now();
        if (Number.isNaN(firstRecordsAt)) firstRecordsAt = lastRecordsAt;
        const commit = await call(broker, 'POST', `${base}/offsets`, undefined, V2);
        if (commit.status !== 200) throw new Error(`commit: ${commit.status} ${commit.body.toString('utf8', 0, 200)}`);
      }
    }
  };
  await Promise.all(names.map(consumer));
  for (const name of names) await call(broker, 'DELETE', `/consumers/${group}/instances/${name}`);
  return { consumed, firstRecordsAt, lastRecordsAt };
}

export async function runGroupBench(records: number): Promise<Measurement[]> {
  const dir = await mkdtemp(join(tmpdir(), 'brook-bench-g1-'));
  let broker: Server | undefined;
  try {
    broker = await startBroker(join(dir, 'broker'), {
      BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '100',
      BROOK_OFFSETS_TOPIC_NUM_PARTITIONS: '5',
    });
    const clusters = (await callJson(broker, 'GET', '/v3/clusters')).data as Array<{ cluster_id: string }>;
    const clusterId = clusters[0].cluster_id;
    await callJson(broker, 'POST', `/v3/clusters/${clusterId}/topics`, {
      topic_name: TOPIC,
      partitions_count: PARTITIONS,
    });
    const total = Math.ceil(records / RECORDS_PER_REQUEST) * RECORDS_PER_REQUEST;
    await prefill(broker, total);
    const ends = Array.from({ length: PARTITIONS }, () => 0);
    for (let i = 0; i < total / RECORDS_PER_REQUEST; i++) ends[i % PARTITIONS] += RECORDS_PER_REQUEST;

    const results: Measurement[] = [];
    let stateless: Measurement = {
      name: 'G1 stateless read, 3 readers x 2 partitions',
      records: 0,
      bytes: 0,
      seconds: 0,
    };
    let grouped: Measurement = { name: 'G1 group of 3 v2 instances, poll + commit', records: 0, bytes: 0, seconds: 0 };
    const cpu = { stateless: 0, grouped: 0 };
    const phases: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let started = performance.now();
      let cpuBefore = cpuMs(broker.child.pid) ?? NaN;
      const read = await readStateless(broker, clusterId, ends);
      stateless = add(stateless, read, (performance.now() - started) / 1000);
      cpu.stateless += (cpuMs(broker.child.pid) ?? NaN) - cpuBefore;
      if (read !== total) throw new Error(`stateless read ${read} of ${total} records`);
      started = performance.now();
      cpuBefore = cpuMs(broker.child.pid) ?? NaN;
      const { consumed, firstRecordsAt, lastRecordsAt } = await consumeAsGroup(broker, `bench-group-${round}`, total);
      const ended = performance.now();
      grouped = add(grouped, consumed, (ended - started) / 1000);
      cpu.grouped += (cpuMs(broker.child.pid) ?? NaN) - cpuBefore;
      if (consumed !== total) throw new Error(`group consumed ${consumed} of ${total} records`);
      phases.push(
        `${(firstRecordsAt - started).toFixed(0)} + ${(ended - lastRecordsAt).toFixed(0)} of ${(ended - started).toFixed(0)}`,
      );
    }
    stateless.cpuUsPerRecord = (1000 * cpu.stateless) / stateless.records || undefined;
    grouped.cpuUsPerRecord = (1000 * cpu.grouped) / grouped.records || undefined;
    grouped.rssBytes = rssBytes(broker.child.pid);
    results.push(stateless, grouped);
    console.log(
      `${total.toLocaleString('en-US')} records of ${RECORD_BYTES} B in ${PARTITIONS} partitions, ${ROUNDS} rounds each`,
    );
    console.log(formatMeasurement(stateless));
    console.log(formatMeasurement(grouped, stateless));
    console.log(`G1 group rounds, ms until the first records + after the last of the round: ${phases.join(', ')}`);
    return results;
  } finally {
    if (broker !== undefined) await stop(broker);
    await rm(dir, { recursive: true, force: true });
  }
}

function add(m: Measurement, records: number, seconds: number): Measurement {
  return { ...m, records: m.records + records, bytes: m.bytes + records * RECORD_BYTES, seconds: m.seconds + seconds };
}
