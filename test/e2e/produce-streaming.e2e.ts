// Streaming produce as Confluent's clients read it, and v3 writes without a body: a chunked POST of records to
// `.../records` is answered by one delivery report per line (CRLF after each), each written before the client sends
// its next record, so that a line reader (Python's readline, Java's BufferedReader) gets every report as it happens;
// an empty body, streamed or not, is Confluent's 422 42206 and appends nothing.
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { brokerForSuite } from './support/broker-process.js';
import { call, expectError } from './support/http.js';
import { validateResponse } from './support/openapi-validator.js';

const C = '/v3/clusters/{cluster_id}';
const T = `${C}/topics/{topic_name}`;
/** The longest a report may take to arrive once its record is sent (a generous bound on a shared machine). */
const REPORT_WAIT_MS_MAX = 10_000;
const EMPTY_BODY_MESSAGE = 'Payload error. Request body is empty. Data is required.';

const suite = brokerForSuite();

async function createTopic(name: string): Promise<void> {
  const response = await call(suite.url, 'POST', `/v3/clusters/${suite.clusterId}/topics`, {
    body: { topic_name: name, partitions_count: 1 },
  });
  expect(response.status, response.text).toBe(201);
}

function streamingRequest(topic: string): ClientRequest {
  return request(new URL(`${suite.url}/v3/clusters/${suite.clusterId}/topics/${topic}/records`), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
  });
}

function responseOf(req: ClientRequest): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
}

/** Reads a response line by line; next() fails when no line comes within REPORT_WAIT_MS_MAX. */
function lineReader(response: IncomingMessage): { next: () => Promise<string>; raw: () => string } {
  let raw = '';
  response.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
  const lines = createInterface({ input: response, crlfDelay: Infinity })[Symbol.asyncIterator]();
  return {
    raw: () => raw,
    next: async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no line within ${REPORT_WAIT_MS_MAX} ms`)), REPORT_WAIT_MS_MAX);
      });
      try {
        const line = await Promise.race([lines.next(), timeout]);
        if (line.done === true) throw new Error('the response ended before the expected line');
        return line.value;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

const record = (i: number) => JSON.stringify({ value: { type: 'STRING', data: `line ${i}` } });

describe('streaming produce receipts', () => {
  it('answers each record with a CRLF-terminated report that arrives before the next record is sent', async () => {
    await createTopic('ps-lines');
    const req = streamingRequest('ps-lines');
    const answered = responseOf(req);
    req.write(record(0));
    const response = await answered;
    expect(response.statusCode).toBe(200);
    expect(response.headers['transfer-encoding']).toBe('chunked');
    const reader = lineReader(response);
    const reports: Array<{ offset: number; error_code: number }> = [];
    for (let i = 0; i < 4; i++) {
      // The report of record i is read before record i + 1 is written.
      const report = JSON.parse(await reader.next()) as { offset: number; error_code: number };
      validateResponse('POST', `${T}/records`, 200, report);
      reports.push(report);
      if (i < 3) req.write(record(i + 1));
    }
    req.end();
    await new Promise((resolve) => response.once('end', resolve));
    expect(reports.map((r) => [r.error_code, r.offset])).toEqual([
      [200, 0],
      [200, 1],
      [200, 2],
      [200, 3],
    ]);
    expect(reader.raw()).toBe(reports.map((r) => `${JSON.stringify(r)}\r\n`).join(''));
    // the raw head keeps the headers the request pipeline set (the request id, CORS)
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('reports a malformed record on its own line and goes on with the next', async () => {
    await createTopic('ps-malformed');
    const req = streamingRequest('ps-malformed');
    const answered = responseOf(req);
    req.write('{"value": {"type": "NOPE", "data": 1}}');
    const reader = lineReader(await answered);
    const failure = JSON.parse(await reader.next()) as { error_code: number; message: string };
    expect(failure.error_code).toBeGreaterThanOrEqual(400);
    expect(typeof failure.message).toBe('string');
    req.write(record(1));
    const report = JSON.parse(await reader.next()) as { offset: number; error_code: number };
    expect([report.error_code, report.offset]).toEqual([200, 0]);
    req.end();
  });
});

describe('v3 writes without a body', () => {
  it('refuses an empty produce body, sent with a length or streamed, and appends nothing', async () => {
    await createTopic('ps-empty');
    const path = `/v3/clusters/${suite.clusterId}/topics/ps-empty/records`;
    const plain = await call(suite.url, 'POST', path, { rawBody: '', spec: `${T}/records` });
    expectError(plain, 422, 42206, EMPTY_BODY_MESSAGE);
    const req = streamingRequest('ps-empty');
    const answered = responseOf(req);
    req.end('\r\n');
    const streamed = await answered;
    let text = '';
    for await (const chunk of streamed) text += (chunk as Buffer).toString('utf8');
    expect(streamed.statusCode).toBe(422);
    expect(JSON.parse(text)).toEqual({ error_code: 42206, message: EMPTY_BODY_MESSAGE });
    const offsets = await call(suite.url, 'GET', `/v3/clusters/${suite.clusterId}/topics/ps-empty/partitions/0/offset`);
    expect(offsets.body.latest_offset).toBe(0);
  });
});

describe('v3 writes without a body, other than produce', () => {
  it('answer 422 42206 before anything is changed', async () => {
    await createTopic('ps-writes');
    const c = `/v3/clusters/${suite.clusterId}`;
    const writes: Array<[string, string, string]> = [
      ['POST', `${c}/topics`, `${C}/topics`],
      ['PATCH', `${c}/topics/ps-writes`, `${T}`],
      ['POST', `${c}/topics/ps-writes/configs:alter`, `${T}/configs:alter`],
      ['PUT', `${c}/topics/ps-writes/configs/retention.ms`, `${T}/configs/{name}`],
      ['POST', `${c}/topics/ps-writes/records:batch`, `${T}/records:batch`],
      ['POST', `${c}/acls`, `${C}/acls`],
      ['PUT', `${c}/client-quotas/User:alice`, `${C}/client-quotas/{entity}`],
      ['POST', `${c}/topics/-/partitions/-/reassignment`, `${C}/topics/-/partitions/-/reassignment`],
      ['POST', `${c}/topics/-/partitions/-/leader-election`, `${C}/topics/-/partitions/-/leader-election`],
      ['POST', `${c}/consumer-groups/g/offsets:reset`, `${C}/consumer-groups/{consumer_group_id}/offsets:reset`],
    ];
    for (const [method, path, spec] of writes) {
      expectError(await call(suite.url, method, path, { rawBody: '', spec }), 422, 42206, EMPTY_BODY_MESSAGE);
    }
    const topic = await call(suite.url, 'GET', `${c}/topics/ps-writes`);
    expect(topic.body.partitions_count).toBe(1);
    const retention = await call(suite.url, 'GET', `${c}/topics/ps-writes/configs/retention.ms`);
    expect(retention.body.is_default).toBe(true);
  });
});
