// The HTTP benchmarks. Each starts a broker (node dist/main.js) and a bare Node `http` baseline server as child
// processes, drives both with the same client, the same bodies and the same request pattern, and prints them
// side by side with the ratio broker/baseline.
//
// W1 (BROOK_BENCH_SECONDS, default 10): produce 100-byte records, 1,000 per request in the v2 binary format, from
//   8 keep-alive connections for a fixed time, the two sides alternating in rounds. Baseline: a server that fs.writes each request body to a file.
//   A third side, in the same rounds on a second broker of the same build: the same requests each with a new
//   Idempotency-Key (target: at least 0.9 of the broker without it). The keyed side has a broker of its own so that
//   the keys' producer state (kept for BROOK_IDEMPOTENCY_RETENTION_MS) does not weigh on the side without keys,
//   which stays the same workload as before idempotence existed.
//   BROOK_BENCH_W1_COMPARE=<another build's dist/main.js> adds a fourth side in the same rounds: a broker of that
//   build under the same requests, and prints this build's records/s over it (run it with a copy of this build's
//   own dist/ to see the noise of that ratio, with an older build's to compare the two).
// W6 (BROOK_BENCH_READ_MB, default 200): catch-up read of a prefilled partition (prefill not timed), 1 MiB per
//   request, one request at a time, raw batches (Accept: application/vnd.brook.batches) and JSON (format=binary).
//   Baseline and raw read alternate in rounds. Baseline: a server answering 1 MiB Range requests from a file of the same size with fs.createReadStream.
//   The JSON read has a baseline of its own (json-read-baseline.ts): a server decoding the same stored batches from
//   memory and JSON.stringify'ing their records in Brook's shape; the two alternate in whole passes (target >= 0.7).
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkProduced,
  createTopic,
  PRODUCE_HEADERS,
  PRODUCE_PATH,
  produceBody,
  produceFor,
  produceMeasurement,
  type ProduceTotal,
  RECORD_BYTES,
  RECORDS_PER_REQUEST,
  TOPIC,
} from './bench-client.js';
import {
  call,
  CONNECTIONS,
  READ_BASELINE,
  type Response,
  rssBytes,
  startBaseline,
  startBroker,
  stop,
  type Server,
  WRITE_BASELINE,
} from './bench-processes.js';
import { JSON_READ_BASELINE } from './json-read-baseline.js';
import { formatMeasurement, type Measurement } from './measure.js';

export const WARMUP_SECONDS = 1;
export const W1_ROUNDS = 4;
const W6_ROUNDS = 3;
const READ_CHUNK_BYTES = 1024 * 1024;
const JSON_MAX_RECORDS = 10_000;
/** Whole passes of the JSON read and of its baseline, alternating. */
const JSON_ROUNDS = 2;

// ---------------------------------------------------------------------------------------------------------------
// W1: produce

