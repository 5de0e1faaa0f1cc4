// S1: many partitions on one broker (BROOK_BENCH_S1_PARTITIONS, default 10,000: 100 topics of 100 partitions;
// fewer than 100 is one topic of that many; BROOK_BENCH_S1_SECONDS, default 10, the produce run). In order:
//   create: one v3 create-topic request per topic, one after another, timed until every one answered, then until
//     every partition served a read (a v3 stateless read of one record as raw batches, answered 200);
//   produce, spread over every partition: v2 binary produce to `/topics/{t}`, 1,000 records of 100 bytes per
//     request, 10 for each of the topic's 100 partitions (each record names its partition), the topics in turn, from
//     8 keep-alive connections; first one request per topic (not timed), so every partition holds records. Beside
//     it, alternating in rounds, the baseline: the same requests to a bare Node server that fs.writes each body
//     (bench-processes.ts); rec/s, MB/s, p50/p99 and the ratio are printed as for W1;
//   idle: after IDLE_SETTLE_MS without requests, the broker's RSS and open descriptors (/proc/<pid>/fd, with how
//     many are segment files); the bound on segment files is BROOK_MAX_OPEN_FILES (the log's handle pool, default
//     1,024), set here to its default explicitly. After the produce run and after the restart, a second RSS reading
//     IDLE_REDUCED_MS into the idle stretch: by then the broker's own idle memory reduction has run (5 s of idleness,
//     BROOK_IDLE_MEMORY_REDUCE_AFTER_MS, and its follow-ups 6 s apart while V8 keeps the young generation large);
//     both readings are printed;
//   restart: a clean stop (SIGTERM, timed until exit) and start, then, after one more request per topic, kill -9 and
//     start: each timed from the spawn until the broker answers HTTP and until every partition served a read whose
//     high watermark is every record acknowledged before the stop (nothing acknowledged is lost across either).
// Targets (issue 23): ready within 15 s after kill -9, idle RSS < 300 MB, segment files within the pool's bound.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkProduced, PRODUCE_HEADERS, produceMeasurement, type ProduceTotal } from './bench-client.js';
import {
  brokerPorts,
  call,
  callJson,
  CONNECTIONS,
  cpuMs,
  openFiles,
  rssBytes,
  startBaseline,
  startBroker,
  stop,
  type Server,
  WRITE_BASELINE,
} from './bench-processes.js';
import { formatMeasurement, timed, type Measurement } from './measure.js';

const PARTITIONS_PER_TOPIC_MAX = 100;
const RECORD_BYTES = 100;
const RECORDS_PER_PARTITION_PER_REQUEST = 10;
const IDLE_SETTLE_MS = 5_000;
/** The second idle reading, from the end of the requests: after the broker's idle reduction and two follow-ups. */
const IDLE_REDUCED_MS = 25_000;
const ROUNDS = 4;
/** The handle pool's default (config/broker-config.ts), passed explicitly so the bound printed is the one in force. */
const MAX_OPEN_FILES = 1024;
/** How long a start may take before the bench gives up (far above the target: a slow start is still measured). */
const START_WITHIN_MS = 300_000;
const READ_ACCEPT = { accept: 'application/vnd.brook.batches' };

interface Layout {
  topics: string[];
  partitionsPerTopic: number;
}

function layoutOf(partitions: number): Layout {
  const partitionsPerTopic = Math.min(PARTITIONS_PER_TOPIC_MAX, partitions);
  const count = Math.ceil(partitions / partitionsPerTopic);
  return { topics: Array.from({ length: count }, (_, i) => `s1-${String(i).padStart(3, '0')}`), partitionsPerTopic };
}

function spreadBody(partitionsPerTopic: number): Buffer {
  const value = Buffer.alloc(RECORD_BYTES, 'x').toString('base64');
  const records = [];
  for (let round = 0; round < RECORDS_PER_PARTITION_PER_REQUEST; round++)
    for (let partition = 0; partition < partitionsPerTopic; partition++) records.push({ partition, value });
  return Buffer.from(JSON.stringify({ records }));
}

/** Runs `work` on every item from CONNECTIONS concurrent loops. */
async function eachConcurrently<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const loop = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
}

/**
 * Reads one record of every partition until each has answered 200 with a high watermark of at least
 * `acknowledged` of its topic; returns how many passes over the partitions that took.
 */
