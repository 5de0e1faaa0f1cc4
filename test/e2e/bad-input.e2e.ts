// Hostile and malformed input: every rejection is a Confluent-style error matching openapi.yaml, nothing is appended,
// and the broker keeps serving the records produced before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { call, expectError } from './support/http.js';

const C = '/v3/clusters/{cluster_id}';
const T = `${C}/topics/{topic_name}`;
const P = `${T}/partitions/{partition_id}`;

let broker: BrokerProcess;
let small: BrokerProcess;
let url: string;
let cid: string;
let before: unknown[];

const records = (topic: string) => `/v3/clusters/${cid}/topics/${topic}/records`;
const offsets = async (topic: string, partition = 0) =>
  (
    await call(url, 'GET', `/v3/clusters/${cid}/topics/${topic}/partitions/${partition}/offset`, {
      spec: `${P}/offset`,
    })
  ).body;

beforeAll(async () => {
  [broker, small] = await Promise.all([
    BrokerProcess.start(),
    BrokerProcess.start({ env: { BROOK_SOCKET_REQUEST_MAX_BYTES: '2048' } }),
  ]);
  url = broker.url;
  cid = await broker.clusterId();
  const created = await call(url, 'POST', `/v3/clusters/${cid}/topics`, {
    body: { topic_name: 'bad', partitions_count: 1, configs: [{ name: 'max.message.bytes', value: '1000' }] },
    spec: `${C}/topics`,
  });
  expect(created.status, created.text).toBe(201);
  for (const data of ['first', 'second', 'third']) {
    expect(
      (await call(url, 'POST', records('bad'), { body: { value: { type: 'STRING', data } }, spec: `${T}/records` }))
        .status,
    ).toBe(200);
  }
  before = (
    await call(url, 'GET', `/v3/clusters/${cid}/topics/bad/partitions/0/records?offset=0`, { spec: `${P}/records` })
  ).body.records;
  expect(before).toHaveLength(3);
});
afterAll(async () => {
  await Promise.all([broker?.stop(), small?.stop()]);
});

