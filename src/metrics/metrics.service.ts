// The broker's Prometheus metrics (prom-client, one registry per broker). Only metrics that something really
// updates are registered. Counters are incremented where the event happens; gauges of state (lag, leaders,
// controller) are computed from that state at scrape time by broker-gauges.service.ts. Labels are bounded: topic
// and consumer group names (created by admins, bounded by the coordination store), route templates (never raw
// URLs), HTTP methods, statuses and error codes.
//
//   brook_topic_messages_in_total{topic}          records appended by produce requests
//   brook_topic_bytes_in_total{topic}             record-batch bytes appended by produce requests
//   brook_topic_messages_out_total{topic}         records delivered to consumers (v3 read, v2 consumer poll)
//   brook_topic_bytes_out_total{topic}            record-batch bytes read from the log for consumers
//   brook_http_requests_total{method,route,status}
//   brook_http_request_duration_seconds{method,route}        histogram
//   brook_http_request_errors_total{method,route,error_code} every 4xx/5xx answer, by Brook/Confluent error code
//   brook_consumergroup_lag{group,topic,partition}           log end offset minus committed offset
//   brook_partition_leader_count                             partitions this broker leads
//   brook_controller_active_count                            1 on the controller, 0 elsewhere
//   brook_quota_throttled_requests_total{quota}              requests refused by a client quota (429)
//   brook_replication_under_replicated_partitions            partitions led here whose ISR is smaller than their replicas
//   brook_controller_offline_partitions                      partitions without a leader (the active controller only)
//   brook_isr_shrinks_total, brook_isr_expands_total         ISR changes written by this broker as leader
//   brook_websocket_connections, brook_websocket_subscriptions  open WebSockets and their subscriptions
//   brook_sse_streams                                        open SSE streams
//   plus prom-client's process and Node.js metrics (brook_process_*, brook_nodejs_*).
import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type LabelValues } from 'prom-client';

/** Buckets from 1 ms to 30 s: produce with acks=all sits in the low milliseconds, long-polls up to wait_ms. */
const DURATION_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Counts added to a prom-client counter in bulk: a hot path adds to a plain number per label set (a cell, found
 * once and kept by the caller or by key), and the counter is brought up to date when it is read (its collect runs
 * before every scrape), instead of prom-client hashing and checking the labels on every increment. A cell that was
 * added to, even 0, is added to the counter at the next read, so the series and their values are those that
 * incrementing at once would give.
 */
export class CounterTally<T extends string> {
  private readonly cells = new Map<string, TallyCell<T>>();

  /** The cell of `labels` under `key` (a caller's name for that label set); made on first use. */
  cell(key: string, labels: () => LabelValues<T>): TallyCell<T> {
    let cell = this.cells.get(key);
    if (cell === undefined) {
      cell = new TallyCell(labels());
      this.cells.set(key, cell);
    }
    return cell;
  }

  /** Adds every cell's pending count to `counter` (from the counter's collect). */
  flushTo(counter: Counter<T>): void {
    for (const cell of this.cells.values()) {
      if (!cell.touched) continue;
      const pending = cell.pending;
      cell.pending = 0;
      cell.touched = false;
      counter.inc(cell.labels, pending);
    }
  }
}

export class TallyCell<T extends string> {
  pending = 0;
  touched = false;
  constructor(readonly labels: LabelValues<T>) {}

  add(value: number): void {
    this.pending += value;
    this.touched = true;
  }
}

@Injectable()
export class Metrics {
  /** Pending counts of messagesIn, bytesIn, messagesOut, bytesOut and requests (see CounterTally). */
  readonly messagesInTally = new CounterTally<'topic'>();
  readonly bytesInTally = new CounterTally<'topic'>();
  readonly messagesOutTally = new CounterTally<'topic'>();
  readonly bytesOutTally = new CounterTally<'topic'>();
  readonly requestsTally = new CounterTally<'method' | 'route' | 'status'>();

  /** The pending count of brook_http_requests_total{method, route, status}: kept by its caller, added to per request. */
  requestCell(method: string, route: string, status: number): TallyCell<'method' | 'route' | 'status'> {
    return this.requestsTally.cell(`${method} ${route} ${status}`, () => ({ method, route, status: String(status) }));
  }

  readonly registry = new Registry();

