// Spawns a real broker from dist/ on free HTTP, Kafka and schema registry ports and a temp data dir, for
// end-to-end tests: wait until /healthz
// answers, kill it (SIGKILL for kill -9, SIGTERM for a clean stop) and restart it on the same data dir, or pause
// it (SIGSTOP / SIGCONT). `env` adds or overrides settings (BROOK_REDIS_URL, BROOK_BROKER_ID...).
import { spawn, type ChildProcess } from 'node:child_process';
import { get as httpsGet } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { call } from './http.js';

const MAIN = fileURLToPath(new URL('../../../dist/main.js', import.meta.url));

/** How many times BrokerProcess.start tries other ports when one it found free was taken meanwhile. */
const START_ATTEMPTS_ON_PORT_CLASH = 3;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** `count` distinct free ports (each probe holds its port until all are found, so none is picked twice). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Server>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => {
    const address = server.address();
    return typeof address === 'object' && address !== null ? address.port : 0;
  });
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export interface BrokerOptions {
  env?: Record<string, string>;
  logLevel?: string;
  /** The broker serves HTTPS (BROOK_TLS_* in env): its URL is https:// and health checks trust this CA. */
  https?: { ca: string | Buffer; cert?: string | Buffer; key?: string | Buffer };
}

export class BrokerProcess {
  child: ChildProcess | null = null;
  stdout = '';
  stderr = '';
  private exitPromise: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | null = null;

  private constructor(
    readonly port: number,
    /** The broker's Kafka listener (BROOK_KAFKA_PORT): every test broker has its own, never 9092. */
    readonly kafkaPort: number,
    /** The schema registry's own listener (BROOK_SCHEMA_REGISTRY_PORT). */
    readonly registryPort: number,
    readonly dataDir: string,
    private readonly options: BrokerOptions,
  ) {}

  /**
   * Starts a broker on free ports. A port found free may be taken by another process before the broker binds it
   * (any port probe races); a start-up that fails with EADDRINUSE is tried again on other ports, a few times.
   */
  static async start(options: BrokerOptions = {}): Promise<BrokerProcess> {
    for (let attempt = 1; ; attempt++) {
      const [port, kafkaPort, registryPort] = await freePorts(3);
      const dataDir = mkdtempSync(join(tmpdir(), 'brook-e2e-'));
      const broker = new BrokerProcess(port, kafkaPort, registryPort, dataDir, options);
      try {
        await broker.spawn();
        return broker;
      } catch (error) {
        if (attempt >= START_ATTEMPTS_ON_PORT_CLASH || !String(error).includes('EADDRINUSE')) throw error;
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }

  get url(): string {
    return `${this.options.https ? 'https' : 'http'}://127.0.0.1:${this.port}`;
  }

  /** The Kafka bootstrap address, host:port. */
  get kafkaBootstrap(): string {
    return `127.0.0.1:${this.kafkaPort}`;
  }

  /** The schema registry's own listener. */
  get registryUrl(): string {
    return `${this.options.https ? 'https' : 'http'}://127.0.0.1:${this.registryPort}`;
  }

  private async spawn(extraEnv: Record<string, string> = {}): Promise<void> {
    this.stdout = '';
    this.stderr = '';
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        BROOK_PORT: String(this.port),
        BROOK_KAFKA_PORT: String(this.kafkaPort),
        BROOK_SCHEMA_REGISTRY_PORT: String(this.registryPort),
        BROOK_HOST: '127.0.0.1',
        BROOK_DATA_DIR: this.dataDir,
        BROOK_LOG_LEVEL: this.options.logLevel ?? 'warn',
        ...this.options.env,
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exitPromise = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    await this.waitHealthy();
  }

  private async waitHealthy(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child?.exitCode !== null)
        throw new Error(`broker exited during start-up:\n${this.stdout}\n${this.stderr}`);
      try {
        if (this.options.https ? await this.httpsHealthy() : (await call(this.url, 'GET', '/healthz')).status === 200)
          return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`broker did not become healthy in ${timeoutMs} ms:\n${this.stdout}\n${this.stderr}`);
  }

  private httpsHealthy(): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const request = httpsGet(`${this.url}/healthz`, { ...this.options.https }, (response) => {
        response.resume();
        resolve(response.statusCode === 200);
      });
      request.on('error', reject);
    });
  }

  /** Sends the signal and waits for the process to exit; resolves with its exit code and signal. */
  async kill(
    signal: NodeJS.Signals = 'SIGKILL',
    timeoutMs = 10_000,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const child = this.child;
    if (child === null || this.exitPromise === null) return { code: null, signal: null };
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error(`broker did not exit within ${timeoutMs} ms after ${signal}`)),
        timeoutMs,
      ).unref(),
    );
    try {
      return await Promise.race([this.exitPromise, timer]);
    } finally {
      this.child = null;
    }
  }

  /** Waits for the broker to exit by itself; fails after `timeoutMs`. */
  async exited(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.exitPromise === null) throw new Error('the broker was never started');
    const timer = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`broker still running after ${timeoutMs} ms`)), timeoutMs).unref(),
    );
    const exit = await Promise.race([this.exitPromise, timer]);
    this.child = null;
    return exit;
  }

  /** Sends a signal without waiting for an exit: SIGSTOP and SIGCONT pause and resume the broker. */
  signal(signal: NodeJS.Signals): void {
    this.child?.kill(signal);
  }

  /** Restarts on the same data dir; `extraEnv` applies to this run only. */
  async restart(signal: NodeJS.Signals = 'SIGKILL', extraEnv: Record<string, string> = {}): Promise<void> {
    await this.kill(signal);
    await this.spawn(extraEnv);
  }

  /** Kills the broker (if running) and removes its data dir. */
  async stop(): Promise<void> {
    if (this.child !== null) {
      await this.kill('SIGKILL').catch(() => undefined);
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  async clusterId(): Promise<string> {
    const response = await call<{ data: Array<{ cluster_id: string }> }>(this.url, 'GET', '/v3/clusters');
    return response.body.data[0].cluster_id;
  }
}

/** A broker started before a suite's tests and removed after them; its fields are read inside the tests. */
export interface SuiteBroker {
  readonly broker: BrokerProcess;
  readonly url: string;
  readonly clusterId: string;
}

export function brokerForSuite(options: BrokerOptions = {}): SuiteBroker {
  const suite = { broker: null as unknown as BrokerProcess, url: '', clusterId: '' };
  beforeAll(async () => {
    suite.broker = await BrokerProcess.start(options);
    suite.url = suite.broker.url;
    suite.clusterId = await suite.broker.clusterId();
  });
  afterAll(async () => {
    await suite.broker?.stop();
  });
  return suite;
}
