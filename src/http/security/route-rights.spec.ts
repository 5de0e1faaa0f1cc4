import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROUTE_RIGHTS, specPath, type RouteContext } from './route-rights.js';

const spec = parse(readFileSync(fileURLToPath(new URL('../../../openapi.yaml', import.meta.url)), 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
};
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.keys(item)
    .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map((method) => ({ key: `${method.toUpperCase()} ${path}`, responses: item[method].responses })),
);

const context = (fields: Partial<RouteContext>): RouteContext => ({
  params: {},
  body: undefined,
  query: {},
  instanceTopics: () => ['subscribed'],
  groupTopics: () => ['committed'],
  ...fields,
});

describe('route rights', () => {
  it('has a rule for every operation in openapi.yaml and none for a route that does not exist', () => {
    expect(operations.map((op) => op.key).filter((key) => ROUTE_RIGHTS[key] === undefined)).toEqual([]);
    expect(Object.keys(ROUTE_RIGHTS).filter((key) => !operations.some((op) => op.key === key))).toEqual([]);
  });

  it('documents 401 and 403 on every operation that is not public', () => {
    const undocumented = operations.filter(
      (op) =>
        ROUTE_RIGHTS[op.key] !== 'public' && (op.responses['401'] === undefined || op.responses['403'] === undefined),
    );
    expect(undocumented.map((op) => op.key)).toEqual([]);
  });

  it('needs READ on the group and on every topic a consumer reads or commits', () => {
    const I = 'POST /consumers/{group_name}/instances/{instance}';
    const params = { group_name: 'g', instance: 'i' };
    const rule = (key: string) => ROUTE_RIGHTS[key] as Exclude<(typeof ROUTE_RIGHTS)[string], 'public'>;
    expect(rule(`${I}/subscription`)(context({ params, body: { topics: ['a', 'b', 'a', 7] } }))).toEqual([
      { operation: 'READ', resource: { type: 'GROUP', name: 'g' } },
      { operation: 'READ', resource: { type: 'TOPIC', name: 'a' } },
      { operation: 'READ', resource: { type: 'TOPIC', name: 'b' } },
    ]);
    expect(
      rule(`${I}/offsets`)(context({ params, body: { offsets: [{ topic: 'c', partition: 0, offset: 1 }] } })),
    ).toContainEqual({ operation: 'READ', resource: { type: 'TOPIC', name: 'c' } });
    expect(rule('GET /consumers/{group_name}/instances/{instance}/records')(context({ params }))).toContainEqual({
      operation: 'READ',
      resource: { type: 'TOPIC', name: 'subscribed' },
    });
    expect(
      rule('POST /v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/offsets:reset')(
        context({ params: { consumer_group_id: 'g' }, body: { to: 'earliest' } }),
      ),
    ).toContainEqual({ operation: 'READ', resource: { type: 'TOPIC', name: 'committed' } });
  });

  it('maps Fastify route templates to the spec form', () => {
    expect(specPath('/v3/clusters/:cluster_id/topics/:topic_name/configs::alter')).toBe(
      '/v3/clusters/{cluster_id}/topics/{topic_name}/configs:alter',
    );
  });
});
