// `npm run cluster`'s engine: startLocalCluster starts redis-server and brokers that form one cluster, and stops
// them all; started again on the same directory, the cluster keeps its topics (Redis AOF and the brokers' data).
// `brook cluster` runs the same in the foreground.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalCluster } from '../../src/local-cluster/local-cluster.js';
import { freePorts } from './support/broker-process.js';
import { call } from './support/http.js';

const BROOK = fileURLToPath(new URL('../../dist/cli/brook.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'brook-local-cluster-'));

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether nothing listens on `port` now (another test's broker may hold a port freePorts did not pick). */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A first HTTP port, a first Kafka port and a first schema registry port whose ranges for two brokers (the
 * registry's counting down) meet neither each other nor a port in between, and whose second ports are free too.
 */
async function clusterPorts(): Promise<[number, number, number]> {
  for (;;) {
    const [port, kafkaPort, registryPort] = await freePorts(3);
    const ranges = [
      [port, port + 1],
      [kafkaPort, kafkaPort + 1],
      [registryPort - 1, registryPort],
    ];
    const apart = ranges.every(([low, high], i) =>
      ranges.every(([otherLow, otherHigh], j) => i === j || high + 1 < otherLow || otherHigh + 1 < low),
    );
    if (!apart) continue;
    const seconds = await Promise.all([port + 1, kafkaPort + 1, registryPort - 1].map(bindable));
    if (seconds.every(Boolean)) return [port, kafkaPort, registryPort];
  }
}

/**
 * Another test file's broker can still take one of the ports between the probe and the cluster's start (the suite
 * runs files in parallel); such a start is tried again on new ports, as BrokerProcess.start does.
 */
const START_ATTEMPTS_ON_PORT_CLASH = 3;

describe('startLocalCluster', () => {
  it('starts Redis and two brokers as one cluster, stops them, and comes back with its topics', async () => {
    let ports = await clusterPorts();
    let first: Awaited<ReturnType<typeof startLocalCluster>> | undefined;
    for (let attempt = 1; first === undefined; attempt++) {
      try {
        first = await startLocalCluster({
          brokers: 2,
          port: ports[0],
          kafkaPort: ports[1],
          registryPort: ports[2],
          dir,
        });
      } catch (error) {
        if (attempt >= START_ATTEMPTS_ON_PORT_CLASH || !String(error).includes('EADDRINUSE')) throw error;
        ports = await clusterPorts();
      }
    }
    const [port, kafkaPort, registryPort] = ports;
    let clusterId: string;
    try {
      expect(first.brokers.map((broker) => broker.url)).toEqual([
        `http://127.0.0.1:${port}`,
        `http://127.0.0.1:${port + 1}`,
      ]);
      expect(first.brokers.map((broker) => broker.registryUrl)).toEqual([
        `http://127.0.0.1:${registryPort}`,
        `http://127.0.0.1:${registryPort - 1}`,
      ]);
      for (const broker of first.brokers) expect((await call(broker.registryUrl, 'GET', '/subjects')).body).toEqual([]);
      expect(first.secret.length).toBeGreaterThanOrEqual(16);
      const clusters = await call(first.brokers[1].url, 'GET', '/v3/clusters');
      clusterId = clusters.body.data[0].cluster_id;
      expect((await call(first.brokers[0].url, 'GET', '/brokers')).body.brokers).toEqual([1, 2]);
      const created = await call(first.brokers[1].url, 'POST', `/v3/clusters/${clusterId}/topics`, {
        body: { topic_name: 'kept', partitions_count: 2, replication_factor: 1 },
      });
      expect(created.status, created.text).toBe(201);
    } finally {
      await first.stop();
    }
    for (const broker of first.brokers) expect(alive(broker.pid)).toBe(false);

    const second = await startLocalCluster({ brokers: 2, port, kafkaPort, registryPort, dir });
    try {
      const clusters = await call(second.brokers[0].url, 'GET', '/v3/clusters');
      expect(clusters.body.data[0].cluster_id).toBe(clusterId);
      expect((await call(second.brokers[0].url, 'GET', '/topics/kept')).status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});

interface ForegroundCluster {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Everything the command printed so far. */
  output(): string;
}

/** `brook cluster` in the foreground on these ports, once it said it is up or exited, or after 60 s. */
async function runCluster(ports: [number, number, number], clusterDir: string): Promise<ForegroundCluster> {
  const [port, kafkaPort, registryPort] = ports;
  const child = spawn(
    process.execPath,
    [
      BROOK,
      'cluster',
      '--brokers',
      '2',
      '--port',
      String(port),
      '--kafka-port',
      String(kafkaPort),
      '--registry-port',
      String(registryPort),
      '--dir',
      clusterDir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  while (!output.includes('Ctrl-C stops the cluster.') && Date.now() < deadline && child.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, exited, output: () => output };
}

describe('brook cluster', () => {
  it('runs the local cluster in the foreground, prints the brokers, and stops everything on Ctrl-C', async () => {
    const clusterDir = mkdtempSync(join(tmpdir(), 'brook-cli-cluster-'));
    let ports = await clusterPorts();
    let cluster = await runCluster(ports, clusterDir);
    try {
      for (let attempt = 1; attempt < START_ATTEMPTS_ON_PORT_CLASH; attempt++) {
        if (cluster.child.exitCode === null || !cluster.output().includes('EADDRINUSE')) break;
        ports = await clusterPorts();
        cluster = await runCluster(ports, clusterDir);
      }
      const [port] = ports;
      const output = cluster.output();
      expect(output).toContain(`broker 1: http://127.0.0.1:${port}`);
      expect(output).toContain(`broker 2: http://127.0.0.1:${port + 1}`);
      expect((await call(`http://127.0.0.1:${port + 1}`, 'GET', '/brokers')).body.brokers).toEqual([1, 2]);
      cluster.child.kill('SIGINT');
      expect(await cluster.exited).toBe(0);
      await expect(call(`http://127.0.0.1:${port}`, 'GET', '/healthz')).rejects.toThrow();
    } finally {
      if (cluster.child.exitCode === null) cluster.child.kill('SIGKILL');
      rmSync(clusterDir, { recursive: true, force: true });
    }
  });
});
