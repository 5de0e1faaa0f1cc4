// Broker-to-broker TLS on three brokers and a real redis-server, with certificates the test generates (openssl):
// one CA signs the brokers' certificate (BROOK_TLS_PEER_CA), another the users' client certificates (BROOK_TLS_CA).
// An RF=3 topic is produced to with acks=all through a broker that does not lead it and read back through every
// broker, every replica holding the records: replication, forwarding and metadata all went over HTTPS. A peer's
// internal routes refuse the cluster secret without a broker certificate (none, a user's, or one from another CA),
// a broker whose certificate the peer CA did not sign does not start, and one that trusts another CA (with the secret
// and Redis) never gets a record: the brokers and it refuse each other's certificates. A user known only by a client
// certificate keeps its identity when its consumer-group requests are forwarded to the group's coordinator.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { TestCertificates } from './support/certificates.js';
import { SECRET_HEADER, TestCluster, waitUntil } from './support/cluster.js';
import { REPLICATION_ENV } from './support/replication.js';

const dir = mkdtempSync(join(tmpdir(), 'brook-cluster-tls-'));
const file = (name: string) => join(dir, name);
const pem = (name: string) => readFileSync(file(name));
const TOPIC = 'secured';
const V2 = 'application/vnd.kafka.v2+json';
let cluster: TestCluster;
let cid: string;

