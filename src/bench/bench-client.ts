// The HTTP client side of the benchmarks: keep-alive requests to a broker or a baseline, the bench topic, and the
// produce workload (100-byte records, 1,000 per request in the v2 binary format, from several connections for a
// fixed time, every answer checked).
import { call, callJson, CONNECTIONS, cpuMs, type Response, rssBytes, type Server } from './bench-processes.js';
import type { Measurement } from './measure.js';

export const RECORD_BYTES = 100;
export const RECORDS_PER_REQUEST = 1000;
export const TOPIC = 'bench';

export async function createTopic(broker: Server): Promise<string> {
  const clusters = (await callJson(broker, 'GET', '/v3/clusters')).data as Array<{ cluster_id: string }>;
  const clusterId = clusters[0].cluster_id;
  await callJson(broker, 'POST', `/v3/clusters/${clusterId}/topics`, { topic_name: TOPIC, partitions_count: 1 });
  return clusterId;
}

export function produceBody(): Buffer {
  const value = Buffer.alloc(RECORD_BYTES, 'x').toString('base64');
  const records = Array.from({ length: RECORDS_PER_REQUEST }, () => ({ value }));
  return Buffer.from(JSON.stringify({ records }));
}

export const PRODUCE_HEADERS = { 'content-type': 'application/vnd.kafka.binary.v2+json' };
export const PRODUCE_PATH = `/topics/${TOPIC}/partitions/0`;

export function checkProduced(server: Server, res: Response): void {
  if (res.status !== 200)
    throw new Error(`${server.name} answered ${res.status}: ${res.body.toString('utf8', 0, 300)}`);
  // A per-record failure comes back inside offsets[] with status 200.
  if (/"error_code":\d/.test(res.body.toString('latin1')))
    throw new Error(`${server.name} failed records: ${res.body.toString('utf8', 0, 300)}`);
}

/**
 * Posts `body` to `path` from CONNECTIONS concurrent loops until `seconds` have passed; returns the latencies and
 * the CPU time the server process spent meanwhile (0 when /proc cannot tell).
 */
export async function produceFor(
  server: Server,
  body: Buffer,
  seconds: number,
  path = PRODUCE_PATH,
  /** The request headers, or a function giving each request's (a new Idempotency-Key each). */
  headers: Record<string, string> | (() => Record<string, string>) = PRODUCE_HEADERS,
): Promise<{ requests: number; seconds: number; latenciesMs: number[]; cpuMs: number }> {
  const cpuBefore = cpuMs(server.child.pid);
  const latenciesMs: number[] = [];
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(seconds * 1e9));
  const loop = async () => {
    while (process.hrtime.bigint() < deadline) {
      const sent = process.hrtime.bigint();
      const res = await call(server, 'POST', path, body, typeof headers === 'function' ? headers() : headers);
      latenciesMs.push(Number(process.hrtime.bigint() - sent) / 1e6);
      checkProduced(server, res);
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

/** A produce load's requests on one server, summed over its rounds (produceFor's answers). */
export interface ProduceTotal {
  requests: number;
  seconds: number;
  latenciesMs: number[];
  cpuMs: number;
}

/** The line of one server: records and bytes from its requests, its RSS now, its CPU per request. */
export function produceMeasurement(
  server: Server,
  name: string,
  total: ProduceTotal,
  recordsPerRequest = RECORDS_PER_REQUEST,
): Measurement {
  const records = total.requests * recordsPerRequest;
  return {
    name,
    records,
    bytes: records * RECORD_BYTES,
    seconds: total.seconds,
    latenciesMs: total.latenciesMs,
    rssBytes: rssBytes(server.child.pid),
    cpuMsPerRequest: total.cpuMs > 0 ? total.cpuMs / total.requests : undefined,
  };
}
