// Security as an independent test attacks it (issue 24), on the request paths: one broker with authentication and
// the authorizer on, admin a super user, alice with READ and DESCRIBE on topic `a` and READ on group `ga` only.
// Each test is one finding: a pattern subscription reading a topic alice may not read; a pattern that would hold
// the event loop; names leaking through subscriptions, assignments and lags; refusals missing from the audit log;
// user names found by timing; `__proto__` as a config name; `..` as a group id; world-readable data files.
import { readdirSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_PREFIX } from '../../src/cluster/peer-client.js';
import { ADMIN, aliceAcl, ALICE, basic, C, SecuredBroker, V2, type Who } from './support/secured-broker.js';
import { WsClient } from './support/ws-client.js';
import { call } from './support/http.js';

let s: SecuredBroker;

beforeAll(async () => {
  s = await SecuredBroker.create({ BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '0' });
});
afterAll(async () => {
  await s?.stop();
});

const I = '/consumers/{group_name}/instances/{instance}';

async function instance(who: Who, group: string, name: string): Promise<string> {
  const created = await s.as(who, 'POST', `/consumers/${group}`, {
    body: { name, format: 'json', 'auto.offset.reset': 'earliest' },
    contentType: V2,
    spec: '/consumers/{group_name}',
  });
  expect(created.status, created.text).toBe(200);
  return `/consumers/${group}/instances/${name}`;
}

const subscribe = (who: Who, path: string, body: object) =>
  s.as(who, 'POST', `${path}/subscription`, { body, contentType: V2, spec: `${I}/subscription` });

const poll = (who: Who, path: string, timeoutMs: number) =>
  s.as(who, 'GET', `${path}/records?timeout=${timeoutMs}`, {
    accept: 'application/vnd.kafka.json.v2+json',
    spec: `${I}/records`,
  });

/** Creates an instance, runs `body` with its path, deletes it (also when `body` fails). */
async function withInstance(who: Who, group: string, name: string, body: (path: string) => Promise<void>) {
  const path = await instance(who, group, name);
  try {
    await body(path);
  } finally {
    await s.as(who, 'DELETE', path);
  }
}

/** Polls until a record of `topic` came back; returns every record seen. */
async function pollUntil(who: Who, path: string, topic: string): Promise<Array<{ topic: string; value: unknown }>> {
  const seen: Array<{ topic: string; value: unknown }> = [];
  const deadline = Date.now() + 15_000;
  while (!seen.some((record) => record.topic === topic) && Date.now() < deadline) {
    const polled = await poll(who, path, 1_000);
    expect(polled.status, polled.text).toBe(200);
    seen.push(...polled.body);
  }
  return seen;
}

describe('record-level READ on every path', () => {
  it('a pattern never matches a topic the subscriber may not describe, even one created during a long poll', async () => {
    await withInstance(ALICE, 'ga', 'pattern-reader', async (path) => {
      expect((await subscribe(ALICE, path, { topic_pattern: 'a|secret4.*' })).status).toBe(204);
      await s.produce('a', ['for-alice']);
      expect((await pollUntil(ALICE, path, 'a')).map((record) => record.value)).toContain('for-alice');
      // the sequence: a long poll is waiting when the admin creates secret4 and produces to it
      const waiting = poll(ALICE, path, 6_000);
      await s.createTopic('secret4');
      await s.produce('secret4', ['{"card":"4111-1111-1111-1111"}']);
      const direct = await s.as(ALICE, 'GET', '/v3/clusters/{c}/topics/secret4/partitions/0/records?from=earliest');
      expect(direct.status).toBe(403);
      const polled = await waiting;
      expect(polled.status, polled.text).toBe(200);
      expect(polled.body).toEqual([]);
      const subscription = await s.as(ALICE, 'GET', `${path}/subscription`, { spec: `${I}/subscription` });
      expect(subscription.body.topics).toEqual(['a']);
    });
  });

  it('a long poll stops before reading a topic that became describable but not readable while it waited', async () => {
    await s.createTopic('secret6');
    await s.produce('secret6', ['not-for-alice']);
    await withInstance(ALICE, 'ga', 'describer', async (path) => {
      expect((await subscribe(ALICE, path, { topic_pattern: 'a|secret6' })).status).toBe(204);
      await s.produce('a', ['before']);
      await pollUntil(ALICE, path, 'a');
      const waiting = poll(ALICE, path, 6_000);
      // now the pattern matches secret6 too, and the group rebalances onto it during the wait
      await s.acl('POST', aliceAcl('TOPIC', 'secret6', 'DESCRIBE'));
      try {
        const answer = await waiting;
        expect(answer.status, answer.text).toBe(403);
        expect(answer.body).toMatchObject({ error_code: 40301, message: expect.stringMatching(/secret6/) });
      } finally {
        await s.acl('DELETE', { ...aliceAcl('TOPIC', 'secret6', 'DESCRIBE'), resource_type: 'TOPIC' });
      }
    });
  });
});

