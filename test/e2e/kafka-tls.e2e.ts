// The Kafka listener with Brook's TLS settings (BROOK_TLS_CERT/KEY, client certificates from BROOK_TLS_CA) and the
// authorizer on: kcat and kafkajs connect over TLS with the HTTP listener's certificate, a client certificate names
// the principal (User:<common name>) as it does on REST, the same ACLs decide what it may do (a principal refused
// over Kafka is let in by an ACL created over REST), and a plain-TCP client gets no Kafka answer.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kcat, kcatAvailable } from '../support/kafka/kcat.js';
import { BrokerProcess } from './support/broker-process.js';
import { TestCertificates } from './support/certificates.js';
import { KafkaWire } from './support/kafka-wire.js';

const dir = mkdtempSync(join(tmpdir(), 'brook-kafka-tls-'));
const path = (name: string) => join(dir, name);
const pem = (name: string) => readFileSync(path(name));
const TOPIC = 'tls-orders';
let broker: BrokerProcess;

function generateCertificates(): void {
  const certificates = new TestCertificates(dir);
  certificates.ca('ca', 'Brook Test CA');
  certificates.sign(
    'server',
    'localhost',
    'ca',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  certificates.sign('admin', 'admin', 'ca', 'extendedKeyUsage=clientAuth\n');
  certificates.sign('alice', 'alice', 'ca', 'extendedKeyUsage=clientAuth\n');
}

const kafkaAs = (user: string) =>
  new Kafka({
    clientId: `e2e-tls-${user}`,
    brokers: [broker.kafkaBootstrap],
    ssl: { ca: [pem('ca.crt')], cert: pem(`${user}.crt`), key: pem(`${user}.key`) },
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
  });

const kcatTls = (user: string) => [
  ...['-b', broker.kafkaBootstrap, '-X', 'security.protocol=ssl', '-X', `ssl.ca.location=${path('ca.crt')}`],
  ...['-X', `ssl.certificate.location=${path(`${user}.crt`)}`, '-X', `ssl.key.location=${path(`${user}.key`)}`],
];

/** Creates an ACL over REST as the admin (client certificate). */
function allowOverRest(body: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      `${broker.url}/v3/clusters/${clusterId}/acls`,
      {
        method: 'POST',
        ca: pem('ca.crt'),
        cert: pem('admin.crt'),
        key: pem('admin.key'),
        headers: { 'content-type': 'application/json' },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

let clusterId = '';

beforeAll(async () => {
  generateCertificates();
  broker = await BrokerProcess.start({
    env: {
      BROOK_TLS_CERT: path('server.crt'),
      BROOK_TLS_KEY: path('server.key'),
      BROOK_TLS_CA: path('ca.crt'),
      BROOK_AUTHORIZER_ENABLE: 'true',
      BROOK_SUPER_USERS: 'User:admin',
    },
    https: { ca: pem('ca.crt'), cert: pem('admin.crt'), key: pem('admin.key') },
  });
  const admin = kafkaAs('admin').admin();
  await admin.connect();
  try {
    expect(await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 2 }] })).toBe(true);
    clusterId = (await admin.describeCluster()).clusterId;
  } finally {
    await admin.disconnect();
  }
});
afterAll(async () => {
  await broker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the Kafka listener over TLS', () => {
  it.runIf(kcatAvailable)('serves kcat over TLS: keyed records produced and consumed from the beginning', async () => {
    const lines = ['a:1', 'b:2', 'c:3'];
    const produced = await kcat([...kcatTls('admin'), '-P', '-t', TOPIC, '-K', ':'], `${lines.join('\n')}\n`);
    expect(produced.code, produced.stderr).toBe(0);
    const consumed = await kcat([...kcatTls('admin'), '-C', '-t', TOPIC, '-o', 'beginning', '-e', '-f', '%k:%s\\n']);
    expect(consumed.code, consumed.stderr).toBe(0);
    expect(consumed.stdout.trim().split('\n').sort()).toEqual(lines);
  });

  it('authorizes by the client certificate with the ACLs REST manages', async () => {
    const send = async () => {
      const producer = kafkaAs('alice').producer();
      await producer.connect();
      try {
        await producer.send({ topic: TOPIC, messages: [{ key: 'alice', value: 'hello' }] });
      } finally {
        await producer.disconnect();
      }
    };
    await expect(send()).rejects.toThrow(/authoriz/i);
    for (const operation of ['DESCRIBE', 'WRITE']) {
      const status = await allowOverRest({
        resource_type: 'TOPIC',
        resource_name: TOPIC,
        pattern_type: 'LITERAL',
        principal: 'User:alice',
        host: '*',
        operation,
        permission: 'ALLOW',
      });
      expect(status).toBe(201);
    }
    await send();
  });

  it('gives a plain-TCP Kafka client no answer and closes it', async () => {
    const wire = await KafkaWire.open(broker.kafkaPort);
    wire.send('ApiVersions', 3, { clientSoftwareName: 'e2e', clientSoftwareVersion: '1' });
    expect(await wire.nextFrame()).toBeNull();
  });
});
