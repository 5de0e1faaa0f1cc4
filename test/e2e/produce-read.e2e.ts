// Produce (v3 single, batch, streaming) and Brook's stateless read end to end; every JSON answer is validated
// against openapi.yaml. The v2 produce and metadata routes are in v2-produce-read.e2e.ts.
import { request } from 'node:http';
import { Partitioners } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as RecordBatch from '../../src/partition-log/record-batch.js';
import { call, expectError } from './support/http.js';
import { validateResponse } from './support/openapi-validator.js';
import {
  b64,
  cid,
  createTopic,
  produce,
  read,
  startRecordsBroker,
  stopRecordsBroker,
  T,
  url,
} from './support/records-broker.js';

beforeAll(startRecordsBroker);
afterAll(stopRecordsBroker);

/** Splits concatenated JSON objects ("{..}{..}") into parsed values. */
function splitConcatenated(text: string): unknown[] {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') {
      if (depth++ === 0) start = i;
    } else if (ch === '}' && --depth === 0) out.push(JSON.parse(text.slice(start, i + 1)));
  }
  return out;
}

describe('v3 produce and stateless read', () => {
  beforeAll(async () => {
    await createTopic('pr-formats', 1);
    await createTopic('pr-keys', 6);
  });

  it('produces BINARY, JSON and STRING keys and values with headers, and reads them back in each format', async () => {
    const ts = '2026-01-02T03:04:05.678Z';
    const records = [
      { key: { type: 'BINARY', data: b64('k-bin') }, value: { type: 'BINARY', data: b64('v-bin') } },
      { key: { type: 'JSON', data: { id: 7 } }, value: { type: 'JSON', data: { action: 'login', n: [1, 2] } } },
      { key: { type: 'STRING', data: 'k-str' }, value: { type: 'STRING', data: 'héllo' } },
    ];
    const reports = [];
    for (const record of records) {
      const response = await produce('pr-formats', {
        ...record,
        headers: [
          { name: 'trace', value: b64('abc') },
          { name: 'empty', value: null },
        ],
        timestamp: ts,
      });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({
        error_code: 200,
        cluster_id: cid,
        topic_name: 'pr-formats',
        partition_id: 0,
        key: { type: record.key.type },
        value: { type: record.value.type },
      });
      reports.push(response.body);
    }
    expect(reports.map((r) => r.offset)).toEqual([0, 1, 2]);
    expect(reports[0].value.size).toBe(5);
    expect(reports[2].value.size).toBe(Buffer.byteLength('héllo'));

    const binary = await read('pr-formats', 0, 'offset=0');
    expect(binary.status).toBe(200);
    expect(binary.body.next_offset).toBe(3);
    expect(binary.body.high_watermark).toBe(3);
    expect(binary.body.records.map((r: { key: string }) => r.key)).toEqual([
      b64('k-bin'),
      b64(JSON.stringify({ id: 7 })),
      b64('k-str'),
    ]);
    expect(binary.body.records[0].value).toBe(b64('v-bin'));
    for (const [i, record] of binary.body.records.entries()) {
      expect(record).toMatchObject({ partition: 0, offset: i, timestamp: Date.parse(ts) });
      expect(record.headers).toEqual([
        { name: 'trace', value: b64('abc') },
        { name: 'empty', value: null },
      ]);
    }

    const json = await read('pr-formats', 0, 'offset=1&format=json');
    expect(json.body.records.map((r: { key: unknown; value: unknown }) => [r.key, r.value])).toEqual([
      [{ id: 7 }, { action: 'login', n: [1, 2] }],
      ['k-str', 'héllo'],
    ]);
    const text = await read('pr-formats', 0, 'offset=0&format=string');
    expect(text.body.records.map((r: { value: unknown }) => r.value)).toEqual([
      'v-bin',
      JSON.stringify({ action: 'login', n: [1, 2] }),
      'héllo',
    ]);
    expectError(await read('pr-formats', 0, 'format=xml'), 400, 400);
  });

  it('places keyed records where the Java/kafkajs default partitioner does, and honours an explicit partition', async () => {
    const partitioner = Partitioners.DefaultPartitioner();
    const partitionMetadata = Array.from({ length: 6 }, (_, partitionId) => ({
      partitionErrorCode: 0,
      partitionId,
      leader: 1,
      replicas: [1],
      isr: [1],
      offlineReplicas: [],
    }));
    for (const key of ['alpha', 'beta', 'gamma', 'user-42', 'x', '0123456789']) {
      const expected = partitioner({ topic: 'pr-keys', partitionMetadata, message: { key, value: 'v' } });
      const response = await produce('pr-keys', {
        key: { type: 'STRING', data: key },
        value: { type: 'STRING', data: 'v' },
      });
      expect(response.status).toBe(200);
      expect(response.body.partition_id, `key ${key}`).toBe(expected);
    }
    const explicit = await produce('pr-keys', {
      partition_id: 5,
      key: { type: 'STRING', data: 'alpha' },
      value: { type: 'STRING', data: 'p5' },
    });
    expect(explicit.body.partition_id).toBe(5);
    const back = await read('pr-keys', 5, 'from=earliest&format=string');
    expect(back.body.records.at(-1)).toMatchObject({ key: 'alpha', value: 'p5', offset: explicit.body.offset });
    expectError(await produce('pr-keys', { partition_id: 6, value: { type: 'STRING', data: 'x' } }), 404, 40402);
    expectError(await produce('pr-nope', { value: { type: 'STRING', data: 'x' } }), 404, 40401);
  });

  it('records:batch answers 207 with successes and failures', async () => {
    await createTopic('pr-batch', 2);
    const response = await call(url, 'POST', `/v3/clusters/${cid}/topics/pr-batch/records:batch`, {
      body: {
        entries: [
          { id: 'a', partition_id: 0, value: { type: 'STRING', data: 'one' } },
          { id: 'b', partition_id: 9, value: { type: 'STRING', data: 'bad partition' } },
          { id: 'c', partition_id: 0, value: { type: 'BINARY', data: '%%%not-base64' } },
          { id: 'd', partition_id: 1, value: { type: 'JSON', data: [1, 2, 3] } },
        ],
      },
      spec: `${T}/records:batch`,
    });
    expect(response.status, response.text).toBe(207);
    expect(response.body.successes.map((s: { id: string }) => s.id).sort()).toEqual(['a', 'd']);
    expect(response.body.failures.map((f: { id: string }) => f.id).sort()).toEqual(['b', 'c']);
    const b = response.body.failures.find((f: { id: string }) => f.id === 'b');
    expect(b.error_code).toBe(40402);
    const back = await read('pr-batch', 1, 'from=earliest&format=json');
    expect(back.body.records.map((r: { value: unknown }) => r.value)).toEqual([[1, 2, 3]]);
  });

  it('streams: a chunked body of concatenated records gets a chunked stream of reports in order', async () => {
    await createTopic('pr-stream', 1);
    const target = new URL(`${url}/v3/clusters/${cid}/topics/pr-stream/records`);
    const { status, headers, text } = await new Promise<{
      status: number;
      headers: Record<string, unknown>;
      text: string;
    }>((resolve, reject) => {
      const req = request(target, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: body }));
        res.on('error', reject);
      });
      req.on('error', reject);
      (async () => {
        for (let i = 0; i < 5; i++) {
          req.write(JSON.stringify({ value: { type: 'STRING', data: `s${i} {brace} "q"` } }));
          await new Promise((r) => setTimeout(r, 20));
        }
        req.end();
      })().catch(reject);
    });
    expect(status).toBe(200);
    expect(headers['transfer-encoding']).toBe('chunked');
    const reports = splitConcatenated(text) as Array<{ offset: number; error_code: number }>;
    expect(reports).toHaveLength(5);
    for (const report of reports) validateResponse('POST', `${T}/records`, 200, report);
    expect(reports.map((r) => r.offset)).toEqual([0, 1, 2, 3, 4]);
    expect(reports.every((r) => r.error_code === 200)).toBe(true);
    const back = await read('pr-stream', 0, 'offset=0&format=string');
    expect(back.body.records.map((r: { value: string }) => r.value)).toEqual(
      [0, 1, 2, 3, 4].map((i) => `s${i} {brace} "q"`),
    );
  });

  it('accepts acks=0|1|all and rejects acks=2', async () => {
    for (const acks of ['0', '1', 'all']) {
      const response = await produce(
        'pr-formats',
        { value: { type: 'STRING', data: `acks ${acks}` } },
        `?acks=${acks}`,
      );
      expect(response.status, response.text).toBe(200);
    }
    expectError(await produce('pr-formats', { value: { type: 'STRING', data: 'acks 2' } }, '?acks=2'), 400, 400);
  });
});

