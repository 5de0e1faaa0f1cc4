import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConsumerInstances } from '../../application/consumer-instances/consumer-instances.service.js';
import { ReadAccess } from '../../security/read-access.js';
import { expectRejected, restTestApp, type RestTestApp } from '../../../test/support/rest-test-app.js';
import { V2ConsumerController } from './v2-consumer.controller.js';

// REST Proxy v2 consumer instances at the controller tier: the ValidationPipe's answers for each body and query
// (Confluent's 422 42204 for a bad instance config, 422 42206 for a bad field, 400 40002 for a body that is not
// an object, 409 40901 for topics with a pattern, 400 400 for a bad query), and what reaches the service behind a
// valid request. A rejected request reaches nothing.

/** What the routes hand the service, recorded. */
class RecordingInstances {
  calls: unknown[][] = [];
  async create(group: string, body: object) {
    this.calls.push(['create', group, { ...body }]);
    return { instance_id: 'i', base_uri: 'http://x/consumers/g/instances/i' };
  }
  async subscribe(group: string, instance: string, body: object) {
    this.calls.push(['subscribe', group, instance, { ...body }]);
  }
  async assign(group: string, instance: string, partitions: unknown) {
    this.calls.push(['assign', group, instance, partitions]);
  }
  async seek(group: string, instance: string, offsets: unknown) {
    this.calls.push(['seek', group, instance, offsets]);
  }
  async seekToEdge(group: string, instance: string, partitions: unknown, edge: string) {
    this.calls.push(['seekToEdge', group, instance, partitions, edge]);
  }
  async commit(group: string, instance: string, offsets: unknown) {
    this.calls.push(['commit', group, instance, offsets]);
  }
  committed(group: string, instance: string, partitions: unknown) {
    this.calls.push(['committed', group, instance, partitions]);
    return [];
  }
  async poll(group: string, instance: string, options: { timeoutMs: number | null; maxBytes: number | null }) {
    this.calls.push(['poll', group, instance, { timeoutMs: options.timeoutMs, maxBytes: options.maxBytes }]);
    return [];
  }
  format() {
    return 'binary' as const;
  }
}

const instances = new RecordingInstances();
const access = { forReader: () => () => true, mayDescribe: () => true };

let app: RestTestApp;
beforeAll(async () => {
  app = await restTestApp(
    [V2ConsumerController],
    [
      { provide: ConsumerInstances, useValue: instances },
      { provide: ReadAccess, useValue: access },
    ],
  );
});
afterAll(() => app?.close());
beforeEach(() => {
  instances.calls = [];
});

const I = '/consumers/g/instances/i';

describe('POST /consumers/{group} (create an instance)', () => {
  it.each([
    [{ name: 'a b' }, /^name must be 1 to 200 characters/],
    [{ name: '..' }, "name must not be '.' or '..'"],
    [{ id: '.' }, "name must not be '.' or '..'"],
    [{ format: 'xml' }, 'format must be one of binary, json, avro, jsonschema, protobuf.'],
    [{ format: 'AVRO' }, 'format must be one of binary, json, avro, jsonschema, protobuf.'],
    [{ 'auto.offset.reset': 'first' }, 'auto.offset.reset must be earliest, latest or none.'],
    [{ 'auto.commit.enable': 'yes' }, 'auto.commit.enable must be true or false.'],
    [{ 'fetch.min.bytes': -1 }, 'fetch.min.bytes must be a non-negative integer.'],
    [[], 'The request body must be a JSON object.'],
  ])('answers 422 42204 for %j', async (body, message) => {
    const response = await app.http.post('/consumers/g').send(body as object);
    expectRejected(response, 422, 42204, message);
    expect(instances.calls).toEqual([]);
  });

  it('takes no body as an empty one, and hands a valid body to the service as sent', async () => {
    expect((await app.http.post('/consumers/g')).status).toBe(200);
    const body = { name: 'c-1', format: 'json', 'auto.commit.enable': 'false', 'fetch.min.bytes': '10' };
    expect((await app.http.post('/consumers/g').send(body)).status).toBe(200);
    expect(instances.calls).toEqual([
      ['create', 'g', {}],
      ['create', 'g', body],
    ]);
  });
});

