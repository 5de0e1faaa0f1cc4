// W1 on a local three-broker cluster (`npm run bench -- w1c`, BROOK_BENCH_SECONDS as W1): the same client, body
// and request pattern as W1 (100-byte records, 1,000 per request in the v2 binary format, 8 connections), sent to
// the leader of a replication factor 3, min.insync.replicas=2 topic with ?acks=all and with ?acks=1, beside a
// single broker (no Redis, RF=1) and the bare baseline (http + fs.write of the body), all started by this script:
// a real redis-server (coordination) and three brokers (node dist/main.js) on free ports. The four sides alternate
// in rounds; before each acks=all round the bench waits until the ISR is whole again, so an acks=1 round that left
// the followers behind is not charged to acks=all. Ratios: each row against the baseline, and the cluster rows
// against the single broker. The cluster rows also give the followers' CPU time a request (both summed, from
// /proc) and the follower fetches the leader answered a request (its brook_http_requests_total of the replica-fetch
// route): figures that depend little on what else the machine runs, unlike the latencies.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisServerProcess } from '../local-cluster/redis-server-process.js';
import {
  createTopic,
  produceBody,
  produceFor,
  PRODUCE_PATH,
  RECORD_BYTES,
  RECORDS_PER_REQUEST,
  TOPIC,
} from './bench-client.js';
import {
  call,
  callJson,
  CONNECTIONS,
  cpuMs,
  rssBytes,
  startBaseline,
  startBroker,
  stop,
  WRITE_BASELINE,
  type Server,
} from './bench-processes.js';
import { W1_ROUNDS, WARMUP_SECONDS } from './http-bench.js';
import { formatMeasurement, type Measurement } from './measure.js';

const CLUSTER_BROKERS = 3;
const READY_TIMEOUT_MS = 60_000;