describe('patterns that cannot hurt', () => {
  it('evaluates a catastrophic-backtracking pattern while /healthz answers within 100 ms; refuses what RE2 cannot run', async () => {
    await s.createTopic('redos-probe-xyz');
    await withInstance(ALICE, 'ga', 'redos', async (path) => {
      const started = Date.now();
      const subscribed = await subscribe(ALICE, path, { topic_pattern: '(.?.*)*Q' });
      expect(subscribed.status, subscribed.text).toBe(204);
      // a bounded probe loop over a dozen group ticks (100 ms each), each of which evaluates the pattern
      const probes: number[] = [];
      while (probes.length < 30 || Date.now() - started < 2_000) {
        const sent = performance.now();
        const health = await call(s.url, 'GET', '/healthz', { timeoutMs: 5_000 });
        probes.push(performance.now() - sent);
        expect(health.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (probes.length >= 200) break;
      }
      console.log(`/healthz during the pattern: ${probes.length} probes, slowest ${Math.max(...probes).toFixed(1)} ms`);
      expect(Math.max(...probes)).toBeLessThan(100);

      for (const [pattern, reason] of [
        ['(a)\\1', /back-references/],
        ['(?=a)a', /look-ahead/],
        ['(.*){1000}', /expand to about/],
        ['x'.repeat(513), /1 to 512 characters/],
      ] as const) {
        const refused = await subscribe(ALICE, path, { topic_pattern: pattern });
        expect(refused.status, pattern).toBe(422);
        expect(refused.body.error_code).toBe(42206);
        expect(refused.body.message).toMatch(reason);
      }
    });
  });
});

describe('names a principal may not describe stay hidden', () => {
  it('filters subscriptions, assignments and lags to the topics alice may describe', async () => {
    await s.createTopic('secret5');
    await s.produce('secret5', ['hidden']);
    await s.acl('POST', aliceAcl('GROUP', 'gl', 'READ'));
    // the group has committed offsets of secret5 (the admin's simple consumer)
    const adminPath = await instance(ADMIN, 'gl', 'admin-committer');
    const assigned = await s.as(ADMIN, 'POST', `${adminPath}/assignments`, {
      body: { partitions: [{ topic: 'secret5', partition: 0 }] },
      contentType: V2,
    });
    expect(assigned.status, assigned.text).toBe(204);
    const committed = await s.as(ADMIN, 'POST', `${adminPath}/offsets`, {
      body: { offsets: [{ topic: 'secret5', partition: 0, offset: 0 }] },
      contentType: V2,
    });
    expect(committed.status, committed.text).toBe(200);
    expect((await s.as(ADMIN, 'DELETE', adminPath)).status).toBe(204);

    await withInstance(ALICE, 'gl', 'everything', async (path) => {
      expect((await subscribe(ALICE, path, { topic_pattern: '.*' })).status).toBe(204);
      const subscription = await s.as(ALICE, 'GET', `${path}/subscription`, { spec: `${I}/subscription` });
      expect(subscription.body.topics).toEqual(['a']);
      const committedSecret = await s.as(ALICE, 'GET', `${path}/offsets?partition=secret5:0`, {
        spec: `${I}/offsets`,
      });
      expect(committedSecret.status, committedSecret.text).toBe(200);
      expect(committedSecret.body.offsets).toEqual([]);
      await poll(ALICE, path, 500); // joins the group
      let assignments: Array<{ topic: string }> = [];
      const deadline = Date.now() + 10_000;
      while (assignments.length === 0 && Date.now() < deadline) {
        assignments = (await s.as(ALICE, 'GET', `${path}/assignments`, { spec: `${I}/assignments` })).body.partitions;
        if (assignments.length === 0) await poll(ALICE, path, 200);
      }
      expect(assignments.map((tp) => tp.topic)).toEqual(['a']);

      const lags = await s.as(ALICE, 'GET', '/v3/clusters/{c}/consumer-groups/gl/lags', {
        spec: `${C}/consumer-groups/{consumer_group_id}/lags`,
      });
      expect(lags.status, lags.text).toBe(200);
      const lagTopics = lags.body.data.map((lag: { topic_name: string }) => lag.topic_name);
      expect(lagTopics).not.toContain('secret5');
      const adminLags = await s.as(ADMIN, 'GET', '/v3/clusters/{c}/consumer-groups/gl/lags');
      expect(adminLags.body.data.map((lag: { topic_name: string }) => lag.topic_name)).toContain('secret5');
      const summary = await s.as(ALICE, 'GET', '/v3/clusters/{c}/consumer-groups/gl/lag-summary');
      expect(summary.body.max_lag_topic_name).not.toBe('secret5');
      const consumers = await s.as(ALICE, 'GET', '/v3/clusters/{c}/consumer-groups/gl/consumers');
      for (const consumer of consumers.body.data) {
        const theirs = await s.as(
          ALICE,
          'GET',
          `/v3/clusters/{c}/consumer-groups/gl/consumers/${encodeURIComponent(consumer.consumer_id)}/assignments`,
        );
        for (const entry of theirs.body.data) expect(entry.topic_name).toBe('a');
      }
    });
  });
});

describe('audit lines for every refusal, with the principal tried', () => {
  it('records failed WebSocket upgrades, WebSocket 403 frames, wrong cluster secrets and failed logins by name', async () => {
    await expect(WsClient.connect(s.url, { headers: basic('mallory', 'guess') })).rejects.toThrow(/401/);
    const ws = await WsClient.connect(s.url, { headers: ALICE });
    const refused = await ws.request({ op: 'produce', id: 'p', topic: 'a', records: [{ value: 'x' }] });
    expect(refused).toMatchObject({ op: 'error', error_code: 40301 });
    ws.close();
    const internal = await call(s.url, 'GET', `${INTERNAL_PREFIX}/status`, {
      headers: { 'x-brook-cluster-secret': 'not-the-secret' },
    });
    expect(internal.status).toBe(401);
    expect((await s.as(basic('alice', 'wrong'), 'GET', '/v3/clusters')).status).toBe(401);

    const lines = s.auditLines();
    expect(lines).toContainEqual(
      expect.objectContaining({ event: 'authentication.failed', principal: 'User:mallory', route: '/v3/ws' }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: 'authorization.denied',
        principal: 'User:alice',
        route: '/v3/ws',
        operation: 'WRITE',
        resource_name: 'a',
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: 'authentication.failed',
        reason: expect.stringMatching(/internal broker route/),
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ event: 'authentication.failed', principal: 'User:alice', route: 'GET /v3/clusters' }),
    );
  });
});

