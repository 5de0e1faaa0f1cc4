// `brook start` runs a broker with main.ts's flags, and stops it cleanly (exit 0) on SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePorts } from './support/broker-process.js';
import { BROOK_CLI, brook } from './support/brook-cli.js';
import { call } from './support/http.js';

describe('brook start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'brook-cli-start-'));

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves the API on the given port and data dir until SIGTERM', async () => {
    const [port, kafkaPort] = await freePorts(2);
    const child = spawn(
      process.execPath,
      [
        ...[BROOK_CLI, 'start', '--port', String(port), '--kafka-port', String(kafkaPort), '--host', '127.0.0.1'],
        ...['--data-dir', dataDir, '--log-level', 'warn'],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const deadline = Date.now() + 30_000;
    let healthy = false;
    while (!healthy && Date.now() < deadline && child.exitCode === null) {
      healthy = await call(`http://127.0.0.1:${port}`, 'GET', '/healthz').then(
        (response) => response.status === 200,
        () => false,
      );
      if (!healthy) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(healthy, output).toBe(true);
    const created = await brook([
      'topics',
      '--create',
      '--topic',
      'started',
      '--bootstrap-server',
      `127.0.0.1:${port}`,
    ]);
    expect(created.code).toBe(0);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('passes a bad setting through and exits with the broker code', async () => {
    const result = await brook(['start', '--port', 'not-a-port', '--data-dir', dataDir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/port/i);
  });
});
