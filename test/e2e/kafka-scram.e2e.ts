// SASL/SCRAM-SHA-256 and SCRAM-SHA-512 on the Kafka listener, with clients nobody here wrote (kcat's librdkafka,
// kafkajs and @platformatic/kafka, each with its own SCRAM client code), against a broker with authentication and the authorizer on (secured-broker.ts): users whose passwords
// `brook users add` set (which writes SCRAM credentials beside the scrypt hash) authenticate under the same
// passwords as on REST and are the same principals under the same ACLs; a wrong password is refused with an audit
// line; a user whose line predates SCRAM credentials (an old users file) can use PLAIN only.
import { createHash, createHmac, pbkdf2Sync } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { Consumer, Producer, stringDeserializers, stringSerializers } from '@platformatic/kafka';
import { Kafka, logLevel, type SASLOptions } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatEntry, hashPassword } from '../../src/config/users-file.js';
import { kcat, kcatAvailable } from '../support/kafka/kcat.js';
import { BrokerProcess } from './support/broker-process.js';
import { KafkaWire } from './support/kafka-wire.js';
import { SecuredBroker } from './support/secured-broker.js';

let secured: SecuredBroker;
const bootstrap = () => secured.broker!.kafkaBootstrap;
const MECHANISMS = ['SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;

const kafkaAs = (sasl: SASLOptions) =>
  new Kafka({ clientId: 'e2e-scram', brokers: [bootstrap()], sasl, logLevel: logLevel.NOTHING, retry: { retries: 0 } });

const scram = (mechanism: (typeof MECHANISMS)[number], username: string, password: string): SASLOptions =>
  mechanism === 'SCRAM-SHA-256'
    ? { mechanism: 'scram-sha-256', username, password }
    : { mechanism: 'scram-sha-512', username, password };

async function produceAs(sasl: SASLOptions, topic: string, value: string): Promise<void> {
  const producer = kafkaAs(sasl).producer();
  await producer.connect();
  try {
    await producer.send({ topic, messages: [{ value }] });
  } finally {
    await producer.disconnect();
  }
}

beforeAll(async () => {
  secured = await SecuredBroker.create({}, false);
  // dave's line is as a users file written before SCRAM credentials existed: the scrypt hash only
  appendFileSync(secured.usersFile, `${formatEntry(await hashPassword('dave', 'dave-secret', false))}\n`);
  secured.broker = await BrokerProcess.start({ logLevel: 'warn', env: SecuredBroker.env(secured.usersFile) });
  await secured.setUp(secured.broker.url);
  await secured.produce('a', ['one', 'two']);
});
afterAll(async () => {
  await secured?.stop();
});

describe.each(MECHANISMS)('SASL/%s on the Kafka listener', (mechanism) => {
  const kcatAs = (user: string, password: string) => [
    ...['-b', bootstrap(), '-X', 'security.protocol=SASL_PLAINTEXT', '-X', `sasl.mechanisms=${mechanism}`],
    ...['-X', `sasl.username=${user}`, '-X', `sasl.password=${password}`],
  ];

  it.runIf(kcatAvailable)('lets kcat read as a user of the users file, under her ACLs', async () => {
    const consumed = await kcat([...kcatAs('alice', 'alice-secret'), '-C', '-t', 'a', '-o', 'beginning', '-e']);
    expect(consumed.code, consumed.stderr).toBe(0);
    expect(consumed.stdout.trim().split('\n').slice(0, 2)).toEqual(['"one"', '"two"']);
  });

  it.runIf(kcatAvailable)('refuses kcat with a wrong password', async () => {
    const consumed = await kcat([...kcatAs('alice', 'wrong'), '-L', '-m', '5']);
    expect(consumed.code).not.toBe(0);
    expect(consumed.stderr).toMatch(/Authentication failed|SASL|Invalid user name or password/i);
  });

  it('lets a kafkajs super user produce, and refuses alice what her ACLs do not grant', async () => {
    await produceAs(scram(mechanism, 'admin', 'admin-secret'), 'a', `admin over ${mechanism}`);
    await expect(produceAs(scram(mechanism, 'alice', 'alice-secret'), 'a', 'alice')).rejects.toThrow(/authoriz/i);
  });

  it('refuses a kafkajs client with a wrong password, or an unknown user, with an audit line', async () => {
    for (const [username, password] of [
      ['alice', 'wrong'],
      ['nobody', 'whatever'],
    ]) {
      const producer = kafkaAs(scram(mechanism, username, password)).producer();
      await expect(producer.connect()).rejects.toThrow(/SASL|authentication/i);
      await producer.disconnect();
    }
    const lines = secured.auditLines().filter((line) => line.event === 'authentication.failed');
    expect(lines).toContainEqual(
      expect.objectContaining({ protocol: 'kafka', api: 'SaslAuthenticate', principal: 'User:alice' }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ protocol: 'kafka', principal: 'User:nobody' }));
  });

  it('refuses SCRAM to a user without SCRAM credentials, who can still use PLAIN', async () => {
    await produceAs({ mechanism: 'plain', username: 'dave', password: 'dave-secret' }, 'a', 'dave over PLAIN').catch(
      (error: Error) => expect(error.message).toMatch(/authoriz/i),
    );
    const producer = kafkaAs(scram(mechanism, 'dave', 'dave-secret')).producer();
    await expect(producer.connect()).rejects.toThrow(/SASL|authentication/i);
    await producer.disconnect();
    const lines = secured.auditLines().filter((line) => line.event === 'authentication.failed');
    expect(lines).toContainEqual(
      expect.objectContaining({
        protocol: 'kafka',
        principal: 'User:dave',
        reason: expect.stringContaining(`no ${mechanism} credentials`),
      }),
    );
    expect(lines.filter((line) => line.principal === 'User:dave' && !String(line.reason).includes('SCRAM'))).toEqual(
      [],
    );
  });
});

