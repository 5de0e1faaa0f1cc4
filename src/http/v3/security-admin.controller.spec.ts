import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import { AclStore } from '../../security/acl-store.service.js';
import { QuotaManager } from '../../security/quota-manager.service.js';
import { CLUSTER_ID, expectRejected, restTestApp, type RestTestApp } from '../../../test/support/rest-test-app.js';
import { AclController } from './acl.controller.js';
import { ACL_BATCH_MAX } from './acls.dto.js';
import { QuotaController } from './quota.controller.js';

// The ACL and client-quota routes at the controller tier: every body, query and entity failure is 400 with
// error_code 40002, and a valid request reaches the store with its enums upper-cased and its defaults filled.

const calls: unknown[][] = [];
const acls = {
  all: () => [],
  create: async (binding: unknown) => void calls.push(['createAcl', binding]),
  createAll: async (bindings: unknown) => void calls.push(['createAcls', bindings]),
  search: (filter: unknown) => (calls.push(['searchAcls', JSON.parse(JSON.stringify(filter))]), []),
  delete: async () => [],
};
const quotas = {
  all: () => new Map(),
  put: async (entity: string, values: unknown) => void calls.push(['putQuota', entity, values]),
  delete: async () => true,
};

let app: RestTestApp;
beforeAll(async () => {
  app = await restTestApp(
    [AclController, QuotaController],
    [
      { provide: BROKER_CONFIG, useValue: { advertisedUrl: 'http://broker' } },
      { provide: AclStore, useValue: acls },
      { provide: QuotaManager, useValue: quotas },
    ],
  );
});
afterAll(() => app?.close());
beforeEach(() => {
  calls.length = 0;
});

const C = `/v3/clusters/${CLUSTER_ID}`;
const ACL = {
  resource_type: 'topic',
  resource_name: 'orders',
  principal: 'User:alice',
  operation: 'read',
  permission: 'allow',
};

describe('POST .../acls', () => {
  it.each([
    [{ ...ACL, resource_type: 'TABLE' }, 'resource_type must be one of'],
    [{ ...ACL, resource_name: '' }, 'resource_name must be a string of 1 to 255 characters.'],
    [{ ...ACL, resource_type: 'CLUSTER' }, 'resource_name of a CLUSTER resource must be kafka-cluster.'],
    [{ ...ACL, principal: 'alice' }, 'principal must look like User:<name>'],
    [{ ...ACL, host: '' }, 'host must be * or an IP address.'],
    [{ ...ACL, operation: undefined }, 'operation must be one of'],
    [{ ...ACL, permission: 'maybe' }, 'permission must be one of'],
    [
      { ...ACL, resource_type: 'subject', operation: 'create' },
      'operation of a SUBJECT resource must be one of ALL, READ, WRITE, DELETE, DESCRIBE, ALTER_CONFIGS.',
    ],
  ])('answers 400 40002 for %j', async (body, message) => {
    expectRejected(await app.http.post(`${C}/acls`).send(body), 400, 40002, message);
    expect(calls).toEqual([]);
  });

  it("stores the schema registry's SUBJECT bindings, literal and prefixed, with the operations the registry checks", async () => {
    for (const operation of ['read', 'WRITE', 'delete', 'DESCRIBE', 'alter_configs', 'ALL']) {
      const body = { ...ACL, resource_type: 'subject', pattern_type: 'prefixed', operation };
      expect((await app.http.post(`${C}/acls`).send(body)).status).toBe(201);
    }
    expect(calls.map(([, binding]) => binding)).toEqual(
      ['READ', 'WRITE', 'DELETE', 'DESCRIBE', 'ALTER_CONFIGS', 'ALL'].map((operation) =>
        expect.objectContaining({ resource_type: 'SUBJECT', pattern_type: 'PREFIXED', operation }),
      ),
    );
  });

  it('stores the binding upper-cased, host * and pattern LITERAL by default', async () => {
    expect((await app.http.post(`${C}/acls`).send(ACL)).status).toBe(201);
    expect(calls).toEqual([
      [
        'createAcl',
        {
          resource_type: 'TOPIC',
          resource_name: 'orders',
          pattern_type: 'LITERAL',
          principal: 'User:alice',
          host: '*',
          operation: 'READ',
          permission: 'ALLOW',
        },
      ],
    ]);
  });
});

