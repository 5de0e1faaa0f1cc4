// ACL administration over the Kafka listener (DescribeAcls, CreateAcls, DeleteAcls) with kafkajs' admin client,
// against a broker with the authorizer on (secured-broker.ts): the bindings are the ones REST's
// /v3/clusters/{c}/acls routes store and list, both ways; Brook's SUBJECT bindings stay out of Kafka's sight and
// reach; an ACL created over Kafka is enforced on the next request; a principal without ALTER / DESCRIBE on the
// cluster is refused.
import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  Kafka,
  logLevel,
  ResourcePatternTypes,
  type Admin,
} from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, C, SecuredBroker } from './support/secured-broker.js';

let secured: SecuredBroker;

const kafkaAs = (username: string, password: string) =>
  new Kafka({
    clientId: 'e2e-acls',
    brokers: [secured.broker!.kafkaBootstrap],
    sasl: { mechanism: 'plain', username, password },
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
  });

async function withAdmin<T>(username: string, password: string, run: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafkaAs(username, password).admin();
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.disconnect();
  }
}

const asAdmin = <T>(run: (admin: Admin) => Promise<T>) => withAdmin('admin', 'admin-secret', run);

const ANY_FILTER = {
  resourceType: AclResourceTypes.ANY,
  resourcePatternType: ResourcePatternTypes.ANY,
  operation: AclOperationTypes.ANY,
  permissionType: AclPermissionTypes.ANY,
};

async function restAcls(query = ''): Promise<Array<Record<string, string>>> {
  const response = await secured.as(ADMIN, 'GET', `/v3/clusters/{c}/acls${query}`, { spec: `${C}/acls` });
  expect(response.status, response.text).toBe(200);
  return (response.body.data as Array<Record<string, string>>).map(
    ({ resource_type, resource_name, pattern_type, principal, host, operation, permission }) => ({
      resource_type,
      resource_name,
      pattern_type,
      principal,
      host,
      operation,
      permission,
    }),
  );
}

beforeAll(async () => {
  secured = await SecuredBroker.create();
  await secured.createTopic('b');
  await secured.acl('POST', {
    resource_type: 'SUBJECT',
    resource_name: 'a-value',
    pattern_type: 'LITERAL',
    principal: 'User:alice',
    host: '*',
    operation: 'READ',
    permission: 'ALLOW',
  });
});
afterAll(async () => {
  await secured?.stop();
});

describe('ACLs over the Kafka listener', () => {
  it('lists the bindings REST stored, without the SUBJECT one', async () => {
    const described = await asAdmin((admin) => admin.describeAcls(ANY_FILTER));
    const flat = described.resources.flatMap((resource) =>
      resource.acls.map((acl) => ({ type: resource.resourceType, name: resource.resourceName, ...acl })),
    );
    expect(flat).toHaveLength(3);
    expect(flat).toEqual(
      expect.arrayContaining([
        {
          type: AclResourceTypes.TOPIC,
          name: 'a',
          principal: 'User:alice',
          host: '*',
          operation: AclOperationTypes.READ,
          permissionType: AclPermissionTypes.ALLOW,
        },
        expect.objectContaining({ type: AclResourceTypes.GROUP, name: 'ga', operation: AclOperationTypes.READ }),
      ]),
    );
    expect(described.resources.find((resource) => resource.resourceName === 'a')?.acls).toHaveLength(2);
  });

  it('creates bindings REST then sees, and enforces them on the next request', async () => {
    const produceAsAlice = async () => {
      const producer = kafkaAs('alice', 'alice-secret').producer();
      await producer.connect();
      try {
        await producer.send({ topic: 'b', messages: [{ value: 'from alice' }] });
      } finally {
        await producer.disconnect();
      }
    };
    await expect(produceAsAlice()).rejects.toThrow(/authoriz/i);
    await asAdmin((admin) =>
      admin.createAcls({
        acl: [AclOperationTypes.WRITE, AclOperationTypes.DESCRIBE].map((operation) => ({
          resourceType: AclResourceTypes.TOPIC,
          resourceName: 'b',
          resourcePatternType: ResourcePatternTypes.PREFIXED,
          principal: 'User:alice',
          host: '*',
          operation,
          permissionType: AclPermissionTypes.ALLOW,
        })),
      }),
    );
    expect(await restAcls('?resource_name=b')).toEqual(
      expect.arrayContaining(
        ['WRITE', 'DESCRIBE'].map((operation) => ({
          resource_type: 'TOPIC',
          resource_name: 'b',
          pattern_type: 'PREFIXED',
          principal: 'User:alice',
          host: '*',
          operation,
          permission: 'ALLOW',
        })),
      ),
    );
    await produceAsAlice();
  });

  it('refuses a binding Brook cannot store (INVALID_REQUEST), and answers a MATCH filter as Kafka', async () => {
    await expect(
      asAdmin((admin) =>
        admin.createAcls({
          acl: [
            {
              resourceType: AclResourceTypes.TRANSACTIONAL_ID,
              resourceName: 'tx',
              resourcePatternType: ResourcePatternTypes.LITERAL,
              principal: 'User:alice',
              host: '*',
              operation: AclOperationTypes.WRITE,
              permissionType: AclPermissionTypes.ALLOW,
            },
          ],
        }),
      ),
    ).rejects.toMatchObject({ type: 'INVALID_REQUEST' });
    const matched = await asAdmin((admin) =>
      admin.describeAcls({
        ...ANY_FILTER,
        resourceType: AclResourceTypes.TOPIC,
        resourceName: 'b-1',
        resourcePatternType: ResourcePatternTypes.MATCH,
      }),
    );
    expect(matched.resources.map((resource) => [resource.resourceName, resource.resourcePatternType])).toEqual([
      ['b', ResourcePatternTypes.PREFIXED],
    ]);
  });

  it('refuses a principal without rights on the cluster', async () => {
    await expect(withAdmin('alice', 'alice-secret', (admin) => admin.describeAcls(ANY_FILTER))).rejects.toThrow(
      /authoriz/i,
    );
    await expect(
      withAdmin('alice', 'alice-secret', (admin) => admin.deleteAcls({ filters: [ANY_FILTER] })),
    ).rejects.toThrow(/authoriz/i);
    expect(await restAcls()).toHaveLength(6);
    expect(secured.auditLines()).toContainEqual(
      expect.objectContaining({ event: 'authorization.denied', protocol: 'kafka', api: 'DescribeAcls' }),
    );
  });

  it('deletes what a filter matches, answers it, and leaves the SUBJECT binding to REST', async () => {
    const deleted = await asAdmin((admin) =>
      admin.deleteAcls({ filters: [{ ...ANY_FILTER, principal: 'User:alice' }] }),
    );
    expect(deleted.filterResponses).toHaveLength(1);
    expect(deleted.filterResponses[0].errorCode).toBe(0);
    expect(deleted.filterResponses[0].matchingAcls).toHaveLength(5);
    expect(await restAcls()).toEqual([
      {
        resource_type: 'SUBJECT',
        resource_name: 'a-value',
        pattern_type: 'LITERAL',
        principal: 'User:alice',
        host: '*',
        operation: 'READ',
        permission: 'ALLOW',
      },
    ]);
    const described = await asAdmin((admin) => admin.describeAcls(ANY_FILTER));
    expect(described.resources).toEqual([]);
  });
});
