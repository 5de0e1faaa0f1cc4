// The request metrics are counted in tallies and added to the prom-client counters when the registry is read: every
// scrape must show all the requests answered before it, once, by method, route template and status.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerHttpMetrics } from './http-metrics.js';
import { Metrics } from '../metrics/metrics.service.js';

async function sample(metrics: Metrics, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  const values = (metric?.values ?? []) as Array<{ labels: Record<string, string | number>; value: number }>;
  const entries = Object.entries(labels);
  return values.find((v) => entries.every(([k, value]) => String(v.labels[k]) === value))?.value;
}

describe('HTTP request metrics', () => {
  it('counts requests by method, route template and status at every scrape, each request once', async () => {
    const metrics = new Metrics();
    const app = Fastify();
    registerHttpMetrics(app, metrics);
    app.get('/topics/:topic_name', async (request, reply) =>
      (request.params as { topic_name: string }).topic_name === 'missing'
        ? reply.code(404).send({ error_code: 40401, message: 'no' })
        : { ok: true },
    );
    await app.ready();
    const route = { method: 'GET', route: '/topics/{topic_name}' };

    for (let i = 0; i < 3; i++) expect((await app.inject({ url: '/topics/a' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/topics/missing' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/nowhere' })).statusCode).toBe(404);
    expect(await sample(metrics, 'brook_http_requests_total', { ...route, status: '200' })).toBe(3);
    expect(await sample(metrics, 'brook_http_requests_total', { ...route, status: '404' })).toBe(1);
    expect(
      await sample(metrics, 'brook_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBe(1);
    expect(await sample(metrics, 'brook_http_request_errors_total', { ...route, error_code: '40401' })).toBe(1);

    // a second scrape adds only what came since the first
    expect(await sample(metrics, 'brook_http_requests_total', { ...route, status: '200' })).toBe(3);
    for (let i = 0; i < 2; i++) await app.inject({ url: '/topics/b' });
    expect(await sample(metrics, 'brook_http_requests_total', { ...route, status: '200' })).toBe(5);
    const text = await metrics.registry.metrics();
    expect(text).toContain('brook_http_requests_total{method="GET",route="/topics/{topic_name}",status="200"} 5');
    expect(text).toContain('brook_http_request_duration_seconds_count{method="GET",route="/topics/{topic_name}"} 6');
    await app.close();
  });

  it('counts produced records and bytes per topic at every scrape', async () => {
    const metrics = new Metrics();
    metrics.produced('t', 1000, 110_000);
    metrics.produced('u', 1, 80);
    metrics.produced('t', 5, 500);
    expect(await sample(metrics, 'brook_topic_messages_in_total', { topic: 't' })).toBe(1005);
    expect(await sample(metrics, 'brook_topic_bytes_in_total', { topic: 't' })).toBe(110_500);
    expect(await sample(metrics, 'brook_topic_messages_in_total', { topic: 'u' })).toBe(1);
    metrics.produced('u', 2, 160);
    expect(await metrics.registry.metrics()).toContain('brook_topic_bytes_in_total{topic="u"} 240');
    expect(await sample(metrics, 'brook_topic_messages_in_total', { topic: 'u' })).toBe(3);
  });
});