describe('POST .../acls:batch', () => {
  it.each([
    [[], 'The request body must be a JSON object.'],
    [{ acls: [] }, 'data must be an array.'],
    [{ data: [ACL, 'read'] }, 'data[1] must be a JSON object.'],
    [{ data: [ACL, { ...ACL, operation: 'fly' }] }, 'data[1].operation must be one of'],
    [{ data: Array.from({ length: ACL_BATCH_MAX + 1 }, () => ACL) }, `At most ${ACL_BATCH_MAX} ACLs in one batch.`],
  ])('refuses the whole batch with 400 40002 for %#', async (body, message) => {
    expectRejected(await app.http.post(`${C}/acls:batch`).send(body), 400, 40002, message);
    expect(calls).toEqual([]);
  });

  it('stores every binding of data in one call, upper-cased with the defaults filled', async () => {
    const response = await app.http.post(`${C}/acls:batch`).send({ data: [ACL, { ...ACL, operation: 'describe' }] });
    expect(response.status).toBe(201);
    const binding = {
      resource_type: 'TOPIC',
      resource_name: 'orders',
      pattern_type: 'LITERAL',
      principal: 'User:alice',
      host: '*',
      permission: 'ALLOW',
    };
    expect(calls).toEqual([
      [
        'createAcls',
        [
          { ...binding, operation: 'READ' },
          { ...binding, operation: 'DESCRIBE' },
        ],
      ],
    ]);
  });
});

describe('GET .../acls (search)', () => {
  it('answers 400 40002 for a bad filter or a repeated parameter', async () => {
    expectRejected(await app.http.get(`${C}/acls?operation=fly`), 400, 40002, 'operation must be one of');
    expectRejected(
      await app.http.get(`${C}/acls?principal=a&principal=b`),
      400,
      40002,
      'principal must be one string.',
    );
    expect(calls).toEqual([]);
  });

  it('hands the filter to the store, upper-cased', async () => {
    expect((await app.http.get(`${C}/acls?resource_type=any&principal=User:bob`)).status).toBe(200);
    expect(calls).toEqual([['searchAcls', { resource_type: 'ANY', principal: 'User:bob' }]]);
  });
});

describe('PUT .../client-quotas/{entity}', () => {
  it.each([
    [{}, 'Give at least one of producer_byte_rate, consumer_byte_rate, request_rate.'],
    [{ producer_byte_rate: null }, 'Give at least one of'],
    [{ fetch_rate: 5 }, "Unknown quota 'fetch_rate'"],
    [{ producer_byte_rate: 0 }, 'producer_byte_rate must be a positive number'],
    [{ request_rate: '10' }, 'request_rate must be a positive number'],
  ])('answers 400 40002 for %j', async (body, message) => {
    expectRejected(await app.http.put(`${C}/client-quotas/User:alice`).send(body), 400, 40002, message);
    expect(calls).toEqual([]);
  });

  it('answers 400 40002 for an entity that is neither User:<name> nor <default>', async () => {
    const response = await app.http.put(`${C}/client-quotas/alice`).send({ request_rate: 5 });
    expectRejected(response, 400, 40002, 'The entity must be User:<name> or <default>.');
  });

  it('stores the quotas given, leaving out the null ones', async () => {
    const body = { producer_byte_rate: 1024, request_rate: null };
    expect((await app.http.put(`${C}/client-quotas/${encodeURIComponent('<default>')}`).send(body)).status).toBe(200);
    expect(calls).toEqual([['putQuota', '<default>', { producer_byte_rate: 1024 }]]);
  });
});
