// A cluster with authentication and the authorizer on: the brokers' own traffic (follower fetches, forwarding to
// leaders and to the controller) passes on the cluster secret, not on users' credentials, while users still need
// theirs on every broker.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../src/config/users-file.js';
import { TestCluster, waitUntil } from './support/cluster.js';
import { call } from './support/http.js';

const dir = mkdtempSync(join(tmpdir(), 'brook-cluster-auth-'));
const usersFile = join(dir, 'users');
const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-secret').toString('base64')}` };
let cluster: TestCluster;
let clusterId: string;

beforeAll(async () => {
  await addUser(usersFile, 'admin', 'admin-secret');
  cluster = await TestCluster.start(3, {
    BROOK_AUTH: 'basic',
    BROOK_AUTH_USERS_FILE: usersFile,
    BROOK_AUTHORIZER_ENABLE: 'true',
    BROOK_SUPER_USERS: 'User:admin',
  });
  const clusters = await call(cluster.brokers[0].url, 'GET', '/v3/clusters', { headers: ADMIN });
  clusterId = clusters.body.data[0].cluster_id;
});

afterAll(async () => {
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a cluster with authentication on', () => {
  it('replicates and forwards between brokers while users must authenticate on each of them', async () => {
    const [b1, b2, b3] = cluster.brokers;
    const created = await call(b2.url, 'POST', `/v3/clusters/${clusterId}/topics`, {
      headers: ADMIN,
      body: {
        topic_name: 'guarded',
        partitions_count: 1,
        replication_factor: 3,
        configs: [{ name: 'min.insync.replicas', value: '2' }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const leader = (await call(b1.url, 'GET', '/topics/guarded/partitions/0', { headers: ADMIN })).body.leader;
    const other = cluster.brokers.find((_, index) => index + 1 !== leader)!;
    const produced = await waitUntil(
      'an acks=all produce through a broker that does not lead',
      async () => {
        const answer = await call(other.url, 'POST', `/v3/clusters/${clusterId}/topics/guarded/records?acks=all`, {
          headers: ADMIN,
          body: { value: { type: 'STRING', data: 'kept' } },
        });
        return answer.status === 200 ? answer : null;
      },
      20_000,
    );
    expect(produced.body.offset).toBe(0);
    const read = await call(
      b3.url,
      'GET',
      `/v3/clusters/${clusterId}/topics/guarded/partitions/0/records?offset=0&format=string`,
      {
        headers: ADMIN,
      },
    );
    expect(read.body.records.map((r: { value: string }) => r.value)).toEqual(['kept']);
    const replicas = await call(b1.url, 'GET', `/v3/clusters/${clusterId}/topics/guarded/partitions/0/replicas`, {
      headers: ADMIN,
    });
    expect(replicas.body.data.every((r: { is_in_sync: boolean }) => r.is_in_sync)).toBe(true);

    for (const broker of cluster.brokers) {
      expect((await call(broker.url, 'GET', `/v3/clusters/${clusterId}/topics`)).status).toBe(401);
    }
    expect((await call(b1.url, 'GET', '/internal/v1/status')).status).toBe(401);
  });
});
