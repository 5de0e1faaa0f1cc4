import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ReplicaAdminService } from '../../application/admin/replica-admin.service.js';
import { CLUSTER_ID, expectRejected, restTestApp, type RestTestApp } from '../../../test/support/rest-test-app.js';
import { V3ReplicaAdminController } from './v3-replica-admin.controller.js';

// Reassignments and leader elections at the controller tier: every body failure is 400 with error_code 40002,
// a bad partition id in the path 400 with error_code 400, and a valid body reaches the service as sent.

const calls: unknown[][] = [];
const replicaAdmin = {
  alter: async (body: unknown) => {
    calls.push(['alter', JSON.parse(JSON.stringify(body))]);
    return { data: [] };
  },
  elect: async (body: unknown) => {
    calls.push(['elect', JSON.parse(JSON.stringify(body))]);
    return { data: [] };
  },
  get: async (topic: string, partition: number) => {
    calls.push(['get', topic, partition]);
    return {};
  },
};

let app: RestTestApp;
beforeAll(async () => {
  app = await restTestApp([V3ReplicaAdminController], [{ provide: ReplicaAdminService, useValue: replicaAdmin }]);
});
afterAll(() => app?.close());
beforeEach(() => {
  calls.length = 0;
});

const PARTITIONS = `/v3/clusters/${CLUSTER_ID}/topics/-/partitions/-`;

describe('POST .../partitions/-/reassignment', () => {
  it.each([
    [{}, 'partitions must be an array.'],
    [{ partitions: [[]] }, 'partitions[0] must be a JSON object.'],
    [
      { partitions: [{ topic_name: 't', replicas: [1] }] },
      'partitions[0].partition_id must be a non-negative integer.',
    ],
    [{ partitions: [{ partition_id: 0, replicas: [1] }] }, 'partitions[0].topic_name must be a non-empty string.'],
    [{ partitions: [{ partition_id: 0, topic_name: 't' }] }, 'partitions[0].replicas must be an array of broker ids'],
    [
      { partitions: [{ partition_id: 0, topic_name: 't', replicas: [1, -2] }] },
      'partitions[0].replicas must be broker',
    ],
  ])('answers 400 40002 for %j', async (body, message) => {
    expectRejected(await app.http.post(`${PARTITIONS}/reassignment`).send(body), 400, 40002, message);
    expect(calls).toEqual([]);
  });

  it('hands targets and cancellations to the service', async () => {
    const body = {
      partitions: [
        { topic_name: 't', partition_id: 0, replicas: [1, 2] },
        { topic_name: 't', partition_id: 1, replicas: null },
      ],
    };
    expect((await app.http.post(`${PARTITIONS}/reassignment`).send(body)).status).toBe(202);
    expect(calls).toEqual([['alter', body]]);
  });
});

describe('POST .../partitions/-/leader-election', () => {
  it.each([
    [{}, 'election_type must be PREFERRED or UNCLEAN.'],
    [{ election_type: 'preferred' }, 'election_type must be PREFERRED or UNCLEAN.'],
    [{ election_type: 'PREFERRED', partitions: {} }, 'partitions must be an array.'],
    [{ election_type: 'PREFERRED', partitions: [{ topic_name: 't', partition_id: 'x' }] }, 'partition_id must be'],
  ])('answers 400 40002 for %j', async (body, message) => {
    expectRejected(await app.http.post(`${PARTITIONS}/leader-election`).send(body), 400, 40002, message);
    expect(calls).toEqual([]);
  });

  it('hands an election of every partition (no partitions) to the service', async () => {
    expect((await app.http.post(`${PARTITIONS}/leader-election`).send({ election_type: 'UNCLEAN' })).status).toBe(200);
    expect(calls).toEqual([['elect', { election_type: 'UNCLEAN' }]]);
  });
});

describe('GET .../partitions/{partition_id}/reassignment', () => {
  it('answers 400 400 for a partition id that is not an integer, and passes a parsed one', async () => {
    expectRejected(
      await app.http.get(`/v3/clusters/${CLUSTER_ID}/topics/t/partitions/one/reassignment`),
      400,
      400,
      "partition_id must be an integer, got 'one'.",
    );
    expect((await app.http.get(`/v3/clusters/${CLUSTER_ID}/topics/t/partitions/2/reassignment`)).status).toBe(200);
    expect(calls).toEqual([['get', 't', 2]]);
  });
});