async function readEveryPartition(
  broker: Server,
  clusterId: string,
  layout: Layout,
  acknowledged: ReadonlyMap<string, number>,
): Promise<number> {
  let pending: Array<[string, number]> = layout.topics.flatMap((topic) =>
    Array.from({ length: layout.partitionsPerTopic }, (_, partition): [string, number] => [topic, partition]),
  );
  for (let pass = 1; ; pass++) {
    const failed: Array<[string, number]> = [];
    await eachConcurrently(pending, async ([topic, partition]) => {
      const path = `/v3/clusters/${clusterId}/topics/${topic}/partitions/${partition}/records?offset=0&max_records=1`;
      const res = await call(broker, 'GET', path, undefined, READ_ACCEPT).catch(() => null);
      const highWatermark = Number(res?.headers['x-brook-high-watermark'] ?? -1);
      if (res?.status !== 200 || highWatermark < (acknowledged.get(topic) ?? 0)) failed.push([topic, partition]);
    });
    if (failed.length === 0) return pass;
    if (pass >= 600) throw new Error(`${failed.length} partitions still not readable, e.g. ${failed[0].join('-')}`);
    pending = failed;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Posts the spread body to the topics in turn from CONNECTIONS loops for `seconds` (or once per topic). */
async function produceSpread(
  server: Server,
  layout: Layout,
  body: Buffer,
  seconds: number | 'once-per-topic',
  acknowledged?: Map<string, number>,
): Promise<{ requests: number; seconds: number; latenciesMs: number[]; cpuMs: number }> {
  const cpuBefore = cpuMs(server.child.pid);
  const latenciesMs: number[] = [];
  const started = process.hrtime.bigint();
  const deadline = seconds === 'once-per-topic' ? 0n : started + BigInt(Math.round(seconds * 1e9));
  let next = 0;
  const more = () => (seconds === 'once-per-topic' ? next < layout.topics.length : process.hrtime.bigint() < deadline);
  const loop = async () => {
    while (more()) {
      const topic = layout.topics[next++ % layout.topics.length];
      const sent = process.hrtime.bigint();
      const res = await call(server, 'POST', `/topics/${topic}`, body, PRODUCE_HEADERS);
      latenciesMs.push(Number(process.hrtime.bigint() - sent) / 1e6);
      checkProduced(server, res);
      acknowledged?.set(topic, (acknowledged.get(topic) ?? 0) + RECORDS_PER_PARTITION_PER_REQUEST);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  const cpuAfter = cpuMs(server.child.pid);
  return {
    requests: latenciesMs.length,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    latenciesMs,
    cpuMs: cpuBefore === undefined || cpuAfter === undefined ? 0 : cpuAfter - cpuBefore,
  };
}

function idleFigures(broker: Server): string {
  const files = openFiles(broker.child.pid);
  const rss = rssBytes(broker.child.pid);
  return (
    `rss ${rss === undefined ? '?' : (rss / 1e6).toFixed(0)} MB, open files ${files?.all ?? '?'} ` +
    `(${files?.segments ?? '?'} segment files; pool bound ${MAX_OPEN_FILES})`
  );
}

async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
}

/** The second reading, IDLE_REDUCED_MS into the idle stretch that settle() began. */
async function reducedIdleFigures(broker: Server): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, IDLE_REDUCED_MS - IDLE_SETTLE_MS));
  return `rss ${((rssBytes(broker.child.pid) ?? NaN) / 1e6).toFixed(0)} MB ${IDLE_REDUCED_MS / 1000} s into idleness`;
}

