// `npm run bench [-- suite...]`: runs the benchmark suites, each beside its baseline in this same process tree,
// and prints records/s, MB/s, latencies and the ratio to the baseline. BROOK_BENCH_RECORDS scales the workload.
import { runLogBench } from './log-bench.js';

const suites: Record<string, () => Promise<unknown>> = {
  log: () => runLogBench(Number(process.env.BROOK_BENCH_RECORDS ?? 500_000)),
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
