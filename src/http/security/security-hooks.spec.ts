// The hooks look up what they need of a route (operation key, rule, produce/consume/admin) once per route template
// and method: each method of a template keeps its own operation, HEAD is GET's, an unknown route has none.
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { operationOf } from './security-hooks.js';

const request = (method: string, url: string | undefined) =>
  ({ method, routeOptions: { url } }) as unknown as FastifyRequest;

describe('operationOf', () => {
  it('names the operation by method and route template, for every method of a template apart', () => {
    const topic = '/v3/clusters/:cluster_id/topics/:topic_name';
    for (let i = 0; i < 2; i++) {
      expect(operationOf(request('GET', topic))).toBe('GET /v3/clusters/{cluster_id}/topics/{topic_name}');
      expect(operationOf(request('DELETE', topic))).toBe('DELETE /v3/clusters/{cluster_id}/topics/{topic_name}');
      expect(operationOf(request('HEAD', topic))).toBe('GET /v3/clusters/{cluster_id}/topics/{topic_name}');
      expect(operationOf(request('POST', '/topics/:topic_name/partitions/:partition_id'))).toBe(
        'POST /topics/{topic_name}/partitions/{partition_id}',
      );
      expect(operationOf(request('GET', undefined))).toBeNull();
    }
  });
});