export async function runS1(partitions: number, seconds: number): Promise<Measurement[]> {
  const dir = await mkdtemp(join(tmpdir(), 'brook-bench-s1-'));
  const dataDir = join(dir, 'broker');
  const layout = layoutOf(partitions);
  const total = layout.topics.length * layout.partitionsPerTopic;
  const body = spreadBody(layout.partitionsPerTopic);
  const recordsPerRequest = RECORDS_PER_PARTITION_PER_REQUEST * layout.partitionsPerTopic;
  const env = { BROOK_MAX_OPEN_FILES: String(MAX_OPEN_FILES) };
  const ports = await brokerPorts();
  const servers: Server[] = [];
  const start = async () => {
    const spawned = await timed(() => startBroker(dataDir, env, ports, START_WITHIN_MS));
    servers.push(spawned.result);
    return { broker: spawned.result, listeningSeconds: spawned.seconds };
  };
  try {
    let { broker } = await start();
    console.log(
      `${total.toLocaleString('en-US')} partitions (${layout.topics.length} topics of ${layout.partitionsPerTopic}) ` +
        `on one broker; idle figures after ${IDLE_SETTLE_MS / 1000} s without requests`,
    );
    await settle();
    console.log(`idle, no topics: ${idleFigures(broker)}`);
    const clusters = (await callJson(broker, 'GET', '/v3/clusters')).data as Array<{ cluster_id: string }>;
    const clusterId = clusters[0].cluster_id;
    const acknowledged = new Map<string, number>();

    const created = await timed(async () => {
      for (const topic_name of layout.topics) {
        await callJson(broker, 'POST', `/v3/clusters/${clusterId}/topics`, {
          topic_name,
          partitions_count: layout.partitionsPerTopic,
        });
      }
    });
    const readable = await timed(() => readEveryPartition(broker, clusterId, layout, acknowledged));
    console.log(
      `create: ${created.seconds.toFixed(2)} s for ${layout.topics.length} create-topic requests ` +
        `(${((created.seconds * 1000) / layout.topics.length).toFixed(0)} ms each); every partition readable ` +
        `${readable.seconds.toFixed(2)} s later (${readable.result} pass(es) of reads)`,
    );
    await settle();
    console.log(`idle, topics created: ${idleFigures(broker)}`);

    const baseline = await startBaseline('baseline', WRITE_BASELINE, join(dir, 'baseline.log'));
    servers.push(baseline);
    await produceSpread(baseline, layout, body, 'once-per-topic');
    await produceSpread(broker, layout, body, 'once-per-topic', acknowledged);
    type Total = ProduceTotal;
    const totals = new Map<Server, Total>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const server of [baseline, broker]) {
        const run = await produceSpread(
          server,
          layout,
          body,
          seconds / ROUNDS,
          server === broker ? acknowledged : undefined,
        );
        const sum = totals.get(server) ?? { requests: 0, seconds: 0, latenciesMs: [], cpuMs: 0 };
        sum.requests += run.requests;
        sum.seconds += run.seconds;
        sum.cpuMs += run.cpuMs;
        for (const latency of run.latenciesMs) sum.latenciesMs.push(latency);
        totals.set(server, sum);
      }
    }
    const row = (server: Server, name: string): Measurement =>
      produceMeasurement(server, name, totals.get(server)!, recordsPerRequest);
    const base = row(baseline, 'baseline: http + fs.write of the body');
    const spread = row(broker, `brook: v2 produce over ${total.toLocaleString('en-US')} partitions`);
    await stop(baseline);
    console.log(
      `produce: ${RECORD_BYTES}-byte records, ${recordsPerRequest} per request (${RECORDS_PER_PARTITION_PER_REQUEST} ` +
        `to each partition of a topic), the topics in turn, ${CONNECTIONS} connections, ${seconds} s each in ` +
        `${ROUNDS} alternating rounds`,
    );
    console.log(formatMeasurement(base));
    console.log(formatMeasurement(spread, base));
    await settle();
    console.log(`idle, every partition holding records: ${idleFigures(broker)}`);
    console.log(`idle, every partition holding records: ${await reducedIdleFigures(broker)}`);

    const stopped = await timed(() => stop(broker, START_WITHIN_MS));
    if (stopped.result !== null) throw new Error(`the clean stop ended by ${stopped.result}`);
    let restarted = await start();
    broker = restarted.broker;
    let ready = await timed(() => readEveryPartition(broker, clusterId, layout, acknowledged));
    console.log(
      `clean restart: stop ${stopped.seconds.toFixed(2)} s; start: HTTP answers after ${restarted.listeningSeconds.toFixed(2)} s, ` +
        `every partition readable with every acknowledged record after ${(restarted.listeningSeconds + ready.seconds).toFixed(2)} s ` +
        `(the read check of ${total.toLocaleString('en-US')} partitions included: ${ready.seconds.toFixed(2)} s)`,
    );
    // records after the clean start's recovery point, so the crashed log has a tail to recover
    await produceSpread(broker, layout, body, 'once-per-topic', acknowledged);
    const killed = new Promise((resolve) => broker.child.once('exit', resolve));
    broker.child.kill('SIGKILL');
    await killed;
    broker.agent.destroy();
    restarted = await start();
    broker = restarted.broker;
    ready = await timed(() => readEveryPartition(broker, clusterId, layout, acknowledged));
    const killReady = restarted.listeningSeconds + ready.seconds;
    console.log(
      `restart after kill -9: HTTP answers after ${restarted.listeningSeconds.toFixed(2)} s, every partition readable ` +
        `with every acknowledged record after ${killReady.toFixed(2)} s (read check included: ${ready.seconds.toFixed(2)} s; ` +
        `target < 15 s: ${killReady < 15 ? 'reached' : 'not reached'})`,
    );
    await settle();
    console.log(`idle after the restart: ${idleFigures(broker)}`);
    console.log(`idle after the restart: ${await reducedIdleFigures(broker)}`);
    return [base, spread];
  } finally {
    for (const server of servers) await stop(server);
    await rm(dir, { recursive: true, force: true });
  }
}
