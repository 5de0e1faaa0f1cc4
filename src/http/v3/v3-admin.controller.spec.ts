import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdminService } from '../../application/admin/admin.service.js';
import {
  TopicAdminService,
  type AlterConfigsBody,
  type CreateTopicBody,
} from '../../application/admin/topic-admin.service.js';
import { PartitionRouter } from '../../replication/partition-router.service.js';
import { Authorizer } from '../../security/authorizer.service.js';
import { CLUSTER_ID, expectRejected, restTestApp, type RestTestApp } from '../../../test/support/rest-test-app.js';
import { V3AdminController } from './v3-admin.controller.js';

// The v3 admin routes at the controller tier: each DTO's 400s (error_code 40002 for bodies, 400 for the path and
// query), the cluster guard's 404 before any of them, and what reaches the services behind a valid request.

/** What the routes hand the write side, recorded. */
class RecordingTopicAdmin implements Pick<
  TopicAdminService,
  'create' | 'addPartitions' | 'alterConfigs' | 'setConfig' | 'deleteConfig' | 'deleteTopic'
> {
  readonly calls: unknown[][] = [];
  async create(body: CreateTopicBody) {
    this.calls.push(['create', { ...body }]);
    return { topic_name: body.topic_name } as never;
  }
  async addPartitions(topic: string, count: number) {
    this.calls.push(['addPartitions', topic, count]);
    return { topic_name: topic } as never;
  }
  async alterConfigs(topic: string, body: AlterConfigsBody) {
    this.calls.push(['alterConfigs', topic, JSON.parse(JSON.stringify(body))]);
  }
  async setConfig(topic: string, name: string, value: string) {
    this.calls.push(['setConfig', topic, name, value]);
  }
  async deleteConfig(topic: string, name: string) {
    this.calls.push(['deleteConfig', topic, name]);
  }
  async deleteTopic(topic: string) {
    this.calls.push(['deleteTopic', topic]);
  }
}

const topicAdmin = new RecordingTopicAdmin();
const fakeAdmin = {
  topicOrThrow: (topic: string) => ({ topic }),
  partitionOrThrow: (topic: string) => ({ topic }),
  partition: (_metadata: unknown, partition: number) => ({ partition_id: partition }),
  replicas: (_topic: string, partition: number) => ({ partition }),
  partitionOffsets: (_topic: string, partition: number, offsets: object) => ({ partition, ...offsets }),
  brokerById: (brokerId: number) => ({ broker_id: brokerId }),
  replica: (_topic: string, partition: number, brokerId: number) => ({ partition, broker_id: brokerId }),
  topics: (includeInternal: boolean) => ({ include_internal: includeInternal, data: [] }),
};
const fakeRouter = { offsets: async () => ({ earliest: 0, latest: 5 }) };

let app: RestTestApp;
beforeAll(async () => {
  app = await restTestApp(
    [V3AdminController],
    [
      { provide: AdminService, useValue: fakeAdmin },
      { provide: TopicAdminService, useValue: topicAdmin },
      { provide: PartitionRouter, useValue: fakeRouter },
      { provide: Authorizer, useValue: { authorize: () => true } },
    ],
  );
});
afterAll(() => app?.close());

const C = `/v3/clusters/${CLUSTER_ID}`;

beforeEach(() => {
  topicAdmin.calls.length = 0;
});

describe('the cluster guard', () => {
  it('answers 404 (error_code 404) for another cluster id before the body is looked at', async () => {
    expectRejected(
      await app.http.post('/v3/clusters/other/topics').send({ topic_name: 5 }),
      404,
      404,
      'Cluster other cannot be found.',
    );
    expect(topicAdmin.calls).toEqual([]);
  });
});

