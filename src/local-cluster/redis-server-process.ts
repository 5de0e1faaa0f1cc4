// A real `redis-server` child process on a free port in its own directory: for the Redis adapter's tests, the
// cluster end-to-end tests and `npm run cluster`. No persistence unless asked (`appendonly: true` turns AOF on,
// as production should run). stop() kills it and removes its directory; restart() starts it again on the same
// port and directory (empty again without AOF: what a Redis that lost its data looks like to the brokers).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How long redis-server may take to accept connections. */
const REDIS_START_TIMEOUT_MS = 10_000;
const REDIS_STOP_TIMEOUT_MS = 10_000;
const REDIS_POLL_INTERVAL_MS = 20;

export interface RedisServerOptions {
  /** AOF with `appendfsync everysec`, as production should run. Default false: no persistence at all. */
  appendonly?: boolean;
  /** Default: a free port. */
  port?: number;
  /** The redis-server binary; default `redis-server` from PATH. */
  binary?: string;
  /** Where Redis keeps its files (kept by stop()); default: a new temporary directory (removed by stop()). */
  dir?: string;
  /** Start as a replica of the Redis on this local port. */
  replicaOfPort?: number;
  /** Start as a Sentinel (`redis-server --sentinel`) watching the master on this local port, quorum 1. */
  sentinel?: { masterName: string; masterPort: number; downAfterMs: number };
}

export class RedisServerProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> | null = null;
  private output = '';

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly options: RedisServerOptions,
  ) {}

  static async start(options: RedisServerOptions = {}): Promise<RedisServerProcess> {
    const port = options.port ?? (await freeTcpPort());
    const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'brook-redis-'));
    mkdirSync(dir, { recursive: true });
    const server = new RedisServerProcess(port, dir, options);
    await server.spawn();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  private async spawn(): Promise<void> {
    const args = this.options.sentinel ? this.sentinelArgs(this.options.sentinel) : this.serverArgs();
    this.output = '';
    const child = spawn(this.options.binary ?? 'redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-8192)));
    child.stderr?.on('data', (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-8192)));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.once('error', (error) => (this.output += `\n${error.message}`));
    await this.waitAccepting();
  }

  private serverArgs(): string[] {
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      this.dir,
      '--save',
      '',
      '--appendonly',
      this.options.appendonly ? 'yes' : 'no',
      '--daemonize',
      'no',
      '--protected-mode',
      'no',
    ];
    if (this.options.replicaOfPort !== undefined)
      args.push('--replicaof', '127.0.0.1', String(this.options.replicaOfPort));
    return args;
  }

  /** Sentinel rewrites its configuration file, so it gets one of its own in its directory. */
  private sentinelArgs(sentinel: NonNullable<RedisServerOptions['sentinel']>): string[] {
    const file = join(this.dir, 'sentinel.conf');
    writeFileSync(
      file,
      [
        `port ${this.port}`,
        'bind 127.0.0.1',
        `dir ${this.dir}`,
        `sentinel monitor ${sentinel.masterName} 127.0.0.1 ${sentinel.masterPort} 1`,
        `sentinel down-after-milliseconds ${sentinel.masterName} ${sentinel.downAfterMs}`,
        `sentinel failover-timeout ${sentinel.masterName} ${sentinel.downAfterMs * 4}`,
        '',
      ].join('\n'),
    );
    return [file, '--sentinel'];
  }

  private async waitAccepting(): Promise<void> {
    const deadline = performance.now() + REDIS_START_TIMEOUT_MS;
    while (performance.now() < deadline) {
      if (this.child === null || this.child.exitCode !== null || this.child.signalCode !== null) break;
      if (await answersPing(this.port)) return;
      await sleep(REDIS_POLL_INTERVAL_MS);
    }
    const output = this.output;
    await this.kill('SIGKILL');
    throw new Error(`redis-server on port ${this.port} did not start:\n${output}`);
  }

  /** Sends a signal; for SIGKILL and SIGTERM waits until the process has exited (SIGSTOP/SIGCONT pause it). */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (child === null || this.exited === null) return;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    if (signal !== 'SIGKILL' && signal !== 'SIGTERM') return;
    const timeout = sleep(REDIS_STOP_TIMEOUT_MS).then(() => {
      throw new Error(`redis-server did not exit within ${REDIS_STOP_TIMEOUT_MS} ms after ${signal}`);
    });
    await Promise.race([this.exited, timeout]);
    this.child = null;
  }

  /** Kills and starts again on the same port and directory. */
  async restart(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    await this.kill(signal);
    await this.spawn();
  }

  /** Kills the server; removes its directory unless the caller chose it (options.dir). */
  async stop(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    await this.kill(signal);
    if (this.options.dir === undefined) rmSync(this.dir, { recursive: true, force: true });
  }
}

export function freeTcpPort(): Promise<number> {
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

/** True when something on the port answers PING with PONG. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let received = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      if (received.includes('\r\n')) done(received.startsWith('+PONG'));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
