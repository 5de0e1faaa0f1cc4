// The authorisation matrix: for each route group, no credentials (401 with WWW-Authenticate), wrong credentials
// (401), valid but forbidden (403 40301) and allowed, with ACLs added and removed through the v3 ACL routes while
// the broker runs; deny wins; Basic and Bearer; lists filtered to what the caller may describe; the users file
// re-read without a restart; audit lines for failures and admin changes. Every answer is checked against
// openapi.yaml. The WebSocket upgrade and every WebSocket frame, and SSE streams, are checked the same way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addApiKey, addUser } from '../../src/config/users-file.js';
import { BrokerProcess } from './support/broker-process.js';
import { call, expectError, type CallOptions } from './support/http.js';
import { WsClient } from './support/ws-client.js';
import { allowAlice, C, produceBody, routeGroups, T, V2 } from './support/auth-route-groups.js';

const dir = mkdtempSync(join(tmpdir(), 'brook-auth-'));
const usersFile = join(dir, 'users');
let broker: BrokerProcess;
let cid: string;
let carolKey: string;

const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
const ADMIN = basic('admin', 'admin-secret');
const ALICE = basic('alice', 'alice-secret');

function as(who: Record<string, string> | null, method: string, path: string, options: CallOptions = {}) {
  return call(broker.url, method, path.replace('{c}', cid), { ...options, headers: who ?? {} });
}

async function acl(method: 'POST' | 'DELETE', fields: Record<string, string>): Promise<void> {
  const path = `/v3/clusters/${cid}/acls`;
  const response =
    method === 'POST'
      ? await as(ADMIN, 'POST', path, { body: fields, spec: `${C}/acls` })
      : await as(ADMIN, 'DELETE', `${path}?${new URLSearchParams(fields)}`, { spec: `${C}/acls` });
  expect(response.status, response.text).toBe(method === 'POST' ? 201 : 200);
}