async function waitFor<T>(what: string, probe: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      const value = await probe();
      if (value !== null) return value;
    } catch {
      // not there yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The leader of bench-0 once every replica is in sync, as `through` sees it. */
async function leaderWithFullIsr(through: Server): Promise<number> {
  return waitFor(`a leader of ${TOPIC}-0 and ${CLUSTER_BROKERS} in-sync replicas`, async () => {
    const view = (await callJson(through, 'GET', `/topics/${TOPIC}/partitions/0`)) as {
      leader: number;
      replicas: Array<{ broker: number; in_sync: boolean }>;
    };
    const inSync = view.replicas.filter((replica) => replica.in_sync).length;
    return view.leader >= 0 && inSync === CLUSTER_BROKERS ? view.leader : null;
  });
}

interface Side {
  server: Server;
  name: string;
  path: string;
  requests: number;
  seconds: number;
  latenciesMs: number[];
  cpuMs: number;
  /** The cluster sides': the followers' CPU time and the follower fetches the leader answered, over the rounds. */
  followerCpuMs: number;
  fetches: number;
}

const REPLICA_FETCH_ROUTE = '/internal/v1/partitions/{topic}/{partition}/replica-fetch';

/** The follower fetches `leader` has answered so far (any status), from its request counter in GET /metrics. */
export async function replicaFetchesAnswered(leader: Server): Promise<number> {
  const res = await call(leader, 'GET', '/metrics');
  if (res.status !== 200) throw new Error(`GET /metrics: ${res.status}`);
  return countRouteRequests(res.body.toString('utf8'), REPLICA_FETCH_ROUTE);
}

/** The sum of brook_http_requests_total over the series of `route` in a Prometheus text exposition. */
export function countRouteRequests(exposition: string, route: string): number {
  let total = 0;
  for (const line of exposition.split('\n')) {
    if (!line.startsWith('brook_http_requests_total{') || !line.includes(`route="${route}"`)) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

function sumCpuMs(servers: readonly Server[]): number {
  let total = 0;
  for (const server of servers) total += cpuMs(server.child.pid) ?? 0;
  return total;
}

export async function runW1Cluster(seconds: number): Promise<Measurement[]> {
  const dir = await mkdtemp(join(tmpdir(), 'brook-bench-w1c-'));
  const body = produceBody();
  const servers: Server[] = [];
  let redis: RedisServerProcess | null = null;
  try {
    const baselineServer = await startBaseline('baseline', WRITE_BASELINE, join(dir, 'baseline.log'));
    servers.push(baselineServer);
    const single = await startBroker(join(dir, 'single'));
    servers.push(single);
    await createTopic(single);

    redis = await RedisServerProcess.start({ dir: join(dir, 'redis') });
    const secret = randomBytes(24).toString('base64url');
    const brokers = new Map<number, Server>();
    for (let id = 1; id <= CLUSTER_BROKERS; id++) {
      const broker = await startBroker(join(dir, `broker-${id}`), {
        BROOK_BROKER_ID: String(id),
        BROOK_HOST: '127.0.0.1',
        BROOK_REDIS_URL: redis.url,
        BROOK_CLUSTER_SECRET: secret,
      });
      broker.name = `broker ${id}`;
      servers.push(broker);
      brokers.set(id, broker);
    }
    const first = brokers.get(1)!;
    await waitFor(`${CLUSTER_BROKERS} live brokers`, async () => {
      const live = (await callJson(first, 'GET', '/brokers')).brokers as number[];
      return live.length === CLUSTER_BROKERS ? live : null;
    });
    const clusters = (await callJson(first, 'GET', '/v3/clusters')).data as Array<{ cluster_id: string }>;
    await callJson(first, 'POST', `/v3/clusters/${clusters[0].cluster_id}/topics`, {
      topic_name: TOPIC,
      partitions_count: 1,
      replication_factor: CLUSTER_BROKERS,
      configs: [{ name: 'min.insync.replicas', value: '2' }],
    });
    const leaderId = await leaderWithFullIsr(first);
    const leader = brokers.get(leaderId)!;

    const sides: Side[] = [
      { server: baselineServer, name: 'baseline: http + fs.write of the body', path: PRODUCE_PATH },
      { server: single, name: 'single broker (RF=1)', path: PRODUCE_PATH },
      { server: leader, name: 'cluster leader, RF=3, acks=all', path: `${PRODUCE_PATH}?acks=all` },
      { server: leader, name: 'cluster leader, RF=3, acks=1', path: `${PRODUCE_PATH}?acks=1` },
    ].map((side) => ({ ...side, requests: 0, seconds: 0, latenciesMs: [], cpuMs: 0, followerCpuMs: 0, fetches: 0 }));
    const followerServers = [...brokers].filter(([id]) => id !== leaderId).map(([, server]) => server);
    const [baselineSide, singleSide, allSide, oneSide] = sides;

    for (const side of sides) {
      if (side === allSide) await leaderWithFullIsr(leader);
      await produceFor(side.server, body, WARMUP_SECONDS, side.path);
    }
    for (let round = 0; round < W1_ROUNDS; round++) {
      for (const side of sides) {
        // acks=1 can leave the followers behind; acks=all starts from a whole ISR (not timed).
        if (side === allSide && (await leaderWithFullIsr(leader)) !== leaderId)
          throw new Error(`the leader of ${TOPIC}-0 moved during the benchmark`);
        const cluster = side === allSide || side === oneSide;
        const fetchesBefore = cluster ? await replicaFetchesAnswered(leader) : 0;
        const followerCpuBefore = sumCpuMs(followerServers);
        const run = await produceFor(side.server, body, seconds / W1_ROUNDS, side.path);
        if (cluster) {
          side.followerCpuMs += sumCpuMs(followerServers) - followerCpuBefore;
          side.fetches += (await replicaFetchesAnswered(leader)) - fetchesBefore;
        }
        side.requests += run.requests;
        side.seconds += run.seconds;
        side.cpuMs += run.cpuMs;
        for (const latency of run.latenciesMs) side.latenciesMs.push(latency);
      }
    }
    const row = (side: Side): Measurement => {
      const records = side.requests * RECORDS_PER_REQUEST;
      return {
        name: side.name,
        records,
        bytes: records * RECORD_BYTES,
        seconds: side.seconds,
        latenciesMs: side.latenciesMs,
        rssBytes: rssBytes(side.server.child.pid),
        // the leader's own CPU only: the followers' fetching is not in it
        cpuMsPerRequest: side.cpuMs > 0 ? side.cpuMs / side.requests : undefined,
      };
    };
    const [baseline, singleRow, allRow, oneRow] = [baselineSide, singleSide, allSide, oneSide].map(row);
    const followers = [...brokers]
      .filter(([id]) => id !== leaderId)
      .map(([id, server]) => `broker ${id} ${((rssBytes(server.child.pid) ?? 0) / 1e6).toFixed(0)} MB`);

    console.log(
      `${RECORD_BYTES}-byte records, ${RECORDS_PER_REQUEST} per request (${(body.length / 1024).toFixed(0)} KiB body), ` +
        `${CONNECTIONS} connections, ${seconds} s each in ${W1_ROUNDS} alternating rounds after ${WARMUP_SECONDS} s warm-up; ` +
        `cluster: redis-server + ${CLUSTER_BROKERS} brokers, topic RF=${CLUSTER_BROKERS}, min.insync.replicas=2, ` +
        `leader broker ${leaderId}; MB/s of record payload; rss at the end; cpu: the server's (the leader's) CPU time per request`,
    );
    console.log(formatMeasurement(baseline));
    for (const measurement of [singleRow, allRow, oneRow]) console.log(formatMeasurement(measurement, baseline));
    const rate = (m: Measurement) => m.records / m.seconds;
    for (const side of [allSide, oneSide]) {
      console.log(
        `${side.name}: followers' cpu ${(side.followerCpuMs / side.requests).toFixed(2)} ms/req (both), ` +
          `follower fetches ${(side.fetches / side.requests).toFixed(2)} a request`,
      );
    }
    console.log(
      `ratios to the single broker: acks=all ${(rate(allRow) / rate(singleRow)).toFixed(2)}, ` +
        `acks=1 ${(rate(oneRow) / rate(singleRow)).toFixed(2)}; follower rss: ${followers.join(', ')}`,
    );
    return [baseline, singleRow, allRow, oneRow];
  } finally {
    // Brokers first (a clean shutdown talks to Redis), then Redis.
    for (const server of servers.reverse()) await stop(server);
    await redis?.stop('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}