export async function runW1(seconds: number): Promise<Measurement[]> {
  const dir = await mkdtemp(join(tmpdir(), 'brook-bench-w1-'));
  const body = produceBody();
  const servers: Server[] = [];
  try {
    const baselineServer = await startBaseline('baseline', WRITE_BASELINE, join(dir, 'baseline.log'));
    servers.push(baselineServer);
    const broker = await startBroker(join(dir, 'broker'));
    servers.push(broker);
    const keyedBroker = await startBroker(join(dir, 'keyed-broker'));
    servers.push(keyedBroker);
    await createTopic(broker);
    await createTopic(keyedBroker);
    await produceFor(baselineServer, body, WARMUP_SECONDS);
    await produceFor(broker, body, WARMUP_SECONDS);
    // Load from other processes on this machine drifts, so the two sides alternate in W1_ROUNDS rounds of
    // seconds / W1_ROUNDS each (both servers stay up; the idle one costs nothing) and the rounds are summed.
    let keys = 0;
    const keyed = () => ({ ...PRODUCE_HEADERS, 'idempotency-key': `bench-${process.pid}-${keys++}` });
    await produceFor(keyedBroker, body, WARMUP_SECONDS, PRODUCE_PATH, keyed);
    const compareMain = process.env.BROOK_BENCH_W1_COMPARE;
    const compared = compareMain === undefined ? undefined : await startComparedBroker(compareMain, dir, body);
    if (compared !== undefined) servers.push(compared);
    type Total = ProduceTotal;
    const fresh = (): Total => ({ requests: 0, seconds: 0, latenciesMs: [], cpuMs: 0 });
    const sides: Array<{ server: Server; headers?: () => Record<string, string>; total: Total }> = [
      { server: baselineServer, total: fresh() },
      { server: broker, total: fresh() },
      { server: keyedBroker, headers: keyed, total: fresh() },
      ...(compared === undefined ? [] : [{ server: compared, total: fresh() }]),
    ];
    for (let round = 0; round < W1_ROUNDS; round++) {
      for (const side of sides) {
        const server = side.server;
        const run = await produceFor(server, body, seconds / W1_ROUNDS, PRODUCE_PATH, side.headers);
        const total = side.total;
        total.requests += run.requests;
        total.seconds += run.seconds;
        total.cpuMs += run.cpuMs;
        for (const latency of run.latenciesMs) total.latenciesMs.push(latency);
      }
    }
    const baseline = produceMeasurement(baselineServer, 'baseline: http + fs.write of the body', sides[0].total);
    const brook = produceMeasurement(broker, 'brook: v2 binary produce, 1000 rec/request', sides[1].total);
    const withKeys = produceMeasurement(
      keyedBroker,
      'brook (a second broker): the same with an Idempotency-Key per request',
      sides[2].total,
    );
    await stop(keyedBroker);
    await stop(broker);
    await stop(baselineServer);

    console.log(
      `${RECORD_BYTES}-byte records, ${RECORDS_PER_REQUEST} per request (${(body.length / 1024).toFixed(0)} KiB body), ` +
        `${CONNECTIONS} connections, ${seconds} s each in ${W1_ROUNDS} alternating rounds after ${WARMUP_SECONDS} s warm-up; ` +
        "MB/s of record payload; rss at the end; cpu: the server process's CPU time per request",
    );
    console.log(formatMeasurement(baseline));
    console.log(formatMeasurement(brook, baseline));
    console.log(formatMeasurement(withKeys, baseline));
    const keyedRatio = withKeys.records / withKeys.seconds / (brook.records / brook.seconds);
    console.log(`Idempotency-Key / without: ${keyedRatio.toFixed(2)} of the records/s (target >= 0.9)`);
    if (compared === undefined) return [baseline, brook, withKeys];
    const other = produceMeasurement(compared, `the compared build (${compareMain})`, sides[3].total);
    console.log(formatMeasurement(other, baseline));
    const comparedRatio = brook.records / brook.seconds / (other.records / other.seconds);
    console.log(`this build / the compared build: ${comparedRatio.toFixed(2)} of the records/s`);
    return [baseline, brook, withKeys, other];
  } finally {
    for (const server of servers) await stop(server);
    await rm(dir, { recursive: true, force: true });
  }
}

/** A broker of another build (its dist/main.js) with W1's topic, warmed up like the others. */
async function startComparedBroker(mainJs: string, dir: string, body: Buffer): Promise<Server> {
  const server = await startBroker(join(dir, 'compared-broker'), {}, undefined, undefined, mainJs);
  await createTopic(server);
  await produceFor(server, body, WARMUP_SECONDS);
  return server;
}

// ---------------------------------------------------------------------------------------------------------------
// W6: catch-up read

