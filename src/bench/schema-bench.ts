// W1 with schemas (`npm run bench -- w1a`, BROOK_BENCH_SECONDS): the W1 produce workload (1,000 records of 100
// bytes per request, 8 keep-alive connections, v2 produce to one partition) with Avro records by schema id beside
// the same with binary records, on the same broker in the same run, the two alternating in rounds. The Avro
// records are `{"payload": "<98 characters>"}` of a one-field record schema registered first, so each is 100 bytes
// of Avro binary (plus Confluent's 5-byte header) as the binary ones are 100 bytes: the broker validates each
// record against the schema, encodes it and writes the wire format. The ratio is Avro / binary (target >= 0.5).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTopic, produceBody, produceFor, RECORD_BYTES, RECORDS_PER_REQUEST, TOPIC } from './bench-client.js';
import { callJson, CONNECTIONS, rssBytes, startBroker, stop, type Server } from './bench-processes.js';
import { W1_ROUNDS, WARMUP_SECONDS } from './http-bench.js';
import { formatMeasurement, type Measurement } from './measure.js';

const AVRO_HEADERS = { 'content-type': 'application/vnd.kafka.avro.v2+json' };
const SCHEMA = JSON.stringify({ type: 'record', name: 'Bench', fields: [{ name: 'payload', type: 'string' }] });
/** 98 characters: a 2-byte length and 98 bytes of Avro binary, RECORD_BYTES in all. */
const PAYLOAD = 'x'.repeat(RECORD_BYTES - 2);

export function avroProduceBody(schemaId: number): Buffer {
  const records = Array.from({ length: RECORDS_PER_REQUEST }, () => ({ value: { payload: PAYLOAD } }));
  return Buffer.from(JSON.stringify({ value_schema_id: schemaId, records }));
}

interface Total {
  requests: number;
  seconds: number;
  latenciesMs: number[];
  cpuMs: number;
}

export async function runW1Avro(seconds: number): Promise<Measurement[]> {
  const dir = await mkdtemp(join(tmpdir(), 'brook-bench-w1a-'));
  let broker: Server | undefined;
  try {
    broker = await startBroker(join(dir, 'broker'));
    await createTopic(broker);
    const { id } = (await callJson(broker, 'POST', `/subjects/${TOPIC}-value/versions`, { schema: SCHEMA })) as {
      id: number;
    };
    const sides = [
      { name: 'brook: v2 binary produce, 1000 rec/request', body: produceBody(), headers: undefined },
      { name: 'brook: v2 avro produce by schema id, 1000 rec/req', body: avroProduceBody(id), headers: AVRO_HEADERS },
    ];
    for (const side of sides) await produceFor(broker, side.body, WARMUP_SECONDS, undefined, side.headers);
    const totals: Total[] = sides.map(() => ({ requests: 0, seconds: 0, latenciesMs: [], cpuMs: 0 }));
    for (let round = 0; round < W1_ROUNDS; round++) {
      for (const [index, side] of sides.entries()) {
        const run = await produceFor(broker, side.body, seconds / W1_ROUNDS, undefined, side.headers);
        const total = totals[index];
        total.requests += run.requests;
        total.seconds += run.seconds;
        total.cpuMs += run.cpuMs;
        for (const latency of run.latenciesMs) total.latenciesMs.push(latency);
      }
    }
    const rss = rssBytes(broker.child.pid);
    const [binary, avro] = sides.map((side, index): Measurement => {
      const total = totals[index];
      const records = total.requests * RECORDS_PER_REQUEST;
      return {
        name: side.name,
        records,
        bytes: records * RECORD_BYTES,
        seconds: total.seconds,
        latenciesMs: total.latenciesMs,
        rssBytes: rss,
        cpuMsPerRequest: total.cpuMs > 0 ? total.cpuMs / total.requests : undefined,
      };
    });
    console.log(
      `${RECORD_BYTES}-byte records, ${RECORDS_PER_REQUEST} per request, ${CONNECTIONS} connections, one broker, ` +
        `${seconds} s each in ${W1_ROUNDS} alternating rounds after ${WARMUP_SECONDS} s warm-up; ratio: Avro / binary`,
    );
    console.log(formatMeasurement(binary));
    console.log(formatMeasurement(avro, binary));
    return [binary, avro];
  } finally {
    if (broker !== undefined) await stop(broker);
    await rm(dir, { recursive: true, force: true });
  }
}
