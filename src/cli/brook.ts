#!/usr/bin/env node
// `brook`: Kafka's command-line tools for Brook, with the same flag spellings (DESIGN.md section 5); see cli.ts.
// This entry wires the process: Ctrl-C aborts the running command (a second one exits at once), a closed stdout
// pipe (`brook ... | head`) ends quietly, and the exit code is the command's.
import type { CliIo } from './command-context.js';
import { run } from './cli.js';
import { EXIT } from './errors.js';

async function main(): Promise<void> {
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (controller.signal.aborted) process.exit(EXIT.interrupted);
      controller.abort();
    });
  }
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT.ok);
    throw error;
  });
  const io: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, signal: controller.signal };
  const code = await run(process.argv.slice(2), io);
  process.exit(code);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(EXIT.internal);
});