async function prefill(broker: Server, body: Buffer, records: number): Promise<void> {
  let remaining = Math.ceil(records / RECORDS_PER_REQUEST);
  const loop = async () => {
    while (remaining > 0) {
      remaining--;
      checkProduced(broker, await call(broker, 'POST', PRODUCE_PATH, body, PRODUCE_HEADERS));
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
}

function header(res: Response, name: string): number {
  const value = res.headers[name];
  const parsed = Number(Array.isArray(value) ? value[0] : value);
  if (!Number.isSafeInteger(parsed)) throw new Error(`missing or bad ${name} header: ${String(value)}`);
  return parsed;
}

async function readRaw(
  broker: Server,
  clusterId: string,
  endOffset: number,
  /** Each answer's batches, in order (the JSON baseline serves them). */
  onBatches?: (batches: Buffer) => void,
): Promise<{ bytes: number; records: number; seconds: number; requests: number }> {
  const base = `/v3/clusters/${clusterId}/topics/${TOPIC}/partitions/0/records`;
  const started = process.hrtime.bigint();
  let offset = 0;
  let bytes = 0;
  let requests = 0;
  while (offset < endOffset) {
    const res = await call(broker, 'GET', `${base}?offset=${offset}&max_bytes=${READ_CHUNK_BYTES}`, undefined, {
      accept: 'application/vnd.brook.batches',
    });
    if (res.status !== 200)
      throw new Error(`raw read at ${offset}: ${res.status} ${res.body.toString('utf8', 0, 300)}`);
    const next = header(res, 'x-brook-next-offset');
    if (next <= offset) throw new Error(`raw read at ${offset} made no progress`);
    onBatches?.(res.body);
    bytes += res.body.length;
    requests++;
    offset = next;
  }
  return { bytes, records: offset, seconds: Number(process.hrtime.bigint() - started) / 1e9, requests };
}

async function readJson(
  broker: Server,
  clusterId: string,
  endOffset: number,
): Promise<{ wireBytes: number; records: number; seconds: number; requests: number }> {
  const base = `/v3/clusters/${clusterId}/topics/${TOPIC}/partitions/0/records`;
  const started = process.hrtime.bigint();
  let offset = 0;
  let wireBytes = 0;
  let requests = 0;
  while (offset < endOffset) {
    const res = await call(
      broker,
      'GET',
      `${base}?offset=${offset}&max_bytes=${READ_CHUNK_BYTES}&format=binary&max_records=${JSON_MAX_RECORDS}`,
    );
    if (res.status !== 200)
      throw new Error(`json read at ${offset}: ${res.status} ${res.body.toString('utf8', 0, 300)}`);
    const text = res.body.toString('latin1');
    if (requests === 0) {
      // Check the shape once; afterwards only next_offset is picked out, so the client's JSON.parse of 10,000
      // records is not charged to the broker.
      const parsed = JSON.parse(text) as { records: Array<{ offset: number; value: string }>; next_offset: number };
      if (
        parsed.records.length !== parsed.next_offset - offset ||
        Buffer.from(parsed.records[0].value, 'base64').length !== RECORD_BYTES
      ) {
        throw new Error('unexpected JSON read answer');
      }
    }
    const match = /"next_offset":(\d+)/.exec(text.slice(text.lastIndexOf('"next_offset":')));
    const next = Number(match?.[1]);
    if (!(next > offset)) throw new Error(`json read at ${offset} made no progress`);
    wireBytes += res.body.length;
    requests++;
    offset = next;
  }
  return { wireBytes, records: offset, seconds: Number(process.hrtime.bigint() - started) / 1e9, requests };
}

async function readBaseline(
  server: Server,
  size: number,
): Promise<{ bytes: number; seconds: number; requests: number }> {
  const started = process.hrtime.bigint();
  let position = 0;
  let requests = 0;
  while (position < size) {
    const end = Math.min(position + READ_CHUNK_BYTES, size) - 1;
    const res = await call(server, 'GET', '/file', undefined, { range: `bytes=${position}-${end}` });
    if (res.status !== 206 || res.body.length !== end - position + 1)
      throw new Error(`baseline read at ${position}: ${res.status}, ${res.body.length} bytes`);
    position += res.body.length;
    requests++;
  }
  return { bytes: position, seconds: Number(process.hrtime.bigint() - started) / 1e9, requests };
}

export async function runW6(readMb: number): Promise<Measurement[]> {
  const dir = await mkdtemp(join(tmpdir(), 'brook-bench-w6-'));
  const servers: Server[] = [];
  try {
    const broker = await startBroker(join(dir, 'broker'));
    servers.push(broker);
    const clusterId = await createTopic(broker);
    const records = Math.ceil((readMb * 1e6) / RECORD_BYTES / RECORDS_PER_REQUEST) * RECORDS_PER_REQUEST;
    const prefillStarted = Date.now();
    await prefill(broker, produceBody(), records);
    const prefillSeconds = (Date.now() - prefillStarted) / 1000;

    // Warm-up, not timed: a whole raw pass (which also gives the byte count and the stored batches the JSON
    // baseline serves) and a short JSON pass.
    const stored = await open(join(dir, 'batches.bin'), 'w');
    let storedBytes = 0;
    const writes: Array<Promise<unknown>> = [];
    const warm = await readRaw(broker, clusterId, records, (batches) => {
      writes.push(stored.write(batches, 0, batches.length, storedBytes));
      storedBytes += batches.length;
    });
    await Promise.all(writes);
    await stored.close();
    await readJson(broker, clusterId, Math.min(records, 300_000));

    // The baseline serves a file of exactly the bytes the raw read receives, with the same request pattern.
    const file = join(dir, 'baseline.bin');
    const handle = await open(file, 'w');
    const chunk = Buffer.alloc(READ_CHUNK_BYTES, 'x');
    for (let at = 0; at < warm.bytes; at += chunk.length)
      await handle.write(chunk, 0, Math.min(chunk.length, warm.bytes - at), at);
    await handle.close();
    const baselineServer = await startBaseline('baseline', READ_BASELINE, file);
    servers.push(baselineServer);
    await readBaseline(baselineServer, Math.min(warm.bytes, 32 * READ_CHUNK_BYTES));

    // Load from other processes drifts, so the baseline and the raw read alternate in W6_ROUNDS whole passes
    // (summed); the much slower JSON read runs one pass.
    const base = { bytes: 0, seconds: 0, requests: 0 };
    const raw = { bytes: 0, records: 0, seconds: 0, requests: 0 };
    for (let round = 0; round < W6_ROUNDS; round++) {
      const b = await readBaseline(baselineServer, warm.bytes);
      const r = await readRaw(broker, clusterId, records);
      for (const [total, run] of [
        [base, b],
        [raw, r],
      ] as const) {
        total.bytes += run.bytes;
        total.seconds += run.seconds;
        total.requests += run.requests;
      }
      raw.records += r.records;
    }
    // The JSON read beside its own baseline (json-read-baseline.ts), one whole pass each, alternating twice.
    const jsonBaselineServer = await startBaseline('json baseline', JSON_READ_BASELINE, join(dir, 'batches.bin'));
    servers.push(jsonBaselineServer);
    await readJson(jsonBaselineServer, clusterId, Math.min(records, 300_000));
    const json = { wireBytes: 0, records: 0, seconds: 0, requests: 0 };
    const jsonBase = { wireBytes: 0, records: 0, seconds: 0, requests: 0 };
    for (let round = 0; round < JSON_ROUNDS; round++) {
      for (const [total, server] of [
        [jsonBase, jsonBaselineServer],
        [json, broker],
      ] as const) {
        const run = await readJson(server, clusterId, records);
        total.wireBytes += run.wireBytes;
        total.records += run.records;
        total.seconds += run.seconds;
        total.requests += run.requests;
      }
    }
    const rss = rssBytes(broker.child.pid);
    await stop(broker);
    await stop(baselineServer);
    await stop(jsonBaselineServer);

    const baseline: Measurement = {
      name: 'baseline: http + fs.createReadStream, 1 MiB',
      records: raw.records,
      bytes: base.bytes,
      seconds: base.seconds,
    };
    const rawRow: Measurement = {
      name: 'brook: raw batches read, 1 MiB',
      records: raw.records,
      bytes: raw.bytes,
      seconds: raw.seconds,
      rssBytes: rss,
    };
    // The JSON row's MB/s counts the same stored bytes as the raw row (the records delivered), so its ratio
    // compares records/s; its wire size is printed below.
    const jsonRow: Measurement = {
      name: 'brook: JSON read (format=binary, 10000 rec)',
      records: json.records,
      bytes: raw.bytes * (json.records / raw.records),
      seconds: json.seconds,
    };
    console.log(
      `${records.toLocaleString('en-US')} records of ${RECORD_BYTES} B (${(warm.bytes / 1e6).toFixed(0)} MB stored, prefilled via produce in ` +
        `${prefillSeconds.toFixed(1)} s, not timed), one request at a time; MB/s of stored batch bytes`,
    );
    console.log(formatMeasurement(baseline) + `  (${W6_ROUNDS} passes of ${base.requests / W6_ROUNDS} requests)`);
    console.log(
      formatMeasurement(rawRow, baseline) + `  (${W6_ROUNDS} passes of ${raw.requests / W6_ROUNDS} requests)`,
    );
    const jsonBaseRow: Measurement = {
      name: 'baseline: http + decode stored batches from memory + JSON.stringify',
      records: jsonBase.records,
      bytes: raw.bytes * (jsonBase.records / raw.records),
      seconds: jsonBase.seconds,
    };
    console.log(formatMeasurement(jsonBaseRow, baseline) + `  (${jsonBase.requests} requests)`);
    console.log(
      formatMeasurement(jsonRow, baseline) +
        `  (${json.requests} requests, ${(json.wireBytes / 1e6).toFixed(0)} MB of JSON, ${(json.wireBytes / json.seconds / 1e6).toFixed(1)} MB/s on the wire)`,
    );
    const jsonRatio = json.records / json.seconds / (jsonBase.records / jsonBase.seconds);
    console.log(
      `JSON read / its baseline (decode and JSON.stringify from memory): ${jsonRatio.toFixed(2)} (target >= 0.7)`,
    );
    return [baseline, rawRow, jsonBaseRow, jsonRow];
  } finally {
    for (const server of servers) await stop(server);
    await rm(dir, { recursive: true, force: true });
  }
}
