// What every command shares: the `--bootstrap-server` and `--output` flags, the process streams and the
// Ctrl-C signal, and the three output modes: what the Kafka tool prints (the default, so that scripts written for
// Kafka's tools parse Brook's output; kafka-output.ts), tables (`--output table`) and JSON (`--output json`).
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

export type OutputFormat = 'kafka' | 'table' | 'json';

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
      new Option('--output <format>', 'kafka (what the Kafka tool prints), table, or json')
        .choices(['kafka', 'table', 'json'])
        .default('kafka'),
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