describe('malformed requests', () => {
  it('malformed JSON is 400', async () => {
    expectError(
      await call(url, 'POST', records('bad'), {
        rawBody: '{"value": {"type": "STRING", "data": "x"',
        spec: `${T}/records`,
      }),
      400,
      400,
    );
    expectError(
      await call(url, 'POST', `/v3/clusters/${cid}/topics`, { rawBody: '{topic_name: x}', spec: `${C}/topics` }),
      400,
      400,
    );
    expectError(
      await call(url, 'POST', '/topics/bad', {
        rawBody: '[1,',
        contentType: 'application/vnd.kafka.json.v2+json',
        spec: '/topics/{topic_name}',
      }),
      400,
      400,
    );
  });

  it('wrong types are 400 or 422', async () => {
    const checks: Array<[string, string, unknown, string]> = [
      ['POST', `/v3/clusters/${cid}/topics`, { topic_name: 'x', partitions_count: 'three' }, `${C}/topics`],
      ['POST', `/v3/clusters/${cid}/topics`, { topic_name: 42 }, `${C}/topics`],
      ['POST', `/v3/clusters/${cid}/topics`, [1, 2], `${C}/topics`],
      ['PATCH', `/v3/clusters/${cid}/topics/bad`, { partitions_count: '9' }, T],
      ['PUT', `/v3/clusters/${cid}/topics/bad/configs/retention.ms`, { value: 5 }, `${T}/configs/{name}`],
      ['POST', records('bad'), { value: { type: 'XML', data: 'x' } }, `${T}/records`],
      ['POST', records('bad'), { value: { type: 'STRING', data: 5 } }, `${T}/records`],
      ['POST', records('bad'), { partition_id: 'zero', value: { type: 'STRING', data: 'x' } }, `${T}/records`],
      ['POST', records('bad'), { headers: 'h', value: { type: 'STRING', data: 'x' } }, `${T}/records`],
      ['POST', records('bad'), { timestamp: 'noon', value: { type: 'STRING', data: 'x' } }, `${T}/records`],
      ['POST', records('bad'), 'just a string', `${T}/records`],
      ['POST', `${records('bad')}:batch`, { entries: 'nope' }, `${T}/records:batch`],
      ['POST', `${records('bad')}:batch`, { entries: [] }, `${T}/records:batch`],
    ];
    for (const [method, path, body, spec] of checks) {
      const response = await call(url, method, path, { body, spec });
      expect([400, 422], `${method} ${path} ${JSON.stringify(body)} → ${response.text}`).toContain(response.status);
      expect(typeof response.body.error_code).toBe('number');
    }
    const v2 = await call(url, 'POST', '/topics/bad', {
      body: { records: [{ value: 5 }] },
      contentType: 'application/vnd.kafka.binary.v2+json',
      spec: '/topics/{topic_name}',
    });
    expectError(v2, 422, 422);
  });

  it('unsupported content type is 415', async () => {
    expectError(
      await call(url, 'POST', records('bad'), { rawBody: 'value=x', contentType: 'text/plain', spec: `${T}/records` }),
      415,
      415,
    );
    expectError(
      await call(url, 'POST', `/v3/clusters/${cid}/topics`, {
        rawBody: '<topic/>',
        contentType: 'application/xml',
        spec: `${C}/topics`,
      }),
      415,
      415,
    );
  });

  it('a v2 request whose Accept admits no v2 answer is 406', async () => {
    expectError(await call(url, 'GET', '/topics', { accept: 'text/html', spec: '/topics' }), 406, 406);
    expectError(
      await call(url, 'POST', '/topics/bad', {
        body: { records: [{ value: 'eA==' }] },
        contentType: 'application/vnd.kafka.binary.v2+json',
        accept: 'text/csv',
        spec: '/topics/{topic_name}',
      }),
      406,
      406,
    );
    const ok = await call(url, 'GET', '/topics', { accept: 'application/vnd.kafka.v2+json', spec: '/topics' });
    expect(ok.status).toBe(200);
  });

  it('a body over socket.request.max.bytes is 413', async () => {
    const smallCid = await small.clusterId();
    expect(
      (
        await call(small.url, 'POST', `/v3/clusters/${smallCid}/topics`, {
          body: { topic_name: 'tiny', partitions_count: 1 },
        })
      ).status,
    ).toBe(201);
    const big = await call(small.url, 'POST', `/v3/clusters/${smallCid}/topics/tiny/records`, {
      body: { value: { type: 'STRING', data: 'y'.repeat(4000) } },
      spec: `${T}/records`,
    });
    expectError(big, 413, 413);
    const fine = await call(small.url, 'POST', `/v3/clusters/${smallCid}/topics/tiny/records`, {
      body: { value: { type: 'STRING', data: 'ok' } },
      spec: `${T}/records`,
    });
    expect(fine.status).toBe(200);
  });

  it('bad base64 is 422', async () => {
    expectError(
      await call(url, 'POST', records('bad'), {
        body: { value: { type: 'BINARY', data: 'not base64!' } },
        spec: `${T}/records`,
      }),
      422,
      42206,
      /base64/,
    );
    expectError(
      await call(url, 'POST', records('bad'), {
        body: { headers: [{ name: 'h', value: '***' }], value: { type: 'STRING', data: 'x' } },
        spec: `${T}/records`,
      }),
      422,
      42206,
      /base64/,
    );
  });

  it('a record over max.message.bytes is rejected with a clear message and nothing is appended', async () => {
    const offsetsBefore = await offsets('bad');
    const response = await call(url, 'POST', records('bad'), {
      body: { value: { type: 'STRING', data: 'z'.repeat(2000) } },
      spec: `${T}/records`,
    });
    expect(response.status, response.text).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.body.message).toMatch(/max\.message\.bytes|too large|larger/i);
    const batch = await call(url, 'POST', `${records('bad')}:batch`, {
      body: { entries: [{ id: 'big', value: { type: 'STRING', data: 'z'.repeat(2000) } }] },
      spec: `${T}/records:batch`,
    });
    expect(batch.status).toBe(207);
    expect(batch.body.successes).toEqual([]);
    expect(batch.body.failures[0].id).toBe('big');
    expect(await offsets('bad')).toEqual(offsetsBefore);
  });

  it('negative or non-numeric offsets and partition ids are 400', async () => {
    const base = `/v3/clusters/${cid}/topics/bad/partitions`;
    expectError(await call(url, 'GET', `${base}/0/records?offset=-1`, { spec: `${P}/records` }), 400, 400, /offset/);
    expectError(await call(url, 'GET', `${base}/0/records?offset=abc`, { spec: `${P}/records` }), 400, 400, /offset/);
    expectError(await call(url, 'GET', `${base}/0/records?offset=1.5`, { spec: `${P}/records` }), 400, 400, /offset/);
    expectError(
      await call(url, 'GET', `${base}/0/records?max_bytes=-5`, { spec: `${P}/records` }),
      400,
      400,
      /max_bytes/,
    );
    expectError(
      await call(url, 'GET', `${base}/0/records?wait_ms=soon`, { spec: `${P}/records` }),
      400,
      400,
      /wait_ms/,
    );
    expectError(await call(url, 'GET', `${base}/-1/records`, { spec: `${P}/records` }), 400, 400, /partition_id/);
    expectError(await call(url, 'GET', `${base}/abc`, { spec: P }), 400, 400, /partition_id/);
    expectError(await call(url, 'GET', `${base}/-1/replicas`, { spec: `${P}/replicas` }), 400, 400, /partition_id/);
    expectError(await call(url, 'GET', `${base}/x/offset`, { spec: `${P}/offset` }), 400, 400, /partition_id/);
    expectError(
      await call(url, 'GET', '/topics/bad/partitions/-1/offsets', {
        spec: '/topics/{topic_name}/partitions/{partition_id}/offsets',
      }),
      400,
      400,
    );
    // a v2 produce route's partition id is checked before its acks
    expectError(
      await call(url, 'POST', '/topics/bad/partitions/abc?acks=maybe', {
        body: { records: [{ value: 'eA==' }] },
        contentType: 'application/vnd.kafka.binary.v2+json',
        spec: '/topics/{topic_name}/partitions/{partition_id}',
      }),
      400,
      400,
      /partition_id/,
    );
    expectError(
      await call(url, 'POST', records('bad'), {
        body: { partition_id: -1, value: { type: 'STRING', data: 'x' } },
        spec: `${T}/records`,
      }),
      422,
      42206,
    );
  });

  it('an invalid UTF-8 body is 400', async () => {
    const body = Buffer.concat([
      Buffer.from('{"value":{"type":"STRING","data":"'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('"}}'),
    ]);
    expectError(await call(url, 'POST', records('bad'), { rawBody: body, spec: `${T}/records` }), 400, 400, /UTF-8/);
  });

  it('an unknown route is 404', async () => {
    const response = await call(url, 'GET', '/v4/nothing/here');
    expect(response.status).toBe(404);
    expect(response.body.error_code).toBe(404);
    expect((await call(url, 'GET', `/v3/clusters/${cid}/nothing`)).status).toBe(404);
  });
});

describe('afterwards', () => {
  it('the broker is healthy and earlier records read back unchanged', async () => {
    expect((await call(url, 'GET', '/healthz', { spec: '/healthz' })).status).toBe(200);
    expect((await call(small.url, 'GET', '/healthz', { spec: '/healthz' })).status).toBe(200);
    const after = await call(url, 'GET', `/v3/clusters/${cid}/topics/bad/partitions/0/records?offset=0`, {
      spec: `${P}/records`,
    });
    expect(after.body.records).toEqual(before);
    expect(after.body.high_watermark).toBe(3);
  });
});
