// A local cluster on one machine, for trying Brook out and for demos: one redis-server (AOF on, in the cluster's
// directory) and N brokers (`node dist/main.js`) with ids 1..N on consecutive HTTP ports and consecutive Kafka
// ports, sharing a freshly generated cluster secret; each broker's schema registry listener on its own port,
// counted down from the first broker's (8081 by default: 8081, 8080, 8079..., so that they never meet the HTTP
// ports counted up from 8082, and a client configured with Confluent's default registry URL reaches broker 1).
// `npm run cluster` runs it (main.ts); the `brook cluster --brokers 3` command can call
// startLocalCluster the same way.
//
// Layout of the cluster directory (default ./data-cluster): redis/ (Redis's AOF), broker-<id>/ (each data dir).
// Started again on the same directory, the cluster comes back with its topics.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RedisServerProcess } from './redis-server-process.js';

export const LOCAL_CLUSTER_BROKERS_DEFAULT = 3;
export const LOCAL_CLUSTER_BROKERS_MAX = 9;
export const LOCAL_CLUSTER_PORT_DEFAULT = 8082;
export const LOCAL_CLUSTER_KAFKA_PORT_DEFAULT = 9092;
export const LOCAL_CLUSTER_REGISTRY_PORT_DEFAULT = 8081;
/** How long a broker may take to answer /readyz. */
const BROKER_READY_TIMEOUT_MS = 30_000;
const BROKER_STOP_TIMEOUT_MS = 15_000;
/** dist/main.js, found the same way from dist/local-cluster/ and (in tests) from src/local-cluster/. */
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
/** Output lines of a broker kept to explain a failed start. */
const OUTPUT_LINES_KEPT = 20;

export interface LocalClusterOptions {
  brokers?: number;
  /** The first broker's port; the others follow. */
  port?: number;
  /** The first broker's Kafka listener port; the others follow. */
  kafkaPort?: number;
  /** The first broker's schema registry port; the others count down from it. */
  registryPort?: number;
  dir?: string;
  /** Extra environment for every broker (BROOK_LOG_LEVEL...). */
  env?: Record<string, string>;
  /** Where the brokers' output goes; default: discarded. */
  onOutput?: (brokerId: number, line: string) => void;
}

export interface LocalBroker {
  id: number;
  url: string;
  /** The broker's Kafka bootstrap address, host:port. */
  kafka: string;
  registryUrl: string;
  dataDir: string;
  pid: number | undefined;
}

export interface LocalCluster {
  redisUrl: string;
  secret: string;
  dir: string;
  brokers: LocalBroker[];
  /** Stops the brokers (SIGTERM, clean shutdown) and then Redis. */
  stop(): Promise<void>;
}

export async function startLocalCluster(options: LocalClusterOptions = {}): Promise<LocalCluster> {
  const count = options.brokers ?? LOCAL_CLUSTER_BROKERS_DEFAULT;
  if (!Number.isInteger(count) || count < 1 || count > LOCAL_CLUSTER_BROKERS_MAX) {
    throw new Error(`--brokers must be an integer from 1 to ${LOCAL_CLUSTER_BROKERS_MAX}, got ${count}`);
  }
  const firstPort = options.port ?? LOCAL_CLUSTER_PORT_DEFAULT;
  const firstKafkaPort = options.kafkaPort ?? LOCAL_CLUSTER_KAFKA_PORT_DEFAULT;
  const firstRegistryPort = options.registryPort ?? LOCAL_CLUSTER_REGISTRY_PORT_DEFAULT;
  assertDisjoint([
    { name: 'HTTP', flag: '--port', low: firstPort, high: firstPort + count - 1 },
    { name: 'Kafka', flag: '--kafka-port', low: firstKafkaPort, high: firstKafkaPort + count - 1 },
    { name: 'schema registry', flag: '--registry-port', low: firstRegistryPort - count + 1, high: firstRegistryPort },
  ]);
  const dir = resolve(options.dir ?? './data-cluster');
  const redis = await RedisServerProcess.start({ appendonly: true, dir: join(dir, 'redis') });
  const secret = randomBytes(24).toString('base64url');
  const children: ChildProcess[] = [];
  const brokers: LocalBroker[] = [];
  const stop = async () => {
    await Promise.all(children.map((child) => stopChild(child)));
    await redis.stop('SIGTERM');
  };
  try {
    for (let id = 1; id <= count; id++) {
      const port = firstPort + id - 1;
      const kafkaPort = firstKafkaPort + id - 1;
      const registryPort = firstRegistryPort - (id - 1);
      const dataDir = join(dir, `broker-${id}`);
      mkdirSync(dataDir, { recursive: true });
      const child = spawn(process.execPath, [MAIN], {
        env: {
          ...process.env,
          BROOK_BROKER_ID: String(id),
          BROOK_PORT: String(port),
          BROOK_KAFKA_PORT: String(kafkaPort),
          BROOK_SCHEMA_REGISTRY_PORT: String(registryPort),
          BROOK_HOST: '127.0.0.1',
          BROOK_DATA_DIR: dataDir,
          BROOK_REDIS_URL: redis.url,
          BROOK_CLUSTER_SECRET: secret,
          ...options.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      const recent: string[] = [];
      const report = (chunk: Buffer) => {
        for (const line of chunk.toString().split('\n')) {
          if (!line.trim()) continue;
          recent.push(line);
          if (recent.length > OUTPUT_LINES_KEPT) recent.shift();
          options.onOutput?.(id, line);
        }
      };
      child.stdout?.on('data', report);
      child.stderr?.on('data', report);
      const url = `http://127.0.0.1:${port}`;
      await waitReady(child, url, id).catch((error: Error) => {
        throw new Error(`${error.message}:\n${recent.join('\n')}`);
      });
      brokers.push({
        id,
        url,
        kafka: `127.0.0.1:${kafkaPort}`,
        registryUrl: `http://127.0.0.1:${registryPort}`,
        dataDir,
        pid: child.pid,
      });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { redisUrl: redis.url, secret, dir, brokers, stop };
}

async function waitReady(child: ChildProcess, url: string, id: number): Promise<void> {
  const deadline = performance.now() + BROKER_READY_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`broker ${id} exited during start-up (code ${child.exitCode})`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`broker ${id} was not ready at ${url} within ${BROKER_READY_TIMEOUT_MS} ms`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), BROKER_STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

interface PortRange {
  name: string;
  flag: string;
  low: number;
  high: number;
}

/** Refuses port ranges (HTTP, Kafka, schema registry) that overlap, naming the flags to change. */
function assertDisjoint(ranges: readonly PortRange[]): void {
  for (const [i, a] of ranges.entries()) {
    for (const b of ranges.slice(i + 1)) {
      if (a.low <= b.high && b.low <= a.high) {
        throw new Error(
          `the ${a.name} ports ${a.low}-${a.high} and the ${b.name} ports ${b.low}-${b.high} overlap: ` +
            `choose another ${a.flag} or ${b.flag}`,
        );
      }
    }
  }
}
