// `npm run bench [-- suite...]`: runs the benchmark suites, each beside its baseline in this same process tree,
// and prints records/s, MB/s, latencies and the ratio to the baseline. BROOK_BENCH_RECORDS scales the
// log workload, BROOK_BENCH_SECONDS the W1 produce runs (default 10; `w1` on one broker, `w1c` on a local
// three-broker cluster with acks=all and acks=1 beside one broker; BROOK_BENCH_W1_COMPARE another build's
// dist/main.js, run beside this build's broker in W1's rounds), BROOK_BENCH_W5_SECONDS and
// BROOK_BENCH_W5_RATE the W5 WebSocket fan-out (default 5 s per run, 10,000 records/s; BROOK_BENCH_W5_SUBSCRIBERS
// a comma list of subscriber counts, default 1,10,100), BROOK_BENCH_READ_MB the W6 read (default 200),
// BROOK_BENCH_GROUP_RECORDS the G1 consumer-group run (default 300,000); `w1a` W1 with Avro records by schema id
// beside binary ones on one broker (BROOK_BENCH_SECONDS). `w2`: 1 KiB records, 100 per v3 request, read by a
// REST long poll and a WebSocket subscriber (BROOK_BENCH_W2_SECONDS, default 5; BROOK_BENCH_W2_RATE requests/s,
// default 20). The Kafka listener: `k1` (pipelined Produce frames, BROOK_BENCH_SECONDS), `k6` (catch-up Fetch, BROOK_BENCH_K6_MB, default 1000) and `kjs` (kafkajs end to end,
// BROOK_BENCH_KAFKAJS_RECORDS, default 300,000). `s1`: a scale run of many partitions on one broker
// (BROOK_BENCH_S1_PARTITIONS, default 10,000; BROOK_BENCH_S1_SECONDS its produce run, default 10).
import { runW1Cluster } from './cluster-bench.js';
import { runGroupBench } from './group-bench.js';
import { runW1, runW6 } from './http-bench.js';
import { runK1, runK6 } from './kafka-bench.js';
import { runKafkajs } from './kafkajs-bench.js';
import { runLogBench } from './log-bench.js';
import { runS1 } from './scale-bench.js';
import { runW1Avro } from './schema-bench.js';
import { runW2 } from './w2-bench.js';
import { runW5 } from './ws-bench.js';

const suites: Record<string, () => Promise<unknown>> = {
  log: () => runLogBench(Number(process.env.BROOK_BENCH_RECORDS ?? 500_000)),
  w1: () => runW1(Number(process.env.BROOK_BENCH_SECONDS ?? 10)),
  w1a: () => runW1Avro(Number(process.env.BROOK_BENCH_SECONDS ?? 10)),
  w1c: () => runW1Cluster(Number(process.env.BROOK_BENCH_SECONDS ?? 10)),
  w2: () => runW2(Number(process.env.BROOK_BENCH_W2_SECONDS ?? 5), Number(process.env.BROOK_BENCH_W2_RATE ?? 20)),
  w5: () =>
    runW5(
      Number(process.env.BROOK_BENCH_W5_SECONDS ?? 5),
      Number(process.env.BROOK_BENCH_W5_RATE ?? 10_000),
      process.env.BROOK_BENCH_W5_SUBSCRIBERS?.split(',').map(Number),
    ),
  w6: () => runW6(Number(process.env.BROOK_BENCH_READ_MB ?? 200)),
  g1: () => runGroupBench(Number(process.env.BROOK_BENCH_GROUP_RECORDS ?? 300_000)),
  k1: () => runK1(Number(process.env.BROOK_BENCH_SECONDS ?? 10)),
  k6: () => runK6(Number(process.env.BROOK_BENCH_K6_MB ?? 1000)),
  kjs: () => runKafkajs(Number(process.env.BROOK_BENCH_KAFKAJS_RECORDS ?? 300_000)),
  s1: () =>
    runS1(Number(process.env.BROOK_BENCH_S1_PARTITIONS ?? 10_000), Number(process.env.BROOK_BENCH_S1_SECONDS ?? 10)),
};

const requested = process.argv.slice(2);
const names = requested.length > 0 ? requested : Object.keys(suites);
for (const name of names) {
  const suite = suites[name];
  if (suite === undefined) {
    console.error(`unknown benchmark suite ${name}; known: ${Object.keys(suites).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n== ${name}`);
  await suite();
}
