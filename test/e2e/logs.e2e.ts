// BROOK_LOG_FORMAT=json: every line the broker writes, on stdout and stderr, is one JSON object (Nest's logs, the
// start-up lines and warnings, the audit log), so log pipelines need no parsing rules; text stays the default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { call } from './support/http.js';

let broker: BrokerProcess;

beforeAll(async () => {
  broker = await BrokerProcess.start({
    logLevel: 'debug',
    // the authorizer without authentication is warned about at start-up
    env: { BROOK_LOG_FORMAT: 'json', BROOK_AUTHORIZER_ENABLE: 'true', BROOK_SUPER_USERS: 'User:ANONYMOUS' },
  });
});
afterAll(async () => {
  await broker?.stop();
});

describe('JSON logs', () => {
  it('writes one JSON object a line, start-up warnings and audit lines included', async () => {
    const cluster = (await call<{ data: Array<{ cluster_id: string }> }>(broker.url, 'GET', '/v3/clusters')).body;
    const created = await call(broker.url, 'POST', `/v3/clusters/${cluster.data[0].cluster_id}/topics`, {
      headers: { 'x-request-id': 'log-test-1' },
      body: { topic_name: 'logged', partitions_count: 1 },
    });
    expect(created.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = `${broker.stdout}${broker.stderr}`
      .split('\n')
      .filter(
        (line) => line.trim().length > 0 && !line.includes('DeprecationWarning') && !line.startsWith('(Use `node'),
      );
    expect(lines.length).toBeGreaterThan(20);
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
    expect(parsed).toContainEqual(expect.objectContaining({ context: 'RouterExplorer', level: 'log' }));
    expect(parsed).toContainEqual(
      expect.objectContaining({ level: 'warn', message: expect.stringMatching(/User:ANONYMOUS/) }),
    );
    expect(parsed).toContainEqual(expect.objectContaining({ message: expect.stringMatching(/listening on/) }));
    expect(parsed).toContainEqual(
      expect.objectContaining({ audit: true, event: 'admin', request_id: 'log-test-1', status: 201 }),
    );
  });
});