describe('read positions and limits', () => {
  const T0 = Date.parse('2026-03-01T00:00:00.000Z');
  beforeAll(async () => {
    await createTopic('pr-read', 1);
    for (let i = 0; i < 5; i++) {
      const response = await produce('pr-read', {
        value: { type: 'STRING', data: `r${i}-${'x'.repeat(200)}` },
        timestamp: new Date(T0 + i * 1000).toISOString(),
      });
      expect(response.body.offset).toBe(i);
    }
  });

  it('from=earliest, from=latest, offset', async () => {
    const earliest = await read('pr-read', 0, 'from=earliest');
    expect(earliest.body.records.map((r: { offset: number }) => r.offset)).toEqual([0, 1, 2, 3, 4]);
    const latest = await read('pr-read', 0, 'from=latest');
    expect(latest.body).toMatchObject({ records: [], next_offset: 5, high_watermark: 5 });
    const mid = await read('pr-read', 0, 'offset=3');
    expect(mid.body.records.map((r: { offset: number }) => r.offset)).toEqual([3, 4]);
    expectError(await read('pr-read', 0, 'from=middle'), 400, 400);
    expectError(await read('pr-read', 0, 'from=earliest&offset=1'), 400, 400);
  });

  it('timestamp= in epoch ms and RFC 3339', async () => {
    const epoch = await read('pr-read', 0, `timestamp=${T0 + 1500}`);
    expect(epoch.body.records[0]).toMatchObject({ offset: 2, timestamp: T0 + 2000 });
    const rfc = await read('pr-read', 0, `timestamp=${encodeURIComponent(new Date(T0 + 3000).toISOString())}`);
    expect(rfc.body.records[0]).toMatchObject({ offset: 3, timestamp: T0 + 3000 });
    const beyond = await read('pr-read', 0, `timestamp=${T0 + 100_000}`);
    expect(beyond.body.records).toEqual([]);
    expectError(await read('pr-read', 0, 'timestamp=yesterday'), 400, 400);
  });

  it('max_records and max_bytes bound the answer', async () => {
    const two = await read('pr-read', 0, 'offset=0&max_records=2');
    expect(two.body.records.map((r: { offset: number }) => r.offset)).toEqual([0, 1]);
    expect(two.body.next_offset).toBe(2);
    const small = await read('pr-read', 0, 'offset=0&max_bytes=1');
    expect(small.body.records.length).toBeGreaterThanOrEqual(1);
    expect(small.body.records.length).toBeLessThan(5);
    expect(small.body.next_offset).toBe(small.body.records.length);
    expectError(await read('pr-read', 0, 'offset=0&max_records=0'), 400, 400);
  });

  it('wait_ms long-polls and answers soon after a record arrives', async () => {
    const started = Date.now();
    const pending = read('pr-read', 0, 'offset=5&wait_ms=3000&format=string');
    setTimeout(() => void produce('pr-read', { value: { type: 'STRING', data: 'late' } }), 300);
    const response = await pending;
    const took = Date.now() - started;
    expect(response.body.records.map((r: { value: string }) => r.value)).toEqual(['late']);
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(2500);
  });

  it('serves raw batches with Accept: application/vnd.brook.batches', async () => {
    const { batchesIn, decodeRecords } = (await import(
      '../../dist/partition-log/record-batch.js' as string
    )) as typeof RecordBatch;
    const response = await call(url, 'GET', `/v3/clusters/${cid}/topics/pr-read/partitions/0/records?offset=0`, {
      accept: 'application/vnd.brook.batches',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/vnd.brook.batches');
    expect(response.headers.get('x-brook-high-watermark')).toBe('6');
    const next = Number(response.headers.get('x-brook-next-offset'));
    const bytes = response.raw;
    const records = [...batchesIn(bytes)].flatMap(({ header, position }) =>
      decodeRecords(bytes.subarray(position, position + header.sizeBytes)),
    );
    expect(records.map((r) => r.offset)).toEqual([0, 1, 2, 3, 4, 5].slice(0, records.length));
    expect(records.length).toBeGreaterThanOrEqual(1);
    expect(next).toBe(records.at(-1)!.offset + 1);
    expect(records[0].value?.toString()).toBe(`r0-${'x'.repeat(200)}`);
    expect(records[0].timestamp).toBe(T0);
  });
});