describe('credential checks', () => {
  it('take as long for an unknown user as for a wrong password (under 2x apart)', async () => {
    const time = async (who: Who) => {
      const sent = performance.now();
      const response = await call(s.url, 'GET', '/v3/clusters', { headers: who });
      expect(response.status).toBe(401);
      return performance.now() - sent;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let round = 0; round < 12; round++) {
      known.push(await time(basic('alice', `wrong-${round}`)));
      unknown.push(await time(basic(`nobody-${round}`, 'wrong')));
    }
    const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
    const [k, u] = [median(known), median(unknown)];
    console.log(`failed logins: existing user ${k.toFixed(1)} ms, unknown user ${u.toFixed(1)} ms (medians)`);
    expect(Math.max(k, u) / Math.min(k, u)).toBeLessThan(2);
  });
});

describe('names that index objects or become URL segments', () => {
  it('answers 400 to PUT .../configs/__proto__, like any unknown config', async () => {
    for (const name of ['__proto__', 'constructor', 'no.such.config']) {
      const put = await s.as(ADMIN, 'PUT', `/v3/clusters/{c}/topics/a/configs/${name}`, {
        body: { value: '1' },
        spec: `${C}/topics/{topic_name}/configs/{name}`,
      });
      expect(put.status, name).toBe(400);
    }
  });

  it("refuses '.' and '..' as group ids and instance names (their base_uri would name another path)", async () => {
    const post = (path: string, body: object) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        // the path as written: a URL parser would resolve the dot segments away
        const request = httpRequest({
          hostname: '127.0.0.1',
          port: s.broker!.port,
          path,
          method: 'POST',
          headers: { ...ADMIN, 'content-type': V2 },
        });
        request.on('response', (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        });
        request.on('error', reject);
        request.end(JSON.stringify(body));
      });
    for (const group of ['%2E', '%2E%2E']) {
      const answer = await post(`/consumers/${group}`, { name: 'x' });
      expect(answer.status, answer.body).toBe(422);
      expect(JSON.parse(answer.body)).toMatchObject({ error_code: 42204 });
    }
    for (const name of ['.', '..']) expect((await post('/consumers/ga', { name })).status).toBe(422);
  });
});

describe('data files', () => {
  it('are created readable by the broker only (0600 files, 0700 folders)', () => {
    const open: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if ((statSync(path).mode & 0o077) !== 0) open.push(`${path} ${(statSync(path).mode & 0o777).toString(8)}`);
        if (entry.isDirectory()) walk(path);
      }
    };
    walk(s.broker!.dataDir);
    expect(open).toEqual([]);
  });
});
