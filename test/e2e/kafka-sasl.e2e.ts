// SASL/PLAIN on the Kafka listener of a broker with authentication and the authorizer on (secured-broker.ts: the
// super user admin, alice with READ and DESCRIBE on topic `a`): users of REST's users file authenticate with kcat
// and kafkajs under the same passwords, are the same principals under the same ACLs, and a wrong password or no
// authentication at all gets no further than ApiVersions and the SASL requests.
import { Kafka, logLevel, type SASLOptions } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADVERTISED_VERSIONS } from '../../src/kafka/handler-table.js';
import { kcat, kcatAvailable } from '../support/kafka/kcat.js';
import { KafkaWire } from './support/kafka-wire.js';
import { SecuredBroker } from './support/secured-broker.js';

let secured: SecuredBroker;
const bootstrap = () => secured.broker!.kafkaBootstrap;

const kafkaAs = (sasl: SASLOptions) =>
  new Kafka({
    clientId: 'e2e-sasl',
    brokers: [bootstrap()],
    sasl,
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
  });

const kcatAs = (user: string, password: string) => [
  ...['-b', bootstrap(), '-X', 'security.protocol=sasl_plaintext', '-X', 'sasl.mechanisms=PLAIN'],
  ...['-X', `sasl.username=${user}`, '-X', `sasl.password=${password}`],
];

beforeAll(async () => {
  secured = await SecuredBroker.create();
  await secured.produce('a', ['one', 'two']);
});
afterAll(async () => {
  await secured?.stop();
});

describe('SASL/PLAIN on the Kafka listener', () => {
  it('advertises SaslHandshake v0-1 and SaslAuthenticate v0-2', () => {
    expect(ADVERTISED_VERSIONS.filter((range) => range.name.startsWith('Sasl'))).toEqual([
      { apiKey: 17, name: 'SaslHandshake', minVersion: 0, maxVersion: 1 },
      { apiKey: 36, name: 'SaslAuthenticate', minVersion: 0, maxVersion: 2 },
    ]);
  });

  it.runIf(kcatAvailable)('lets kcat read as a user of the users file, under her ACLs', async () => {
    const consumed = await kcat([...kcatAs('alice', 'alice-secret'), '-C', '-t', 'a', '-o', 'beginning', '-e']);
    expect(consumed.code, consumed.stderr).toBe(0);
    expect(consumed.stdout.trim().split('\n')).toEqual(['"one"', '"two"']);
  });

  it('lets a kafkajs super user create and produce, and refuses alice what her ACLs do not grant', async () => {
    const admin = kafkaAs({ mechanism: 'plain', username: 'admin', password: 'admin-secret' }).admin();
    await admin.connect();
    try {
      expect(await admin.createTopics({ topics: [{ topic: 'sasl-created', numPartitions: 1 }] })).toBe(true);
    } finally {
      await admin.disconnect();
    }
    const produceAs = async (username: string, password: string) => {
      const producer = kafkaAs({ mechanism: 'plain', username, password }).producer();
      await producer.connect();
      try {
        await producer.send({ topic: 'a', messages: [{ value: `from ${username}` }] });
      } finally {
        await producer.disconnect();
      }
    };
    await produceAs('admin', 'admin-secret');
    await expect(produceAs('alice', 'alice-secret')).rejects.toThrow(/authoriz/i);
  });

  it('refuses a wrong password with SASL_AUTHENTICATION_FAILED and an audit line', async () => {
    const producer = kafkaAs({ mechanism: 'plain', username: 'alice', password: 'wrong' }).producer();
    await expect(producer.connect()).rejects.toThrow(/SASL|authentication/i);
    await producer.disconnect();
    const lines = secured.auditLines().filter((line) => line.event === 'authentication.failed');
    expect(lines).toContainEqual(
      expect.objectContaining({ protocol: 'kafka', principal: 'User:alice', api: 'SaslAuthenticate' }),
    );
  });

  it('answers ApiVersions before authentication and closes a connection that asks for more', async () => {
    const wire = await KafkaWire.open(secured.broker!.kafkaPort);
    const versions = await wire.call('ApiVersions', 3, { clientSoftwareName: 'e2e', clientSoftwareVersion: '1' });
    expect(versions.errorCode).toBe(0);
    wire.send('Metadata', 12, {
      topics: null,
      allowAutoTopicCreation: false,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    });
    expect(await wire.closedByBroker()).toBe(true);
  });

  it('takes the bare token that follows a v0 handshake (KIP-43) and closes on a wrong one', async () => {
    const bareToken = (password: string) => {
      const token = Buffer.from(`\0alice\0${password}`, 'utf8');
      const size = Buffer.alloc(4);
      size.writeInt32BE(token.length, 0);
      return Buffer.concat([size, token]);
    };
    const metadata = {
      topics: [{ topicId: '00000000-0000-0000-0000-000000000000', name: 'a' }],
      allowAutoTopicCreation: false,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    };
    const good = await KafkaWire.open(secured.broker!.kafkaPort);
    try {
      expect(await good.call('SaslHandshake', 0, { mechanism: 'PLAIN' })).toEqual({
        errorCode: 0,
        mechanisms: ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'],
      });
      good.writeRaw(bareToken('alice-secret'));
      expect(await good.nextFrame()).toEqual(Buffer.alloc(4));
      const answer = await good.call('Metadata', 12, metadata);
      expect(answer.topics.map((topic) => [topic.name, topic.errorCode])).toEqual([['a', 0]]);
    } finally {
      good.close();
    }
    const bad = await KafkaWire.open(secured.broker!.kafkaPort);
    expect((await bad.call('SaslHandshake', 0, { mechanism: 'PLAIN' })).errorCode).toBe(0);
    bad.writeRaw(bareToken('wrong'));
    expect(await bad.closedByBroker()).toBe(true);
  });

  it('refuses a mechanism it does not serve, naming those it does, and closes the connection', async () => {
    const wire = await KafkaWire.open(secured.broker!.kafkaPort);
    expect(await wire.call('SaslHandshake', 1, { mechanism: 'OAUTHBEARER' })).toEqual({
      errorCode: 33,
      mechanisms: ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'],
    });
    expect(await wire.closedByBroker()).toBe(true);
  });
});
