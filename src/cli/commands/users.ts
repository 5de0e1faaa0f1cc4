// `brook users`: edits the users file of BROOK_AUTH_USERS_FILE on this machine (no broker involved; brokers re-read
// the file within seconds of a change). Secrets are written only hashed (src/config/users-file.ts has the
// format): `add` stores a password (from stdin with --password-stdin, else asked twice on the terminal without
// echo), `add-key` creates an API key and prints it once, `remove` deletes a user (with its API keys) or one key,
// `list` prints the users and key ids, never a hash.
import type { Command } from 'commander';
import {
  addApiKey,
  addUser,
  parseUsersFile,
  removeEntry,
  UsersFileError,
  type UsersFileEntry,
} from '../../config/users-file.js';
import type { CliIo } from '../command-context.js';
import { withExamples, writeJson } from '../command-context.js';
import { CliError, EXIT, InterruptedError, UsageError } from '../errors.js';
import { formatTable } from '../table.js';
import { existsSync, readFileSync } from 'node:fs';

const USERS_FILE_ENV = 'BROOK_AUTH_USERS_FILE';
/** A password longer than this is certainly a mistake (a file piped in instead of a line). */
const PASSWORD_CHARS_MAX = 1024;

interface FileOptions {
  usersFile?: string;
}

export function registerUsersCommand(program: Command, io: CliIo): void {
  const users = program
    .command('users')
    .description('manage the users file (BROOK_AUTH_USERS_FILE): passwords and API keys, stored hashed')
    .helpOption('--help', 'show this help');
  withExamples(users, [
    'echo "$PASSWORD" | brook users add --users-file /etc/brook/users --user alice --password-stdin',
    'brook users add-key --users-file /etc/brook/users --key-id ci-deploy --user alice',
    'brook users remove --users-file /etc/brook/users --user alice',
    'brook users list --users-file /etc/brook/users',
  ]);
  const fileOption = (command: Command) =>
    command.option('--users-file <path>', `the users file (default: $${USERS_FILE_ENV})`);

  fileOption(
    users
      .command('add')
      .description('add a user, or change its password (its scrypt hash and SCRAM-SHA-256/512 credentials)'),
  )
    .requiredOption('--user <name>', 'the user (authenticates as User:<name>)')
    .option('--password-stdin', 'read the password from the first line of stdin')
    .action(async (options: FileOptions & { user: string; passwordStdin?: boolean }) => {
      const path = usersFileOf(options);
      const password = options.passwordStdin ? await firstLine(io) : await promptNewPassword(io);
      await edit(() => addUser(path, options.user, password));
      io.stdout.write(`user ${options.user} written to ${path}\n`);
    });

  fileOption(users.command('add-key').description('create an API key for a user and print it (shown only once)'))
    .requiredOption('--key-id <id>', 'the key id, part of the key and of the file (no underscore)')
    .requiredOption('--user <name>', 'the user the key authenticates as')
    .action(async (options: FileOptions & { keyId: string; user: string }) => {
      const path = usersFileOf(options);
      const apiKey = await edit(() => addApiKey(path, options.keyId, options.user));
      io.stdout.write(`${apiKey}\n`);
      io.stderr.write(`API key ${options.keyId} of ${options.user} written to ${path}; the key is not shown again\n`);
    });

  fileOption(users.command('remove').description('remove a user (with its API keys) or one API key'))
    .option('--user <name>', 'the user to remove')
    .option('--key-id <id>', 'the API key to remove')
    .action(async (options: FileOptions & { user?: string; keyId?: string }) => {
      const path = usersFileOf(options);
      const target = options.user ?? options.keyId;
      if (target === undefined || (options.user !== undefined && options.keyId !== undefined)) {
        throw new UsageError('name exactly one of --user and --key-id');
      }
      if (!(await edit(() => removeEntry(path, target)))) {
        throw new CliError(`${target} is not in ${path}`, EXIT.brokerError);
      }
      io.stdout.write(`${target} removed from ${path}\n`);
    });

  fileOption(users.command('list').description('list the users and API key ids (never the hashes)'))
    .option('--output <format>', 'table for people, json for scripts', 'table')
    .action(async (options: FileOptions & { output: string }) => {
      const path = usersFileOf(options);
      const entries = await edit(() => (existsSync(path) ? parseUsersFile(readFileSync(path, 'utf8'), path) : []));
      const rows = entries.map(describeEntry);
      if (options.output === 'json') writeJson(io, rows);
      else
        io.stdout.write(
          formatTable(
            ['KIND', 'USER', 'KEY ID'],
            rows.map((r) => [r.kind, r.user, r.key_id ?? '']),
          ),
        );
    });
}

function describeEntry(entry: UsersFileEntry): { kind: string; user: string; key_id?: string } {
  return entry.kind === 'user'
    ? { kind: 'password', user: entry.name }
    : { kind: 'apikey', user: entry.name, key_id: entry.keyId };
}

function usersFileOf(options: FileOptions): string {
  const path = options.usersFile ?? process.env[USERS_FILE_ENV];
  if (path === undefined || path.trim() === '') {
    throw new UsageError(`name the users file with --users-file or $${USERS_FILE_ENV}`);
  }
  return path;
}

/** Runs a file edit; a bad name or a malformed file is the user's to fix (exit 2), an I/O failure exits 1. */
async function edit<T>(operation: () => T | Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof UsersFileError) throw new UsageError(error.message);
    if (error instanceof CliError) throw error;
    throw new CliError((error as Error).message, EXIT.brokerError);
  }
}

async function firstLine(io: CliIo): Promise<string> {
  let text = '';
  for await (const chunk of io.stdin) {
    text += String(chunk);
    if (text.includes('\n') || text.length > PASSWORD_CHARS_MAX) break;
  }
  const line = text.split(/\r?\n/, 1)[0];
  if (line.length === 0) throw new UsageError('--password-stdin: stdin has no password');
  if (line.length > PASSWORD_CHARS_MAX) throw new UsageError(`the password is longer than ${PASSWORD_CHARS_MAX}`);
  return line;
}

async function promptNewPassword(io: CliIo): Promise<string> {
  if (!io.stdin.isTTY) throw new UsageError('stdin is not a terminal: pass the password with --password-stdin');
  const password = await promptHidden(io, 'Password: ');
  if (password.length === 0) throw new UsageError('the password must not be empty');
  if ((await promptHidden(io, 'Again: ')) !== password) throw new UsageError('the passwords differ');
  return password;
}

/** Reads one line from the terminal without echoing it (raw mode; backspace edits, Ctrl-C interrupts). */
function promptHidden(io: CliIo, prompt: string): Promise<string> {
  const stdin = io.stdin as NodeJS.ReadStream;
  io.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error: Error | null) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      io.stderr.write('\n');
      if (error === null) resolve(typed);
      else reject(error);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish(null);
        if (char === '\u0003') return finish(new InterruptedError());
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else if (typed.length < PASSWORD_CHARS_MAX) typed += char;
      }
    };
    stdin.on('data', onData);
  });
}