function generateCertificates(): void {
  const certificates = new TestCertificates(dir);
  for (const ca of ['broker-ca', 'client-ca', 'other-ca']) certificates.ca(ca);
  const server = 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n';
  certificates.sign('broker', 'broker', 'broker-ca', server);
  certificates.sign('rogue', 'rogue', 'other-ca', server);
  certificates.sign('admin', 'admin', 'client-ca', 'extendedKeyUsage=clientAuth\n');
  certificates.sign('alice', 'alice', 'client-ca', 'extendedKeyUsage=clientAuth\n');
}

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** An HTTPS request that trusts the broker CA (or `ca`), presenting the client certificate `client` if given. */
function request(
  baseUrl: string,
  method: string,
  path: string,
  options: { client?: string; body?: unknown; headers?: Record<string, string>; ca?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = httpsRequest(
      `${baseUrl}${path}`,
      {
        method,
        ca: pem(`${options.ca ?? 'broker-ca'}.crt`),
        ...(options.client ? { cert: pem(`${options.client}.crt`), key: pem(`${options.client}.key`) } : {}),
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          resolve({ status: response.statusCode!, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const tlsEnv = () => ({
  ...REPLICATION_ENV,
  BROOK_TLS_CERT: file('broker.crt'),
  BROOK_TLS_KEY: file('broker.key'),
  BROOK_TLS_CA: file('client-ca.crt'),
  BROOK_TLS_PEER_CA: file('broker-ca.crt'),
  BROOK_AUTHORIZER_ENABLE: 'true',
  BROOK_SUPER_USERS: 'User:admin',
});

beforeAll(async () => {
  generateCertificates();
  cluster = await TestCluster.start(3, tlsEnv(), { https: { ca: pem('broker-ca.crt') } });
  cid = (await request(cluster.brokers[0].url, 'GET', '/v3/clusters', { client: 'admin' })).body.data[0].cluster_id;
});
afterAll(async () => {
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Leader and in-sync replicas of partition 0, as a broker's metadata has them. */
async function partition(through: BrokerProcess): Promise<{ leader: number; isr: number[] }> {
  const answer = await request(through.url, 'GET', `/topics/${TOPIC}/partitions/0`, { client: 'admin' });
  const replicas = (answer.body?.replicas ?? []) as Array<{ broker: number; in_sync: boolean }>;
  return {
    leader: answer.body?.leader ?? -1,
    isr: replicas
      .filter((r) => r.in_sync)
      .map((r) => r.broker)
      .sort(),
  };
}

describe('a cluster with broker-to-broker TLS', () => {
  it('replicates an RF=3 topic over HTTPS: acks=all through a non-leader, read back through every broker', async () => {
    const [b1] = cluster.brokers;
    const created = await request(b1.url, 'POST', `/v3/clusters/${cid}/topics`, {
      client: 'admin',
      body: {
        topic_name: TOPIC,
        partitions_count: 1,
        replication_factor: 3,
        configs: [{ name: 'min.insync.replicas', value: '2' }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const view = await waitUntil(
      'all three replicas in sync',
      async () => {
        const seen = await partition(b1);
        return seen.isr.join(',') === '1,2,3' ? seen : null;
      },
      20_000,
    );
    const through = cluster.brokers.find((_, index) => index + 1 !== view.leader)!;
    for (let i = 0; i < 10; i++) {
      const produced = await request(through.url, 'POST', `/v3/clusters/${cid}/topics/${TOPIC}/records?acks=all`, {
        client: 'admin',
        body: { partition_id: 0, value: { type: 'STRING', data: `secret-${i}` } },
      });
      expect(produced.status, JSON.stringify(produced.body)).toBe(200);
      expect(produced.body.offset).toBe(i);
    }
    const expected = Array.from({ length: 10 }, (_, i) => `secret-${i}`);
    for (const broker of cluster.brokers) {
      const read = await request(
        broker.url,
        'GET',
        `/v3/clusters/${cid}/topics/${TOPIC}/partitions/0/records?offset=0&format=string`,
        { client: 'admin' },
      );
      expect(read.status).toBe(200);
      expect(read.body.records.map((record: { value: string }) => record.value)).toEqual(expected);
    }
    for (const broker of cluster.brokers) {
      await waitUntil(
        `broker at ${broker.url} holds every record`,
        async () => {
          const answer = await request(broker.url, 'GET', `/internal/v1/partitions/${TOPIC}/0/replica`, {
            client: 'broker',
            headers: { [SECRET_HEADER]: cluster.secret },
          });
          const { log_end_offset: end, high_watermark: highWatermark } = answer.body ?? {};
          return answer.status === 200 && end === 10 && highWatermark === 10 ? answer.body : null;
        },
        10_000,
      );
    }
  });

  it('refuses internal requests without a broker certificate, and a broker whose certificate it does not trust', async () => {
    const leader = cluster.broker((await partition(cluster.brokers[0])).leader);
    const replica = (client?: string) =>
      request(leader.url, 'GET', `/internal/v1/partitions/${TOPIC}/0/replica`, {
        client,
        headers: { [SECRET_HEADER]: cluster.secret },
      });
    expect((await replica('broker')).status).toBe(200);
    for (const client of [undefined, 'alice', 'rogue']) {
      const refused = await replica(client);
      expect(refused.status, `${client}: ${JSON.stringify(refused.body)}`).toBe(401);
      expect(refused.body.message).toMatch(/broker certificate signed by the peer CA/);
    }
    // nor may a user's request pass a principal of its choosing, even with the secret
    const forged = await request(leader.url, 'GET', `/topics/${TOPIC}`, {
      client: 'alice',
      headers: { [SECRET_HEADER]: cluster.secret, 'x-brook-principal': 'User:admin', 'x-brook-forwarded-by': '1' },
    });
    expect(forged.status).toBe(403);
    // a broker certificate is no user credential on public routes: only BROOK_TLS_CA's certificates name users
    const asBroker = await request(leader.url, 'GET', `/topics/${TOPIC}`, { client: 'broker' });
    expect(asBroker.status, JSON.stringify(asBroker.body)).toBe(401);

    // a fourth broker with a certificate from another CA stops at start-up with a message naming the setting
    const rogue = BrokerProcess.start({
      env: { ...cluster.env(4), ...tlsEnv(), BROOK_TLS_CERT: file('rogue.crt'), BROOK_TLS_KEY: file('rogue.key') },
      https: { ca: pem('other-ca.crt') },
    });
    await expect(rogue).rejects.toThrow(/BROOK_TLS_CERT=.*rogue.crt is not signed by a CA in BROOK_TLS_PEER_CA/);
  });

  it('keeps the principal of a client certificate on consumer-group requests forwarded to the coordinator', async () => {
    const acl = (resource_type: string, resource_name: string) =>
      request(cluster.brokers[0].url, 'POST', `/v3/clusters/${cid}/acls`, {
        client: 'admin',
        body: {
          resource_type,
          resource_name,
          pattern_type: 'LITERAL',
          principal: 'User:alice',
          host: '*',
          operation: 'READ',
          permission: 'ALLOW',
        },
      });
    expect((await acl('TOPIC', TOPIC)).status).toBe(201);
    expect((await acl('GROUP', 'alice-group')).status).toBe(201);
    // each step through another broker: at least two of the three are not the group's coordinator
    const [b1, b2, b3] = cluster.brokers;
    /** A v2 request as alice; retried while the answer is 503 (the coordinator still loading the group's partition). */
    const v2 = async (broker: BrokerProcess, method: string, path: string, body?: unknown, accept = V2) => {
      const deadline = performance.now() + 15_000;
      for (;;) {
        const answer = await request(broker.url, method, path, {
          client: 'alice',
          body,
          headers: { 'content-type': V2, accept },
        });
        if (answer.status !== 503 || performance.now() > deadline) return answer;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const created = await v2(b1, 'POST', '/consumers/alice-group', {
      name: 'alice-1',
      format: 'binary',
      'auto.offset.reset': 'earliest',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const instance = '/consumers/alice-group/instances/alice-1';
    const subscribed = await v2(b2, 'POST', `${instance}/subscription`, { topics: [TOPIC] });
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(204);
    const records = await waitUntil(
      'alice polls the records through a third broker',
      async () => {
        const polled = await v2(
          b3,
          'GET',
          `${instance}/records?timeout=1000`,
          undefined,
          'application/vnd.kafka.binary.v2+json',
        );
        expect(polled.status, JSON.stringify(polled.body)).toBe(200);
        return polled.body.length > 0 ? polled.body : null;
      },
      20_000,
    );
    expect(Buffer.from(records[0].value, 'base64').toString()).toBe('secret-0');
    const listed = await request(b2.url, 'GET', `/v3/clusters/${cid}/consumer-groups`, { client: 'alice' });
    expect(listed.body.data.map((group: { consumer_group_id: string }) => group.consumer_group_id)).toContain(
      'alice-group',
    );
    expect((await v2(b1, 'DELETE', instance)).status).toBe(204);
  });
  it('leaves a broker whose certificate the cluster does not trust out of replication', async () => {
    // broker 4 has the cluster secret and Redis, but a certificate from another CA (and trusts only that CA)
    const rogue = await BrokerProcess.start({
      env: {
        ...cluster.env(4),
        ...tlsEnv(),
        BROOK_TLS_CERT: file('rogue.crt'),
        BROOK_TLS_KEY: file('rogue.key'),
        BROOK_TLS_PEER_CA: file('other-ca.crt'),
      },
      https: { ca: pem('other-ca.crt') },
    });
    try {
      const [b1] = cluster.brokers;
      await waitUntil(
        'broker 4 registered',
        async () => {
          const brokers = await request(b1.url, 'GET', `/v3/clusters/${cid}/brokers`, { client: 'admin' });
          return brokers.body.data.some((broker: { broker_id: number }) => broker.broker_id === 4);
        },
        15_000,
      );
      const created = await request(b1.url, 'POST', `/v3/clusters/${cid}/topics`, {
        client: 'admin',
        body: {
          topic_name: 'strangers',
          partitions_count: 4,
          replication_factor: 3,
          configs: [{ name: 'min.insync.replicas', value: '2' }],
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const listed = await request(b1.url, 'GET', '/topics/strangers/partitions', { client: 'admin' });
      const followedByRogue = (
        listed.body as Array<{ partition: number; leader: number; replicas: Array<{ broker: number }> }>
      )
        .filter((p) => p.leader !== 4 && p.replicas.some((replica) => replica.broker === 4))
        .map((p) => ({ partition: p.partition, leader: cluster.broker(p.leader) }));
      expect(followedByRogue.length).toBeGreaterThan(0);
      for (const { partition, leader } of followedByRogue) {
        // acks=all succeeds once the leader has dropped broker 4 from the ISR (it never fetches)
        const produced = await request(leader.url, 'POST', `/v3/clusters/${cid}/topics/strangers/records?acks=all`, {
          client: 'admin',
          body: { partition_id: partition, value: { type: 'STRING', data: 'not for broker 4' } },
        });
        expect(produced.status, JSON.stringify(produced.body)).toBe(200);
        await waitUntil(
          `broker 4 out of the ISR of strangers-${partition}`,
          async () => {
            const state = await request(leader.url, 'GET', `/topics/strangers/partitions/${partition}`, {
              client: 'admin',
            });
            const replicas = state.body.replicas as Array<{ broker: number; in_sync: boolean }>;
            return replicas.some((replica) => replica.broker === 4 && !replica.in_sync);
          },
          10_000,
        );
        const replica = await request(rogue.url, 'GET', `/internal/v1/partitions/strangers/${partition}/replica`, {
          client: 'rogue',
          ca: 'other-ca',
          headers: { [SECRET_HEADER]: cluster.secret },
        });
        expect(replica.status, JSON.stringify(replica.body)).toBe(200);
        expect(replica.body.log_end_offset).toBe(0);
      }
    } finally {
      await rogue.stop();
    }
  });
});
