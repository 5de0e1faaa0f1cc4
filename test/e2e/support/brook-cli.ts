// Runs the BUILT `brook` CLI (dist/cli/brook.js) as a subprocess, as a user would, and collects its exit code,
// stdout and stderr. BROOK_URL is removed from the environment unless a test sets it, so that each call names
// its broker.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BROOK_CLI = fileURLToPath(new URL('../../../dist/cli/brook.js', import.meta.url));

/** Broker settings for CLI tests: new groups assign at once instead of waiting 3 s for more members (the tests'
 * console consumers are alone). */
export const FAST_GROUPS = { BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '0' };

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  input?: string;
  timeoutMs?: number;
  /** Extra environment, such as BROOK_URL. */
  env?: Record<string, string>;
}

export function brook(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const env = { ...process.env };
  delete env.BROOK_URL;
  Object.assign(env, options.env);
  const child = spawn(process.execPath, [BROOK_CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.input ?? '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`brook ${args.join(' ')} did not exit within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
