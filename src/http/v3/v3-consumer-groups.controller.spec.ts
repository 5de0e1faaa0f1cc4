import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConsumerGroupsService } from '../../application/consumer-groups/consumer-groups.service.js';
import { Authorizer } from '../../security/authorizer.service.js';
import { CLUSTER_ID, expectRejected, restTestApp, type RestTestApp } from '../../../test/support/rest-test-app.js';
import { V3ConsumerGroupsController } from './v3-consumer-groups.controller.js';

// Brook's offsets:reset at the controller tier: the body's failures are 400 with error_code 40002, but an
// unreadable timestamp is 400 with error_code 400 (as a timestamp query parameter is); a valid body reaches the
// service as sent. The lag route's partition id is parsed by its path pipe.

const calls: unknown[][] = [];
const groups = {
  resetOffsets: async (_cluster: string, group: string, body: unknown) => {
    calls.push(['reset', group, JSON.parse(JSON.stringify(body))]);
    return { data: [] };
  },
  lag: async (_cluster: string, group: string, topic: string, partition: number) => {
    calls.push(['lag', group, topic, partition]);
    return {};
  },
};

let app: RestTestApp;
beforeAll(async () => {
  app = await restTestApp(
    [V3ConsumerGroupsController],
    [
      { provide: ConsumerGroupsService, useValue: groups },
      { provide: Authorizer, useValue: { authorize: () => true } },
    ],
  );
});
afterAll(() => app?.close());
beforeEach(() => {
  calls.length = 0;
});

const GROUP = `/v3/clusters/${CLUSTER_ID}/consumer-groups/g`;

describe('POST .../offsets:reset', () => {
  it.each([
    [{}, 'to must be earliest, latest, offset or timestamp.'],
    [{ to: 'EARLIEST' }, 'to must be earliest, latest, offset or timestamp.'],
    [{ to: 'earliest', dry_run: 'no' }, 'dry_run must be true or false.'],
    [{ to: 'offset' }, 'offset must be a non-negative integer when to is offset.'],
    [{ to: 'offset', offset: -1 }, 'offset must be a non-negative integer when to is offset.'],
    [{ to: 'timestamp' }, 'timestamp (epoch ms or RFC 3339) is required when to is timestamp.'],
    [{ to: 'latest', topics: 't' }, 'topics must be an array.'],
    [{ to: 'latest', topics: [{ topic_name: '' }] }, 'topics[0].topic_name must be a topic name.'],
    [{ to: 'latest', topics: [{ topic_name: 't', partitions: [0, -1] }] }, 'topics[0].partitions[1] must be'],
  ])('answers 400 40002 for %j', async (body, message) => {
    expectRejected(await app.http.post(`${GROUP}/offsets:reset`).send(body), 400, 40002, message);
    expect(calls).toEqual([]);
  });

  it('answers 400 400 for a timestamp that is neither epoch milliseconds nor RFC 3339', async () => {
    const response = await app.http.post(`${GROUP}/offsets:reset`).send({ to: 'timestamp', timestamp: 'yesterday' });
    expectRejected(
      response,
      400,
      400,
      "timestamp must be epoch milliseconds or an RFC 3339 date-time, got 'yesterday'.",
    );
    expect(calls).toEqual([]);
  });

  it('hands a valid body to the service as sent', async () => {
    const body = { to: 'timestamp', timestamp: '2026-01-01T00:00:00Z', topics: [{ topic_name: 't', partitions: [1] }] };
    expect((await app.http.post(`${GROUP}/offsets:reset`).send(body)).status).toBe(200);
    expect(calls).toEqual([['reset', 'g', body]]);
  });
});

describe('GET .../lags/{topic}/partitions/{partition_id}', () => {
  it('answers 400 400 for a partition id that is not an integer, and passes a parsed one', async () => {
    expectRejected(
      await app.http.get(`${GROUP}/lags/t/partitions/1e3`),
      400,
      400,
      "partition_id must be an integer, got '1e3'.",
    );
    expect((await app.http.get(`${GROUP}/lags/t/partitions/3`)).status).toBe(200);
    expect(calls).toEqual([['lag', 'g', 't', 3]]);
  });
});