beforeAll(async () => {
  await addUser(usersFile, 'admin', 'admin-secret');
  await addUser(usersFile, 'alice', 'alice-secret');
  carolKey = addApiKey(usersFile, 'carol-ci', 'carol');
  broker = await BrokerProcess.start({
    logLevel: 'warn',
    env: {
      BROOK_AUTH: 'basic,bearer',
      BROOK_AUTH_USERS_FILE: usersFile,
      BROOK_AUTHORIZER_ENABLE: 'true',
      BROOK_SUPER_USERS: 'User:admin',
    },
  });
  // the probes stay open (load balancers, Kubernetes)
  expect((await call(broker.url, 'GET', '/healthz')).status).toBe(200);
  const clusters = await call(broker.url, 'GET', '/v3/clusters', { headers: ADMIN });
  cid = clusters.body.data[0].cluster_id;
  for (const topic of ['orders', 'secret']) {
    const created = await as(ADMIN, 'POST', '/v3/clusters/{c}/topics', {
      body: { topic_name: topic, partitions_count: 1 },
      spec: `${C}/topics`,
    });
    expect(created.status, created.text).toBe(201);
  }
});
afterAll(async () => {
  await broker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('authorisation matrix', () => {
  for (const group of routeGroups(as)) {
    it(group.name, async () => {
      const none = await group.request(null);
      expectError(none, 401, 40101);
      expect(none.headers.get('www-authenticate')).toMatch(/Basic realm="brook".*Bearer realm="brook"/);
      expectError(await group.request(basic('alice', 'wrong')), 401, 40101);
      expectError(await group.request(basic('mallory', 'alice-secret')), 401, 40101);
      expectError(await group.request({ authorization: 'Bearer brook_carol-ci_forgedforgedforgedforged' }), 401, 40101);
      if (group.acl !== null) {
        expectError(await group.request(ALICE), 403, 40301, /User:alice is not authorized/);
        await acl('POST', group.acl);
      }
      const allowed = await group.request(ALICE);
      expect(allowed.status, allowed.text).toBe(group.allowed);
      expect((await group.request(ADMIN)).status).toBe(group.allowed);
      if (group.acl !== null) {
        await acl('DELETE', group.acl);
        expectError(await group.request(ALICE), 403, 40301);
      }
    });
  }

  it('a consumer group needs READ on the group and on the topic; removing the topic ACL stops the poll', async () => {
    const instance = '/consumers/readers/instances/r1';
    await acl('POST', allowAlice('GROUP', 'readers', 'READ'));
    const created = await as(ALICE, 'POST', '/consumers/readers', {
      body: { name: 'r1', format: 'binary', 'auto.offset.reset': 'earliest' },
      contentType: V2,
      spec: '/consumers/{group_name}',
    });
    expect(created.status, created.text).toBe(200);
    const subscribe = () =>
      as(ALICE, 'POST', `${instance}/subscription`, {
        body: { topics: ['orders'] },
        contentType: V2,
        spec: '/consumers/{group_name}/instances/{instance}/subscription',
      });
    expectError(await subscribe(), 403, 40301, /READ topic 'orders'/);
    await acl('POST', allowAlice('TOPIC', 'orders', 'READ'));
    expect((await subscribe()).status).toBe(204);
    const poll = () =>
      as(ALICE, 'GET', `${instance}/records?timeout=200`, {
        accept: 'application/vnd.kafka.binary.v2+json',
        spec: '/consumers/{group_name}/instances/{instance}/records',
      });
    expect((await poll()).status).toBe(200);
    await acl('DELETE', allowAlice('TOPIC', 'orders', 'READ'));
    expectError(await poll(), 403, 40301, /READ topic 'orders'/);
    await acl('DELETE', allowAlice('GROUP', 'readers', 'READ'));
    expectError(await poll(), 403, 40301, /READ group 'readers'/);
  });

  it('deny wins over allow, prefixed and wildcard ACLs apply', async () => {
    const describe = () => as(ALICE, 'GET', '/v3/clusters/{c}/topics/secret', { spec: T });
    await acl('POST', allowAlice('TOPIC', 'sec', 'DESCRIBE', { pattern_type: 'PREFIXED' }));
    expect((await describe()).status).toBe(200);
    await acl('POST', allowAlice('TOPIC', '*', 'ALL', { permission: 'DENY' }));
    expectError(await describe(), 403, 40301);
    await acl('DELETE', { resource_type: 'TOPIC', principal: 'User:alice' });
    expectError(await describe(), 403, 40301);
  });

  it('lists show only what the caller may describe', async () => {
    const v3 = async () =>
      (await as(ALICE, 'GET', '/v3/clusters/{c}/topics', { spec: `${C}/topics` })).body.data.map(
        (t: { topic_name: string }) => t.topic_name,
      );
    const v2 = async () => (await as(ALICE, 'GET', '/topics', { spec: '/topics' })).body;
    expect(await v3()).toEqual([]);
    expect(await v2()).toEqual([]);
    await acl('POST', allowAlice('TOPIC', 'orders', 'READ'));
    expect(await v3()).toEqual(['orders']);
    expect(await v2()).toEqual(['orders']);
    expect((await as(ADMIN, 'GET', '/topics')).body).toEqual(expect.arrayContaining(['orders', 'secret']));
    await acl('DELETE', allowAlice('TOPIC', 'orders', 'READ'));
  });

  it('Bearer API keys authenticate, and the ACLs are searchable with Confluent field names', async () => {
    const bearer = { authorization: `Bearer ${carolKey}` };
    expect((await as(bearer, 'GET', '/v3/clusters/{c}', { spec: C })).status).toBe(200);
    const produce = () =>
      as(bearer, 'POST', '/v3/clusters/{c}/topics/orders/records', { body: produceBody, spec: `${T}/records` });
    expectError(await produce(), 403, 40301, /User:carol/);
    const carol = { ...allowAlice('TOPIC', 'ord', 'WRITE'), principal: 'User:carol', pattern_type: 'PREFIXED' };
    await acl('POST', carol);
    expect((await produce()).status).toBe(200);
    const found = await as(
      ADMIN,
      'GET',
      '/v3/clusters/{c}/acls?principal=User:carol&resource_name=orders&pattern_type=MATCH',
      {
        spec: `${C}/acls`,
      },
    );
    expect(found.body.data).toEqual([expect.objectContaining({ kind: 'KafkaAcl', cluster_id: cid, ...carol })]);
  });

  it('re-reads the users file while running', async () => {
    const dave = basic('dave', 'dave-secret');
    expectError(await as(dave, 'GET', '/v3/clusters/{c}', { spec: C }), 401, 40101);
    await addUser(usersFile, 'dave', 'dave-secret');
    const deadline = Date.now() + 10_000;
    let status = 401;
    while (status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await as(dave, 'GET', '/v3/clusters/{c}', { spec: C })).status;
    }
    expect(status).toBe(200);
  });

  it('writes audit lines for authentication and authorisation failures and admin changes', async () => {
    const traced = await as({ ...basic('alice', 'wrong'), 'x-request-id': 'trace-4711' }, 'GET', '/v3/clusters/{c}');
    expect(traced.headers.get('x-request-id')).toBe('trace-4711');
    const random = await as({ 'x-request-id': 'not a valid id!' }, 'GET', '/v3/clusters/{c}');
    expect(random.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const lines = broker.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.audit === true);
    expect(lines).toContainEqual(
      expect.objectContaining({ event: 'authentication.failed', route: 'GET /v3/clusters/{cluster_id}' }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: 'authorization.denied',
        principal: 'User:alice',
        operation: 'WRITE',
        resource_type: 'TOPIC',
        resource_name: 'orders',
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: 'admin',
        principal: 'User:admin',
        method: 'POST',
        route: `POST ${C}/acls`,
        body: expect.objectContaining({ principal: 'User:alice', operation: 'WRITE', permission: 'ALLOW' }),
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: 'admin',
        principal: 'User:alice',
        route: `PUT ${T}/configs/{name}`,
        status: 204,
      }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ event: 'authentication.failed', request_id: 'trace-4711' }));
    expect(JSON.stringify(lines)).not.toContain('alice-secret');
  });
});