  readonly messagesIn: Counter<'topic'> = new Counter({
    name: 'brook_topic_messages_in_total',
    help: 'Records appended by produce requests.',
    labelNames: ['topic'] as const,
    registers: [this.registry],
    collect: () => this.messagesInTally.flushTo(this.messagesIn),
  });
  readonly bytesIn: Counter<'topic'> = new Counter({
    name: 'brook_topic_bytes_in_total',
    help: 'Record-batch bytes appended by produce requests.',
    labelNames: ['topic'] as const,
    registers: [this.registry],
    collect: () => this.bytesInTally.flushTo(this.bytesIn),
  });
  readonly messagesOut: Counter<'topic'> = new Counter({
    name: 'brook_topic_messages_out_total',
    help: 'Records delivered to consumers (v3 read and v2 consumer poll).',
    labelNames: ['topic'] as const,
    registers: [this.registry],
    collect: () => this.messagesOutTally.flushTo(this.messagesOut),
  });
  readonly bytesOut: Counter<'topic'> = new Counter({
    name: 'brook_topic_bytes_out_total',
    help: 'Record-batch bytes read from the log for consumers.',
    labelNames: ['topic'] as const,
    registers: [this.registry],
    collect: () => this.bytesOutTally.flushTo(this.bytesOut),
  });
  /** Counted through requestsTally on the request path (http-metrics.ts). */
  readonly requests: Counter<'method' | 'route' | 'status'> = new Counter({
    name: 'brook_http_requests_total',
    help: 'HTTP requests answered, by route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
    collect: () => this.requestsTally.flushTo(this.requests),
  });
  readonly requestDuration = new Histogram({
    name: 'brook_http_request_duration_seconds',
    help: 'Time from request received to response sent, by route template.',
    labelNames: ['method', 'route'] as const,
    buckets: DURATION_BUCKETS_SECONDS,
    registers: [this.registry],
  });
  readonly requestErrors = new Counter({
    name: 'brook_http_request_errors_total',
    help: 'HTTP error answers (status 400 and above), by route template and error_code.',
    labelNames: ['method', 'route', 'error_code'] as const,
    registers: [this.registry],
  });

  readonly quotaThrottled = new Counter({
    name: 'brook_quota_throttled_requests_total',
    help: 'Requests refused with 429 (42901) because a client quota was exceeded, by quota.',
    labelNames: ['quota'] as const,
    registers: [this.registry],
  });

  readonly isrShrinks = new Counter({
    name: 'brook_isr_shrinks_total',
    help: 'ISR shrinks written by this broker as leader (a follower left the in-sync replicas).',
    registers: [this.registry],
  });
  readonly isrExpands = new Counter({
    name: 'brook_isr_expands_total',
    help: 'ISR expansions written by this broker as leader (a follower caught up and rejoined).',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'brook_' });
  }

  /** A gauge without labels whose value is read from its owner's state at every scrape. */
  gaugeOf(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  produced(topic: string, records: number, batchBytes: number): void {
    this.messagesInTally.cell(topic, () => ({ topic })).add(records);
    this.bytesInTally.cell(topic, () => ({ topic })).add(batchBytes);
  }

  consumed(topic: string, records: number, batchBytes: number): void {
    // a read of nothing makes no series, as prom-client's inc of 0 was never called for it
    if (records > 0) this.messagesOutTally.cell(topic, () => ({ topic })).add(records);
    if (batchBytes > 0) this.bytesOutTally.cell(topic, () => ({ topic })).add(batchBytes);
  }
}

/**
 * The request series of one route answered outside Fastify's hooks (the routes in front of Fastify), counted as
 * http/http-metrics.ts counts Fastify's: brook_http_requests_total by status, the duration, and error answers by
 * their error_code.
 */
export class RouteRequestMetrics {
  /** brook_http_requests_total's cells of the route, by status. */
  private readonly requestCells = new Map<number, TallyCell<'method' | 'route' | 'status'>>();
  private readonly labels: { method: string; route: string };

  constructor(
    private readonly metrics: Metrics,
    method: string,
    route: string,
  ) {
    this.labels = { method, route };
  }

  /** An answered request: its status, and its duration from `startedMs` (performance.now()). */
  count(status: number, startedMs: number): void {
    let cell = this.requestCells.get(status);
    if (cell === undefined) {
      cell = this.metrics.requestCell(this.labels.method, this.labels.route, status);
      this.requestCells.set(status, cell);
    }
    cell.add(1);
    this.metrics.requestDuration.observe(this.labels, (performance.now() - startedMs) / 1000);
  }

  /** An error answer, by its error_code. */
  error(errorCode: number): void {
    this.metrics.requestErrors.inc({ ...this.labels, error_code: String(errorCode) });
  }
}
