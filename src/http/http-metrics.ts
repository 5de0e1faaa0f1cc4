// Request metrics for every HTTP route, as Fastify hooks: count and duration by route template (openapi.yaml's
// form; 'unmatched' for unknown URLs, so a scan of random paths adds no label values), and error answers by
// their error_code (read from the {"error_code", "message"} body every error has).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { specPath } from './security/route-rights.js';
import type { Metrics, TallyCell } from '../metrics/metrics.service.js';

/** Error bodies are small; a larger payload is not parsed for its code. */
const ERROR_BODY_BYTES_MAX = 4096;

const routeOf = (request: FastifyRequest) =>
  request.routeOptions.url === undefined ? 'unmatched' : specPath(request.routeOptions.url);

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const methodOf = (request: FastifyRequest) => (METHODS.has(request.method) ? request.method : 'OTHER');

type RequestLabel = 'method' | 'route' | 'status';

/** The series of one route and method: made on its first request, then found by two map lookups. */
interface RouteSeries {
  /** The duration histogram's labels. */
  labels: { method: string; route: string };
  /** The request counter's cell per status. */
  byStatus: Map<number, TallyCell<RequestLabel>>;
}

export function registerHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  // by route template (undefined: unmatched), then method: bounded like the label values
  const series = new Map<string | undefined, Map<string, RouteSeries>>();
  const seriesOf = (request: FastifyRequest): RouteSeries => {
    const url = request.routeOptions.url;
    const method = methodOf(request);
    let byMethod = series.get(url);
    if (byMethod === undefined) {
      byMethod = new Map();
      series.set(url, byMethod);
    }
    let found = byMethod.get(method);
    if (found === undefined) {
      found = { labels: { method, route: routeOf(request) }, byStatus: new Map() };
      byMethod.set(method, found);
    }
    return found;
  };

  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode < 400) {
      done(null, payload);
      return;
    }
    let code = String(reply.statusCode);
    if (typeof payload === 'string' && payload.length <= ERROR_BODY_BYTES_MAX) {
      try {
        const parsed = JSON.parse(payload) as { error_code?: unknown };
        if (Number.isSafeInteger(parsed.error_code)) code = String(parsed.error_code);
      } catch {
        // not JSON: count it under its status
      }
    }
    metrics.requestErrors.inc({ method: methodOf(request), route: routeOf(request), error_code: code });
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const { labels, byStatus } = seriesOf(request);
    const status = reply.statusCode;
    let requests = byStatus.get(status);
    if (requests === undefined) {
      requests = metrics.requestCell(labels.method, labels.route, status);
      byStatus.set(status, requests);
    }
    requests.add(1);
    metrics.requestDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}
