// `brook start`: runs a broker in the foreground, exactly as `node dist/main.js` (the same flags, each also an
// environment variable: `--port 8083` is BROOK_PORT=8083). The broker runs as a child process so that its own
// start-up and shutdown handling stay the one in main.ts; Ctrl-C stops it cleanly and its exit code is brook's.
import type { Command } from 'commander';
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { CliIo } from '../command-context.js';
import { withExamples } from '../command-context.js';
import { CliError } from '../errors.js';

const MAIN = fileURLToPath(new URL('../../main.js', import.meta.url));

export function registerStartCommand(program: Command, io: CliIo): void {
  const command = program
    .command('start')
    .description('run a broker in the foreground (flags as environment variables: --port 8083 is BROOK_PORT)')
    .helpOption('--help', 'show this help')
    .allowUnknownOption()
    .allowExcessArguments()
    .addHelpText(
      'after',
      `
Every broker setting is a flag or an environment variable: --port (BROOK_PORT, 8082), --kafka-port
(BROOK_KAFKA_PORT, 9092: the Kafka protocol listener), --host (BROOK_HOST), --data-dir (BROOK_DATA_DIR, ./data),
--broker-id (BROOK_BROKER_ID), --log-level (BROOK_LOG_LEVEL), and Kafka's broker settings by name
(--log-retention-check-interval-ms is BROOK_LOG_RETENTION_CHECK_INTERVAL_MS). See the README's Configuration
table.`,
    );
  withExamples(command, [
    'brook start',
    'brook start --port 8083 --kafka-port 9093 --data-dir /tmp/brook',
    'BROOK_LOG_LEVEL=debug brook start --log-retention-check-interval-ms 1000',
  ]);
  command.action(async (_options: unknown, self: Command) => {
    const code = await runInForeground(MAIN, self.args, io);
    if (code !== 0) throw new CliError(`the broker exited with code ${code}`, code);
  });
}

/** Runs a script of this build as a child process with the terminal; Ctrl-C stops it; resolves its exit code. */
export function runInForeground(script: string, args: readonly string[], io: CliIo): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: 'inherit' });
    const stop = (): void => {
      child.kill('SIGTERM');
    };
    io.signal.addEventListener('abort', stop, { once: true });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      io.signal.removeEventListener('abort', stop);
      resolve(code ?? 128 + (signal === null ? 0 : constants.signals[signal]));
    });
  });
}
