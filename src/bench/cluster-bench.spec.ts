import { describe, expect, it } from 'vitest';
import { Metrics } from '../metrics/metrics.service.js';
import { countRouteRequests } from './cluster-bench.js';

const FETCH = '/internal/v1/partitions/{topic}/{partition}/replica-fetch';

describe('countRouteRequests (W1c: follower fetches a request, from the leader GET /metrics)', () => {
  it("sums the route's brook_http_requests_total over methods and statuses, and nothing else", async () => {
    const metrics = new Metrics();
    const count = (method: string, route: string, status: number, n: number) =>
      metrics.requestsTally
        .cell(`${method} ${route} ${status}`, () => ({ method, route, status: String(status) }))
        .add(n);
    count('GET', FETCH, 200, 7);
    count('GET', FETCH, 409, 2);
    count('GET', '/internal/v1/partitions/{topic}/{partition}/replica', 200, 5);
    count('POST', '/topics/{topic_name}/partitions/{partition_id}', 200, 11);
    const exposition = await metrics.registry.metrics();
    expect(countRouteRequests(exposition, FETCH)).toBe(9);
    expect(countRouteRequests(exposition, '/topics/{topic_name}/partitions/{partition_id}')).toBe(11);
    expect(countRouteRequests(exposition, '/nowhere')).toBe(0);
  });
});
