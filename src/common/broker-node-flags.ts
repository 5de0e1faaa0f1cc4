// The flags Node is started with for a broker (`node <flags> dist/main.js`): V8 reads its heap's sizes when the
// process starts, so they cannot be set from inside the broker (`v8.setFlagsFromString` comes too late for them).
//
// --max-semi-space-size=32: a young generation of up to 2 x 32 MiB instead of V8's 2 x 16 MiB. Under sustained produce
// with 16 MiB, a broker sometimes fell into a regime of 20-66 mark-compacts in 6 s (1.0-1.8 ms CPU a W1 request
// against 0.4-0.6); with 32 it did not in the runs BENCHMARKS.md lists. The cost is up to 32 MiB more
// resident memory while the young generation is at its largest (V8 grows it only under a high allocation rate).
//
// Every launcher of this repository passes them: `brook start` and the local cluster (through brokerNodeArgs), the
// benchmarks (bench-processes.ts, which also launch another build the way that build launches itself), and, written
// out, `npm start` (scripts/start.sh), `npm run start:prod` and the Dockerfile's CMD; broker-node-flags.spec.ts
// fails when one of the written-out ones differs from this list.
export const BROKER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];

/** The arguments after `node` that start the broker at `mainJs` with BROKER_NODE_FLAGS. */
export function brokerNodeArgs(mainJs: string, flags: readonly string[] = BROKER_NODE_FLAGS): string[] {
  return [...flags, mainJs];
}
