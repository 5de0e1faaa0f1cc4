// The routes Brook serves are exactly the routes openapi.yaml describes (both ways), read from Nest's
// "Mapped {/path, METHOD} route" start-up lines; and the spec itself is served as YAML and JSON. The
// broker-to-broker routes under /internal/ are not part of the public contract (they need the cluster secret) and
// are left out of both sides.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { specOperations } from './support/openapi-validator.js';
import { call } from './support/http.js';

let broker: BrokerProcess;

beforeAll(async () => {
  broker = await BrokerProcess.start({ logLevel: 'debug' });
});
afterAll(async () => {
  await broker?.stop();
});

function servedOperations(log: string): string[] {
  const operations = new Set<string>();
  // eslint-disable-next-line no-control-regex
  const plain = log.replace(/\x1b\[[0-9;]*m/g, '');
  for (const match of plain.matchAll(/Mapped \{(\S+), (\w+)\} route/g)) {
    if (match[1].startsWith('/internal/')) continue;
    const path = match[1]
      .split('::')
      .map((part) => part.replace(/:(\w+)/g, '{$1}'))
      .join(':');
    operations.add(`${match[2]} ${path}`);
  }
  return [...operations].sort();
}

describe('openapi contract', () => {
  it('the served routes equal the routes in openapi.yaml', () => {
    const served = servedOperations(broker.stdout + broker.stderr);
    expect(served.length).toBeGreaterThan(20);
    const spec = specOperations();
    expect(
      served.filter((op) => !spec.includes(op)),
      'served but not in openapi.yaml',
    ).toEqual([]);
    expect(
      spec.filter((op) => !served.includes(op)),
      'in openapi.yaml but not served',
    ).toEqual([]);
  });

  it('serves openapi.yaml and openapi.json', async () => {
    const file = readFileSync(fileURLToPath(new URL('../../openapi.yaml', import.meta.url)), 'utf8');
    const yaml = await call(broker.url, 'GET', '/openapi.yaml');
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('content-type')).toContain('yaml');
    expect(yaml.text).toBe(file);
    const json = await call(broker.url, 'GET', '/openapi.json');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toContain('application/json');
    expect(json.body).toEqual(parse(file));
  });
});
