// TLS on the public listener with certificates the test generates (openssl): HTTPS with a certificate the client
// verifies against the test CA, plain HTTP refused on that port, produce and read over HTTPS; and client
// certificates (BROOK_TLS_CA) as credentials: User:<common name>, checked by the ACLs like any principal, while a
// missing certificate or one from another CA is 401.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { TestCertificates } from './support/certificates.js';
import { validateResponse } from './support/openapi-validator.js';
import { call } from './support/http.js';

const dir = mkdtempSync(join(tmpdir(), 'brook-tls-'));
const pem = (name: string) => readFileSync(join(dir, name));
let broker: BrokerProcess;
let cid: string;

/** A CA, and certificates it signs: `name` with common name `cn` (and SANs for a server certificate). */
function generateCertificates(): void {
  const certificates = new TestCertificates(dir);
  certificates.ca('ca', 'Brook Test CA');
  certificates.ca('other-ca', 'Other CA');
  certificates.sign(
    'server',
    'localhost',
    'ca',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  certificates.sign('admin', 'admin', 'ca', 'extendedKeyUsage=clientAuth\n');
  certificates.sign('alice', 'alice', 'ca', 'extendedKeyUsage=clientAuth\n');
  certificates.sign('mallory', 'admin', 'other-ca', 'extendedKeyUsage=clientAuth\n');
}

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function request(method: string, path: string, options: { client?: string; body?: unknown; spec?: string } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = httpsRequest(
      `${broker.url}${path}`,
      {
        method,
        ca: pem('ca.crt'),
        ...(options.client ? { cert: pem(`${options.client}.crt`), key: pem(`${options.client}.key`) } : {}),
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const parsed = text ? (JSON.parse(text) as unknown) : undefined;
          if (options.spec) validateResponse(method, options.spec, response.statusCode!, parsed);
          resolve({ status: response.statusCode!, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  generateCertificates();
  broker = await BrokerProcess.start({
    env: {
      BROOK_TLS_CERT: join(dir, 'server.crt'),
      BROOK_TLS_KEY: join(dir, 'server.key'),
      BROOK_TLS_CA: join(dir, 'ca.crt'),
      BROOK_AUTHORIZER_ENABLE: 'true',
      BROOK_SUPER_USERS: 'User:admin',
    },
    https: { ca: pem('ca.crt') },
  });
  cid = (await request('GET', '/v3/clusters', { client: 'admin' })).body.data[0].cluster_id;
});
afterAll(async () => {
  await broker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('TLS', () => {
  it('serves HTTPS with the configured certificate, advertises https URLs, and refuses plain HTTP', async () => {
    const cluster = await request('GET', `/v3/clusters/${cid}`, { client: 'admin', spec: '/v3/clusters/{cluster_id}' });
    expect(cluster.status).toBe(200);
    expect(cluster.body.metadata.self).toBe(`https://127.0.0.1:${broker.port}/v3/clusters/${cid}`);
    await expect(call(`http://127.0.0.1:${broker.port}`, 'GET', '/healthz')).rejects.toThrow();
    // a client that does not trust the test CA refuses the server
    await expect(
      new Promise((resolve, reject) => httpsRequest(`${broker.url}/healthz`, resolve).on('error', reject).end()),
    ).rejects.toThrow(/self[- ]signed|unable to verify|certificate/i);
  });

  it('authenticates client certificates signed by BROOK_TLS_CA as User:<common name>', async () => {
    const create = (client?: string) =>
      request('POST', `/v3/clusters/${cid}/topics`, {
        client,
        body: { topic_name: `tls-${client}`, partitions_count: 1 },
        spec: '/v3/clusters/{cluster_id}/topics',
      });
    expect((await create()).status).toBe(401);
    expect((await create('mallory')).status).toBe(401); // CN=admin, but from another CA
    const alice = await create('alice');
    expect(alice.status).toBe(403);
    expect(alice.body.message).toMatch(/User:alice is not authorized to CREATE/);
    expect((await create('admin')).status).toBe(201);
  });

  it('produces and reads records over HTTPS', async () => {
    const records = `/v3/clusters/${cid}/topics/tls-admin/records`;
    const produced = await request('POST', records, {
      client: 'admin',
      body: { value: { type: 'STRING', data: 'over tls' } },
      spec: '/v3/clusters/{cluster_id}/topics/{topic_name}/records',
    });
    expect(produced.status).toBe(200);
    const read = await request(
      'GET',
      `/v3/clusters/${cid}/topics/tls-admin/partitions/0/records?offset=0&format=string`,
      {
        client: 'admin',
        spec: '/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}/records',
      },
    );
    expect(read.body.records.map((r: { value: string }) => r.value)).toEqual(['over tls']);
  });
});