describe('POST .../subscription', () => {
  it('answers 409 40901 for topics with a pattern', async () => {
    const response = await app.http.post(`${I}/subscription`).send({ topics: ['a'], topic_pattern: 'a.*' });
    expectRejected(response, 409, 40901, 'mutually exclusive');
  });

  it.each([
    [{}, 'The subscription needs topics'],
    [{ topics: [] }, 'The subscription needs topics'],
    [{ topics: ['a', ''] }, 'The subscription needs topics'],
    [{ topic_pattern: 5 }, 'topic_pattern must be a string.'],
    [{ topic_pattern: null }, 'topic_pattern must be a string.'],
  ])('answers 422 42206 for %j', async (body, message) => {
    expectRejected(await app.http.post(`${I}/subscription`).send(body), 422, 42206, message);
  });

  it('answers 400 40002 for a body that is not an object', async () => {
    expectRejected(await app.http.post(`${I}/subscription`).send([1]), 400, 40002, 'must be a JSON object.');
    expect(instances.calls).toEqual([]);
  });

  it('hands topics to the service', async () => {
    expect((await app.http.post(`${I}/subscription`).send({ topics: ['a', 'b'] })).status).toBe(204);
    expect(instances.calls).toEqual([['subscribe', 'g', 'i', { topics: ['a', 'b'] }]]);
  });
});

describe('partition lists: assignments and positions', () => {
  it.each([
    ['assignments', { partitions: 'p' }, 400, 40002, 'partitions must be an array.'],
    ['assignments', { partitions: [1] }, 400, 40002, 'partitions[0] must be a JSON object.'],
    ['assignments', { partitions: [{ topic: 't', partition: -1 }] }, 422, 42206, 'partitions[0].partition must be'],
    ['assignments', { partitions: [{ topic: '', partition: 0 }] }, 422, 42206, 'partitions[0].topic must be'],
    ['positions/beginning', { partitions: [{ topic: 't', partition: 1.5 }] }, 422, 42206, 'partition must be'],
    ['positions', { offsets: [{ topic: 't', partition: 0, offset: '3' }] }, 422, 42206, 'offsets[0].offset must be'],
    ['positions', { offsets: [{ topic: 't', partition: 0, offset: 3, metadata: 1 }] }, 422, 42206, 'metadata'],
    ['offsets', { offsets: [{ topic: 't', partition: 0 }] }, 422, 42206, 'offsets[0].offset must be'],
  ])('POST .../%s %j answers %i %i', async (route, body, status, code, message) => {
    expectRejected(await app.http.post(`${I}/${route}`).send(body), status, code, message);
    expect(instances.calls).toEqual([]);
  });

  it('hands the partitions and offsets to the service, without the fields it does not read', async () => {
    const partitions = [{ topic: 't', partition: 1, extra: true }];
    expect((await app.http.post(`${I}/assignments`).send({ partitions })).status).toBe(204);
    expect((await app.http.post(`${I}/positions/end`).send({ partitions })).status).toBe(204);
    const offsets = [{ topic: 't', partition: 1, offset: 7, metadata: 'm' }];
    expect((await app.http.post(`${I}/positions`).send({ offsets })).status).toBe(204);
    expect((await app.http.post(`${I}/offsets`).send({ offsets })).status).toBe(200);
    expect((await app.http.post(`${I}/offsets`).send({ offsets: [] })).status).toBe(200);
    expect(instances.calls).toEqual([
      ['assign', 'g', 'i', [{ topic: 't', partition: 1 }]],
      ['seekToEdge', 'g', 'i', [{ topic: 't', partition: 1 }], 'end'],
      ['seek', 'g', 'i', offsets],
      ['commit', 'g', 'i', offsets],
      ['commit', 'g', 'i', null],
    ]);
  });
});

describe('queries', () => {
  it.each([
    ['records?timeout=abc', "timeout must be an integer, got 'abc'."],
    ['records?max_bytes=0', 'max_bytes must be an integer from 1'],
    ['offsets?partition=nocolon', "partition must look like topic:partition, got 'nocolon'."],
    ['offsets?partition=t:x', "partition must be an integer, got 'x'."],
  ])('GET .../%s answers 400 400', async (path, message) => {
    expectRejected(await app.http.get(`${I}/${path}`), 400, 400, message);
    expect(instances.calls).toEqual([]);
  });

  it('converts valid query text to numbers and partitions', async () => {
    expect((await app.http.get(`${I}/records?timeout=20&max_bytes=100`)).status).toBe(200);
    expect((await app.http.get(`${I}/offsets?partition=a:b:1&partition=c:2`)).status).toBe(200);
    expect(instances.calls).toEqual([
      ['poll', 'g', 'i', { timeoutMs: 20, maxBytes: 100 }],
      [
        'committed',
        'g',
        'i',
        [
          { topic: 'a:b', partition: 1 },
          { topic: 'c', partition: 2 },
        ],
      ],
    ]);
  });
});
