// What every command shares: the `--bootstrap-server` and `--output` flags, the process streams and the
// Ctrl-C signal, and the two output modes (tables for people, `--output json` for scripts).
import { Option, type Command } from 'commander';
import type { Readable, Writable } from 'node:stream';
import { BOOTSTRAP_SERVER_ENV, DEFAULT_BOOTSTRAP_SERVER, parseBootstrapServers } from './bootstrap.js';
import { connect, type Connection } from './client.js';
import { UsageError } from './errors.js';

export interface CliIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean };
  /** Aborted on the first Ctrl-C (SIGINT) or SIGTERM. */
  signal: AbortSignal;
}

export type OutputFormat = 'table' | 'json';

export interface CommonOptions {
  bootstrapServer: string;
  output: OutputFormat;
  zookeeper?: string;
}

export function addCommonOptions(command: Command, { output = true } = {}): Command {
  command.addOption(
    new Option('--bootstrap-server <servers>', 'broker URL or host:port (a comma-separated list is tried in order)')
      .env(BOOTSTRAP_SERVER_ENV)
      .default(DEFAULT_BOOTSTRAP_SERVER),
  );
  if (output) {
    command.addOption(
      new Option('--output <format>', 'table for people, json for scripts').choices(['table', 'json']).default('table'),
    );
  }
  command.addOption(new Option('--zookeeper <hosts>', 'not supported (Brook has no ZooKeeper)').hideHelp());
  return command;
}

/** Connects; requests are aborted by `signal` (usually the Ctrl-C signal; none for commands that finish their work). */
export async function connectFrom(options: CommonOptions, signal: AbortSignal | undefined): Promise<Connection> {
  if (options.zookeeper !== undefined) {
    throw new UsageError('--zookeeper is not supported: Brook has no ZooKeeper; use --bootstrap-server <url>');
  }
  return connect(parseBootstrapServers(options.bootstrapServer), signal);
}

export function writeJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Adds the "Examples:" block shown by `--help`. */
export function withExamples(command: Command, examples: readonly string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${examples.map((line) => `  ${line}`).join('\n')}\n`);
}