/** The Kafka error names in an error of @platformatic/kafka (its errors nest, one per failed request). */
function protocolErrors(error: unknown): string[] {
  const { apiId, errors } = (error ?? {}) as { apiId?: string; errors?: unknown[] };
  return [...(apiId === undefined ? [] : [apiId]), ...(errors ?? []).flatMap(protocolErrors)];
}

describe.each(MECHANISMS)('@platformatic/kafka 1.35.0 over SASL/%s', (mechanism) => {
  const sasl = (username: string, password: string) => ({ mechanism, username, password });
  const producerAs = (username: string, password: string) =>
    new Producer({
      clientId: 'e2e-scram-platformatic',
      bootstrapBrokers: [bootstrap()],
      sasl: sasl(username, password),
      serializers: stringSerializers,
      retries: 0,
    });

  it('produces as the super user and consumes as alice in her group, under her ACLs', async () => {
    const value = `platformatic over ${mechanism}`;
    const producer = producerAs('admin', 'admin-secret');
    try {
      await producer.send({ messages: [{ topic: 'a', value }] });
    } finally {
      await producer.close();
    }
    const consumer = new Consumer({
      clientId: 'e2e-scram-platformatic',
      groupId: 'ga',
      bootstrapBrokers: [bootstrap()],
      sasl: sasl('alice', 'alice-secret'),
      deserializers: stringDeserializers,
      sessionTimeout: 10_000,
      heartbeatInterval: 500,
    });
    try {
      const stream = await consumer.consume({ topics: ['a'], mode: 'earliest', autocommit: false, maxWaitTime: 300 });
      const received: string[] = [];
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not received; got ${JSON.stringify(received)}`)), 20_000);
        stream.on('error', reject);
        stream.on('data', (message: { value: string }) => {
          received.push(message.value);
          if (message.value === value) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      expect(received.slice(0, 2)).toEqual(['"one"', '"two"']); // produced over REST as JSON
      await stream.close();
    } finally {
      await consumer.close(true);
    }
    // alice may read topic a, not write it: the same principal as on REST, under the same ACLs
    const alice = producerAs('alice', 'alice-secret');
    try {
      const refused = await alice.send({ messages: [{ topic: 'a', value: 'alice' }] }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(protocolErrors(refused)).toContain('TOPIC_AUTHORIZATION_FAILED');
    } finally {
      await alice.close();
    }
  });

  it('is refused with a wrong password, with an audit line', async () => {
    const before = secured.auditLines().length;
    const producer = producerAs('alice', 'not-her-password');
    try {
      const refused = await producer.send({ messages: [{ topic: 'a', value: 'never' }] }).then(
        () => null,
        (error: unknown) => error as Error,
      );
      expect(refused).not.toBeNull();
      expect(JSON.stringify(refused, Object.getOwnPropertyNames(refused)) + String(refused?.cause)).toMatch(
        /SASL|authentication/i,
      );
    } finally {
      await producer.close();
    }
    const lines = secured.auditLines().slice(before);
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: 'authentication.failed',
        protocol: 'kafka',
        api: 'SaslAuthenticate',
        principal: 'User:alice',
      }),
    );
  });
});

describe('SCRAM after a v0 handshake (KIP-43 bare frames)', () => {
  const bare = (token: string) => {
    const size = Buffer.alloc(4);
    size.writeInt32BE(Buffer.byteLength(token), 0);
    return Buffer.concat([size, Buffer.from(token)]);
  };
  /** The client's side of RFC 5802 for SCRAM-SHA-512, written here from the RFC. */
  const clientFinal = (password: string, clientFirstBare: string, serverFirst: string) => {
    const fields = Object.fromEntries(serverFirst.split(',').map((part) => [part[0], part.slice(2)]));
    const salted = pbkdf2Sync(password, Buffer.from(fields.s, 'base64'), Number(fields.i), 64, 'sha512');
    const clientKey = createHmac('sha512', salted).update('Client Key').digest();
    const storedKey = createHash('sha512').update(clientKey).digest();
    const withoutProof = `c=biws,r=${fields.r}`;
    const authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`;
    const signature = createHmac('sha512', storedKey).update(authMessage).digest();
    const proof = Buffer.from(clientKey.map((byte, i) => byte ^ signature[i])).toString('base64');
    const serverKey = createHmac('sha512', salted).update('Server Key').digest();
    const verifier = `v=${createHmac('sha512', serverKey).update(authMessage).digest('base64')}`;
    return { message: `${withoutProof},p=${proof}`, verifier };
  };
  const metadata = {
    topics: [{ topicId: '00000000-0000-0000-0000-000000000000', name: 'a' }],
    allowAutoTopicCreation: false,
    includeClusterAuthorizedOperations: false,
    includeTopicAuthorizedOperations: false,
  };

  it('answers each SCRAM message as a bare frame, and closes on a wrong proof', async () => {
    for (const [password, accepted] of [
      ['alice-secret', true],
      ['wrong', false],
    ] as const) {
      const wire = await KafkaWire.open(secured.broker!.kafkaPort);
      try {
        expect((await wire.call('SaslHandshake', 0, { mechanism: 'SCRAM-SHA-512' })).errorCode).toBe(0);
        const firstBare = 'n=alice,r=e2e-client-nonce';
        wire.writeRaw(bare(`n,,${firstBare}`));
        const serverFirst = (await wire.nextFrame())!.subarray(4).toString('utf8');
        expect(serverFirst).toMatch(/^r=e2e-client-nonce[^,]+,s=[^,]+,i=8192$/);
        const final = clientFinal(password, firstBare, serverFirst);
        wire.writeRaw(bare(final.message));
        if (!accepted) {
          expect(await wire.closedByBroker()).toBe(true);
          continue;
        }
        expect((await wire.nextFrame())!.subarray(4).toString('utf8')).toBe(final.verifier);
        const answer = await wire.call('Metadata', 12, metadata);
        expect(answer.topics.map((topic) => [topic.name, topic.errorCode])).toEqual([['a', 0]]);
      } finally {
        wire.close();
      }
    }
  });
});
