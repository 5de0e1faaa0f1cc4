// `brook users` with the built CLI: it writes a users file (passwords and API keys, hashed) that a broker started
// with BROOK_AUTH=basic,bearer authenticates against; a removed key stops working while the broker runs; bad names,
// a missing password and a missing file name are usage errors (exit 2) that leave the file as it was.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { brook } from './support/brook-cli.js';
import { waitUntil } from './support/cluster.js';
import { call } from './support/http.js';

let dir: string;
let usersFile: string;
let broker: BrokerProcess | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'brook-users-'));
  usersFile = join(dir, 'users');
});
afterAll(async () => {
  await broker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const status = async (authorization: string) =>
  (await call(broker!.url, 'GET', '/v3/clusters', { headers: { authorization } })).status;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('brook users', () => {
  it('writes users and API keys that a broker authenticates', async () => {
    const added = await brook(['users', 'add', '--users-file', usersFile, '--user', 'alice', '--password-stdin'], {
      input: 'correct horse\n',
    });
    expect(added.code, added.stderr).toBe(0);
    const key = await brook(['users', 'add-key', '--users-file', usersFile, '--key-id', 'ci-deploy', '--user', 'bob']);
    expect(key.code, key.stderr).toBe(0);
    const apiKey = key.stdout.trim();
    expect(apiKey).toMatch(/^brook_ci-deploy_[\w-]{16,}$/);
    expect(key.stderr).toContain('not shown again');

    const text = readFileSync(usersFile, 'utf8');
    expect(text).not.toContain('correct horse');
    expect(text).not.toContain(apiKey);
    expect(statSync(usersFile).mode & 0o777).toBe(0o600);
    const listed = await brook(['users', 'list', '--output', 'json'], { env: { BROOK_AUTH_USERS_FILE: usersFile } });
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      { kind: 'password', user: 'alice' },
      { kind: 'apikey', user: 'bob', key_id: 'ci-deploy' },
    ]);

    broker = await BrokerProcess.start({
      env: { BROOK_AUTH: 'basic,bearer', BROOK_AUTH_USERS_FILE: usersFile },
    });
    expect(await status(basic('alice', 'correct horse'))).toBe(200);
    expect(await status(basic('alice', 'wrong'))).toBe(401);
    expect(await status(`Bearer ${apiKey}`)).toBe(200);

    const removed = await brook(['users', 'remove', '--users-file', usersFile, '--key-id', 'ci-deploy']);
    expect(removed.code, removed.stderr).toBe(0);
    await waitUntil(
      'the broker forgets the removed key',
      async () => (await status(`Bearer ${apiKey}`)) === 401,
      10_000,
    );
    expect(await status(basic('alice', 'correct horse'))).toBe(200);
  });

  it('refuses bad input with exit code 2 and leaves the file unchanged', async () => {
    const before = readFileSync(usersFile, 'utf8');
    const cases: string[][] = [
      ['users', 'add', '--users-file', usersFile, '--user', 'not valid', '--password-stdin'],
      ['users', 'add', '--users-file', usersFile, '--user', 'carol'], // no terminal to prompt on
      ['users', 'add', '--users-file', usersFile, '--user', 'carol', '--password-stdin'], // empty stdin
      ['users', 'add-key', '--users-file', usersFile, '--key-id', 'has_underscore', '--user', 'bob'],
      ['users', 'remove', '--users-file', usersFile],
      ['users', 'list'],
    ];
    for (const args of cases) {
      const result = await brook(args, { input: args.includes('not valid') ? 'pw\n' : '' });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(/^brook: /);
    }
    const missing = await brook(['users', 'remove', '--users-file', usersFile, '--user', 'nobody']);
    expect(missing.code).toBe(1);
    expect(readFileSync(usersFile, 'utf8')).toBe(before);
  });
});
