// `brook acls` and `brook configs --entity-type users` with the built CLI against a broker with Basic
// authentication and the authorizer on: the CLI authenticates from BROOK_USER/BROOK_PASSWORD (401 without them),
// an admin grants alice DESCRIBE and READ on a topic with kafka-acls.sh's flags and alice then sees it, --list shows
// the bindings, --remove takes them away again; user quotas are set, merged, described and removed as kafka-configs does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { brook } from './support/brook-cli.js';

let dir: string;
let broker: BrokerProcess;
const ADMIN = { BROOK_USER: 'admin', BROOK_PASSWORD: 'admin-secret' };
const ALICE = { BROOK_USER: 'alice', BROOK_PASSWORD: 'alice-secret' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brook-cli-security-'));
  const usersFile = join(dir, 'users');
  for (const [user, password] of [
    ['admin', 'admin-secret'],
    ['alice', 'alice-secret'],
  ]) {
    const added = await brook(['users', 'add', '--users-file', usersFile, '--user', user, '--password-stdin'], {
      input: `${password}\n`,
    });
    expect(added.code, added.stderr).toBe(0);
  }
  broker = await BrokerProcess.start({
    env: {
      BROOK_AUTH: 'basic',
      BROOK_AUTH_USERS_FILE: usersFile,
      BROOK_AUTHORIZER_ENABLE: 'true',
      BROOK_SUPER_USERS: 'User:admin',
    },
  });
});

afterAll(async () => {
  await broker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const as = (env: Record<string, string>, args: string[]) => brook([...args, '--bootstrap-server', broker.url], { env });

describe('brook acls and user quotas against a secured broker', () => {
  it('authenticates from the environment, and grants, lists and removes ACLs with kafka-acls flags', async () => {
    const anonymous = await brook(['topics', '--list', '--bootstrap-server', broker.url]);
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toMatch(/401|[Aa]uthentication/);
    const created = await as(ADMIN, ['topics', '--create', '--topic', 'guarded', '--partitions', '1']);
    expect(created.code, created.stderr).toBe(0);

    // alice sees only the topics she may describe
    const before = await as(ALICE, ['topics', '--list']);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).not.toContain('guarded');

    const added = await as(ADMIN, [
      'acls',
      '--add',
      '--allow-principal',
      'User:alice',
      '--operation',
      'Describe',
      '--operation',
      'Read',
      '--topic',
      'guarded',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const pattern = 'ResourcePattern(resourceType=TOPIC, name=guarded, patternType=LITERAL)';
    expect(added.stdout).toContain(`Adding ACLs for resource \`${pattern}\`: \n`);
    expect(added.stdout).toContain('\t(principal=User:alice, host=*, operation=READ, permissionType=ALLOW)');
    expect(added.stdout).toContain(`Current ACLs for resource \`${pattern}\`: \n`);
    const listed = await as(ADMIN, ['acls', '--list', '--topic', 'guarded', '--output', 'json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual(
      expect.arrayContaining(
        ['DESCRIBE', 'READ'].map((operation) => ({
          resource_type: 'TOPIC',
          resource_name: 'guarded',
          pattern_type: 'LITERAL',
          principal: 'User:alice',
          host: '*',
          operation,
          permission: 'ALLOW',
        })),
      ),
    );
    await waitForListing(true);

    const removed = await as(ADMIN, ['acls', '--remove', '--allow-principal', 'User:alice', '--topic', 'guarded']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).not.toContain('User:alice');
    await waitForListing(false);
    const none = await as(ADMIN, ['acls', '--list', '--topic', 'guarded', '--output', 'json']);
    expect(JSON.parse(none.stdout)).toEqual([]);

    const bad = await as(ADMIN, ['acls', '--add', '--allow-principal', 'alice', '--operation', 'Read', '--topic', 't']);
    expect(bad.code).toBe(2);
    const badOperation = await as(ADMIN, [
      'acls',
      '--add',
      '--allow-principal',
      'User:a',
      '--operation',
      'Fly',
      '--topic',
      't',
    ]);
    expect(badOperation.code).toBe(2);
  });

  it('sets, merges, describes and removes user quotas with --entity-type users', async () => {
    const set = await as(ADMIN, [
      'configs',
      '--entity-type',
      'users',
      '--entity-name',
      'alice',
      '--alter',
      '--add-config',
      'producer_byte_rate=1048576,request_rate=50',
    ]);
    expect(set.code, set.stderr).toBe(0);
    const merged = await as(ADMIN, [
      'configs',
      '--entity-type',
      'users',
      '--entity-name',
      'alice',
      '--alter',
      '--add-config',
      'consumer_byte_rate=2097152',
      '--delete-config',
      'request_rate',
    ]);
    expect(merged.code, merged.stderr).toBe(0);
    const described = await as(ADMIN, [
      'configs',
      '--entity-type',
      'users',
      '--entity-name',
      'alice',
      '--describe',
      '--output',
      'json',
    ]);
    expect(JSON.parse(described.stdout)).toEqual([
      { entity: 'User:alice', producer_byte_rate: 1048576, consumer_byte_rate: 2097152, request_rate: null },
    ]);
    const defaults = await as(ADMIN, [
      'configs',
      '--entity-type',
      'users',
      '--entity-default',
      '--alter',
      '--add-config',
      'request_rate=1000',
    ]);
    expect(defaults.code, defaults.stderr).toBe(0);
    const all = await as(ADMIN, ['configs', '--entity-type', 'users', '--describe', '--output', 'json']);
    expect(
      JSON.parse(all.stdout)
        .map((row: { entity: string }) => row.entity)
        .sort(),
    ).toEqual(['<default>', 'User:alice']);
    const kafkaStyle = await as(ADMIN, ['configs', '--entity-type', 'users', '--entity-name', 'alice', '--describe']);
    expect(kafkaStyle.stdout).toBe(
      "Quota configs for user-principal 'alice' are consumer_byte_rate=2097152.0, producer_byte_rate=1048576.0\n",
    );
    const table = await as(ADMIN, ['configs', '--entity-type', 'users', '--describe', '--output', 'table']);
    expect(table.stdout).toMatch(/User:alice\s+1048576\s+2097152\s+-/);

    const unknown = await as(ADMIN, [
      'configs',
      '--entity-type',
      'users',
      '--entity-name',
      'alice',
      '--alter',
      '--add-config',
      'bogus=1',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown quota bogus/);
    const negative = await as(ADMIN, [
      'configs',
      '--entity-type',
      'users',
      '--entity-name',
      'alice',
      '--alter',
      '--add-config',
      'request_rate=-1',
    ]);
    expect(negative.code).toBe(2);
    const forbidden = await as(ALICE, [
      'configs',
      '--entity-type',
      'users',
      '--entity-name',
      'alice',
      '--alter',
      '--add-config',
      'request_rate=1e9',
    ]);
    expect(forbidden.code).toBe(1);
  });
});

/** ACL changes reach the authorizer through the store's watch: list alice's topics until `guarded` is (not) there. */
async function waitForListing(shown: boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const listed = await as(ALICE, ['topics', '--list']);
    expect(listed.code, listed.stderr).toBe(0);
    if (listed.stdout.includes('guarded') === shown) return;
    if (Date.now() > deadline) throw new Error(`alice's topic list ${shown ? 'lacks' : 'still has'} guarded`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
