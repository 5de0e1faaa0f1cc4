// Runs Debian's kcat (librdkafka) against a loopback broker, with a bound on how long it may take.
import { spawn, spawnSync } from 'node:child_process';

const KCAT_TIMEOUT_MS = 60_000;

export const kcatAvailable = spawnSync('kcat', ['-V'], { encoding: 'utf8' }).status === 0;

export interface KcatResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs kcat with `args`, writing `input` to its standard input and then closing it. */
export function kcat(args: string[], input = ''): Promise<KcatResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('kcat', ['-X', 'broker.address.family=v4', '-X', 'message.timeout.ms=20000', ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kcat ${args.join(' ')} took more than ${KCAT_TIMEOUT_MS} ms: ${stderr}`));
    }, KCAT_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}