describe('WebSocket and SSE', () => {
  it('authenticates the WebSocket upgrade and authorizes every frame against the ACLs', async () => {
    const created = await as(ADMIN, 'POST', '/v3/clusters/{c}/topics', {
      body: { topic_name: 'ws-secured', partitions_count: 1 },
      spec: `${C}/topics`,
    });
    expect(created.status, created.text).toBe(201);
    await expect(WsClient.connect(broker.url)).rejects.toThrow(/401/);
    await expect(WsClient.connect(broker.url, { headers: basic('alice', 'wrong') })).rejects.toThrow(/401/);

    const alice = await WsClient.connect(broker.url, { headers: ALICE });
    const produce = { op: 'produce', topic: 'ws-secured', records: [{ value: 'v', partition: 0 }] };
    expect(await alice.request({ ...produce, id: 'p1' })).toMatchObject({ op: 'error', id: 'p1', error_code: 40301 });
    await acl('POST', allowAlice('TOPIC', 'ws-secured', 'WRITE'));
    await waitForAcls();
    expect(await alice.request({ ...produce, id: 'p2' })).toMatchObject({ op: 'ack', id: 'p2' });

    const subscribe = { op: 'subscribe', assign: [{ topic: 'ws-secured', partition: 0 }], from: 'earliest' };
    expect(await alice.request({ ...subscribe, id: 's1' })).toMatchObject({ op: 'error', error_code: 40301 });
    await acl('POST', allowAlice('TOPIC', 'ws-secured', 'READ'));
    await waitForAcls();
    expect(await alice.request({ ...subscribe, id: 's2' })).toMatchObject({ op: 'subscribed', id: 's2' });
    expect((await alice.waitForRecords('s2', 1))[0].value).toBe('v');
    alice.socket.close();

    const sse = (who: Record<string, string>) =>
      fetch(`${broker.url}/v3/clusters/${cid}/topics/ws-secured/records:stream?from=earliest`, {
        headers: who,
        signal: AbortSignal.timeout(5_000),
      });
    const denied = await sse(basic('carol', 'none'));
    expect(denied.status).toBe(401);
    const allowed = await sse(ALICE);
    expect(allowed.status).toBe(200);
    await allowed.body?.cancel();
    // as a group member, the stream also needs READ on the group
    const asMember = () =>
      fetch(`${broker.url}/v3/clusters/${cid}/topics/ws-secured/records:stream?from=earliest&group=sse-readers`, {
        headers: ALICE,
        signal: AbortSignal.timeout(5_000),
      });
    const noGroupRight = await asMember();
    expect(noGroupRight.status).toBe(403);
    expect(((await noGroupRight.json()) as { error_code: number }).error_code).toBe(40301);
    await acl('POST', allowAlice('GROUP', 'sse-readers', 'READ'));
    await waitForAcls();
    const member = await asMember();
    expect(member.status).toBe(200);
    await member.body?.cancel();
    await acl('DELETE', allowAlice('TOPIC', 'ws-secured', 'READ'));
    await waitForAcls();
    expect((await sse(ALICE)).status).toBe(403);
  });
});

/** ACL changes reach the authorizer through the store's watch; give it a moment. */
function waitForAcls(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 300));
}