describe('topic bodies: 400 with error_code 40002', () => {
  it.each([
    [{ topic_name: 5 }, 'topic_name must be a non-empty string.'],
    [{}, 'topic_name must be a non-empty string.'],
    [{ topic_name: 't', partitions_count: '3' }, 'partitions_count must be an integer.'],
    [{ topic_name: 't', replication_factor: 1.5 }, 'replication_factor must be an integer.'],
    [{ topic_name: 't', validate_only: 'yes' }, 'validate_only must be true or false.'],
    [{ topic_name: 't', configs: {} }, 'configs must be an array.'],
    [{ topic_name: 't', configs: [{ name: 'a' }, 3] }, 'configs[1] must be a JSON object.'],
    [{ topic_name: 't', configs: [{ name: '' }] }, 'configs[0].name must be a non-empty string.'],
    [{ topic_name: 't', configs: [{ name: 'a', value: 1 }] }, 'configs[0].value must be a string.'],
  ])('POST .../topics %j', async (body, message) => {
    expectRejected(await app.http.post(`${C}/topics`).send(body), 400, 40002, message);
    expect(topicAdmin.calls).toEqual([]);
  });

  it('refuses a body that is not a JSON object, or none', async () => {
    expectRejected(await app.http.post(`${C}/topics`).send([]), 400, 40002, 'The request body must be a JSON object.');
    expectRejected(await app.http.post(`${C}/topics`), 400, 40002, 'The request body must be a JSON object.');
  });

  it('PATCH partitions_count must be given as an integer', async () => {
    expectRejected(await app.http.patch(`${C}/topics/t`).send({}), 400, 40002, 'partitions_count is required.');
    expectRejected(
      await app.http.patch(`${C}/topics/t`).send({ partitions_count: '4' }),
      400,
      40002,
      'must be an integer.',
    );
    expect(topicAdmin.calls).toEqual([]);
  });

  it('hands a valid create and partition change to the service', async () => {
    const created = await app.http.post(`${C}/topics`).send({ topic_name: 't', configs: [{ name: 'a' }] });
    expect(created.status, created.text).toBe(201);
    expect((await app.http.patch(`${C}/topics/t`).send({ partitions_count: 4 })).status).toBe(200);
    expect(topicAdmin.calls).toEqual([
      ['create', { topic_name: 't', configs: [{ name: 'a' }] }],
      ['addPartitions', 't', 4],
    ]);
  });
});

describe('config bodies: 400 with error_code 40002', () => {
  it.each([
    [{}, 'data must be an array.'],
    [{ data: [{ name: 'a', operation: 'set' }] }, 'data[0].operation must be SET or DELETE.'],
    [{ data: [{ operation: 'DELETE' }] }, 'data[0].name must be a non-empty string.'],
    [{ data: [], validate_only: 1 }, 'validate_only must be true or false.'],
  ])('POST .../configs:alter %j', async (body, message) => {
    expectRejected(await app.http.post(`${C}/topics/t/configs:alter`).send(body), 400, 40002, message);
  });

  it('PUT .../configs/{name} needs a string value', async () => {
    expectRejected(
      await app.http.put(`${C}/topics/t/configs/a`).send({ value: 3 }),
      400,
      40002,
      'value must be a string.',
    );
    expect((await app.http.put(`${C}/topics/t/configs/a`).send({ value: '3' })).status).toBe(204);
    expect(topicAdmin.calls).toEqual([['setConfig', 't', 'a', '3']]);
  });
});

describe('path ids and queries: 400 with error_code 400', () => {
  it.each([
    [`${C}/topics/t/partitions/x`, "partition_id must be an integer, got 'x'."],
    [`${C}/topics/t/partitions/-1/replicas`, 'partition_id must be an integer from 0'],
    [`${C}/brokers/b`, "broker_id must be an integer, got 'b'."],
    [`${C}/topics/t/partitions/0/offset?offset_type=first`, "offset_type must be earliest_and_latest, got 'first'."],
    [`${C}/topics/t/partitions/0/replicas/b`, "broker_id must be an integer, got 'b'."],
    [`${C}/brokers/-2/partition-replicas`, 'broker_id must be an integer from 0'],
    [`${C}/topics?include_internal=yes`, "include_internal must be true or false, got 'yes'."],
    [`${C}/topics?include_internal=true&include_internal=false`, 'include_internal must be true or false'],
  ])('GET %s', async (path, message) => {
    expectRejected(await app.http.get(path), 400, 400, message);
  });

  it('passes parsed ids to the services', async () => {
    expect((await app.http.get(`${C}/brokers/2`)).body).toEqual({ broker_id: 2 });
    expect((await app.http.get(`${C}/topics/t/partitions/3/offset?offset_type=earliest_and_latest`)).body).toEqual({
      partition: 3,
      earliest: 0,
      latest: 5,
    });
    expect((await app.http.get(`${C}/topics/t/partitions/1/replicas/2`)).body).toEqual({ partition: 1, broker_id: 2 });
  });

  it('lists internal topics only with include_internal=true', async () => {
    const listed = async (query: string) => (await app.http.get(`${C}/topics${query}`)).body.include_internal;
    expect(await listed('')).toBe(false);
    expect(await listed('?include_internal=')).toBe(false);
    expect(await listed('?include_internal=false')).toBe(false);
    expect(await listed('?include_internal=true')).toBe(true);
  });
});
