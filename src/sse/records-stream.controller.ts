// GET /v3/clusters/{c}/topics/{t}/records:stream: every partition of a topic as Server-Sent Events (sse-format.ts),
// from `earliest` or `latest` (the default), resumed after `Last-Event-ID`. The stream follows the socket's
// back-pressure: nothing more is read from the log while the response cannot take more (Node's writable
// high-water mark), so a client that stops reading holds at most one fetch per partition. Open streams per broker
// are bounded (BROOK_SSE_STREAMS_MAX, 429 / 42901 beyond); a heartbeat comment goes out every BROOK_SSE_HEARTBEAT_MS.
// With `group=`, the stream is a member of the consumer group instead (sse-group-stream.ts).
// Security for the stream's life: before each delivery its principal must still have READ on the topic (the one
// read check), its credential and rights are re-checked by the StreamGuard (an `error` event with 40301 ends the
// stream), and what it delivers is charged to the principal's consumer quota: while that is in debt, deliveries
// wait (a `throttled` event when a throttle begins). With BROOK_CORS_ALLOWED_ORIGINS set, a stream asked for from an
// origin not listed is refused 403 (a group stream commits offsets; requests without an Origin header pass), and the
// stream's head carries the CORS headers set on the reply.
import { Metrics } from '../metrics/metrics.service.js';
import { dotSegmentMessage, isDotSegment } from '../common/url-ids.js';
import { BeforeApplicationShutdown, Controller, Get, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { once } from 'node:events';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { BrookError, errors } from '../common/brook-error.js';
import { type Clock, everyMs, sleep } from '../common/clock.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { originAllowed } from '../config/cors-origins.js';
import { PartitionRouter } from '../replication/partition-router.service.js';
import { AdminService } from '../application/admin/admin.service.js';
import { READ_FORMATS, type ReadFormat } from '../application/record-format.js';
import { STREAM_GROUP_PORT, type StreamGroupPort } from '../application/streaming/group-port.js';
import {
  RECORDS_PER_FRAME_MAX,
  SharedReads,
  streamPartition,
  type StreamSink,
} from '../application/streaming/partition-stream.js';
import { RecordJsonCache, type EncodedRun } from '../application/streaming/record-json-cache.js';
import { QuotaManager } from '../security/quota-manager.service.js';
import { ReadAccess } from '../security/read-access.js';
import { credentialOf, hostOf, principalOf } from '../security/request-identity.js';
import type { Check } from '../security/authorizer.service.js';
import { StreamGuard } from '../security/stream-guard.service.js';
import { DeliveryThrottle } from '../security/stream-quota.js';
import { errorEvent, HEARTBEAT_EVENT, parseLastEventId, recordEvents, throttledEvent } from './sse-format.js';
import { SseGroupStream } from './sse-group-stream.js';

const STREAMS_FULL_RETRY_AFTER_SECONDS = 5;
/** Kafka's bound on a group id's length in the REST Proxy's checks. */
const GROUP_ID_LENGTH_MAX = 255;

/** What the sink asks before and after each delivery. */
interface SinkSecurity {
  mayRead: (topic: string) => boolean;
  throttle: DeliveryThrottle;
  principal: string;
}

class ResponseSink implements StreamSink {
  constructor(
    private readonly response: ServerResponse,
    private readonly abort: AbortController,
    private readonly security: SinkSecurity,
    private readonly clock: Clock,
  ) {}

  room(): number {
    if (this.response.writableNeedDrain || this.response.writableEnded) return 0;
    return this.security.throttle.records(RECORDS_PER_FRAME_MAX);
  }

  async waitForRoom(signal: AbortSignal): Promise<void> {
    // The quota's wait is read before the room (as the WebSocket's subscription does): read after it, a debt paid
    // in between sent the stream to wait for a 'drain' that no pending write would ever emit.
    const throttleMs = this.security.throttle.waitMs();
    if (this.room() > 0 || signal.aborted) return;
    if (throttleMs > 0) await sleep(this.clock, throttleMs, signal);
    else await once(this.response, 'drain', { signal }).catch(() => undefined);
  }

  deliver(topic: string, partition: number, run: EncodedRun): void {
    if (!this.security.mayRead(topic)) {
      this.end(
        new BrookError(403, 40301, `${this.security.principal} is no longer authorized to READ topic '${topic}'.`),
      );
      return;
    }
    const text = recordEvents(partition, run.records);
    this.response.write(text);
    this.security.throttle.delivered(run.count, Buffer.byteLength(text));
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Ends the stream with an error event. */
  end(error: BrookError): void {
    if (!this.response.writableEnded) this.response.end(errorEvent(error.errorCode, error.message));
    this.abort.abort();
  }

  fail(topic: string, partition: number, error: BrookError): void {
    if (this.response.writableEnded) return;
    this.response.end(errorEvent(error.errorCode, `Stream of ${topic}-${partition} stopped: ${error.message}`));
    this.abort.abort();
  }
}

@Controller('v3/clusters/:cluster_id/topics/:topic_name')
export class RecordsStreamController implements BeforeApplicationShutdown {
  /** The open streams; ended at shutdown, since the HTTP server waits for its connections to close. */
  private readonly responses = new Set<ServerResponse>();

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly admin: AdminService,
    private readonly replicas: PartitionRouter,
    private readonly cache: RecordJsonCache,
    private readonly reads: SharedReads,
    @Inject(STREAM_GROUP_PORT) private readonly groups: StreamGroupPort,
    metrics: Metrics,
    private readonly access: ReadAccess,
    private readonly guard: StreamGuard,
    private readonly quotas: QuotaManager,
  ) {
    metrics.gaugeOf('brook_sse_streams', 'Open SSE record streams.', () => this.responses.size);
  }

  beforeApplicationShutdown(): void {
    for (const response of this.responses) response.end();
  }

  @Get('records::stream')
  async stream(
    @Param('cluster_id') clusterId: string,
    @Param('topic_name') topic: string,
    @Query() query: Record<string, string | undefined>,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Headers('origin') origin: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (!originAllowed(this.config.corsAllowedOrigins, origin)) {
      throw new BrookError(403, 40301, `Origin ${origin} is not allowed.`);
    }
    this.admin.checkCluster(clusterId);
    const partitions = this.admin.topicOrThrow(topic).assignment.replicas.length;
    const format = (query.format ?? 'binary') as ReadFormat;
    if (!READ_FORMATS.includes(format))
      throw errors.badRequest(`format must be one of ${READ_FORMATS.join(', ')}, got '${query.format}'.`);
    const from = query.from ?? 'latest';
    if (from !== 'earliest' && from !== 'latest')
      throw errors.badRequest(`from must be earliest or latest, got '${from}'.`);
    const group: unknown = query.group;
    if (group !== undefined && (typeof group !== 'string' || group.length === 0 || group.length > GROUP_ID_LENGTH_MAX))
      throw errors.invalidRequest(`group must be given once, 1 to ${GROUP_ID_LENGTH_MAX} characters.`);
    if (group !== undefined && isDotSegment(group)) throw errors.invalidRequest(dotSegmentMessage('group'));
    this.checkStreamsLimit();
    if (group !== undefined) return this.streamAsMember(topic, group, from, format, reply);
    const resume = parseLastEventId(lastEventId, partitions);
    const starts: Array<{ partition: number; offset: number }> = [];
    for (let partition = 0; partition < partitions; partition++) {
      const { earliest, latest } = await this.replicas.offsets(topic, partition);
      const offset = resume.get(partition) ?? (from === 'earliest' ? earliest : latest);
      if (offset < earliest || offset > latest) {
        throw errors.invalidRequest(
          `Cannot resume ${topic}-${partition} at offset ${offset}: the partition holds [${earliest}, ${latest}).`,
        );
      }
      starts.push({ partition, offset });
    }
    const sink = this.openResponse(reply, topic, null);
    for (const start of starts) {
      void streamPartition(this.replicas, sink, {
        topic,
        ...start,
        format,
        fetchBytes: this.config.ws.fetchBytesMax,
        cache: this.cache,
        reads: this.reads,
        signal: sink.signal,
      });
    }
  }

  /** A group member's stream (sse-group-stream.ts): Last-Event-ID does not apply, the group's offsets do. */
  private async streamAsMember(
    topic: string,
    group: string,
    from: 'earliest' | 'latest',
    format: ReadFormat,
    reply: FastifyReply,
  ): Promise<void> {
    const sink = this.openResponse(reply, topic, group);
    const response = reply.raw;
    const stream = new SseGroupStream(
      {
        topic,
        group,
        from,
        format,
        fetchBytes: this.config.ws.fetchBytesMax,
        sessionTimeoutMs: this.config.ws.groupSessionTimeoutMs,
        heartbeatMs: this.config.ws.pingIntervalMs,
        autoCommitIntervalMs: this.config.ws.sseAutoCommitIntervalMs,
      },
      { port: this.groups, replicas: this.replicas, cache: this.cache, reads: this.reads },
      {
        write: (text) => {
          if (!response.writableEnded) response.write(text);
        },
        end: (text) => {
          if (!response.writableEnded) response.end(text);
        },
      },
      sink,
    );
    response.once('close', () => void stream.closeStream());
    try {
      await stream.open();
    } catch (error) {
      const failure = error instanceof BrookError ? error : errors.kafkaError((error as Error).message);
      if (!response.writableEnded) response.end(errorEvent(failure.errorCode, failure.message));
    }
  }

  private checkStreamsLimit(): void {
    if (this.responses.size >= this.config.ws.sseStreamsMax) {
      throw new BrookError(
        429,
        42901,
        `At most ${this.config.ws.sseStreamsMax} SSE streams per broker are open.`,
        STREAMS_FULL_RETRY_AFTER_SECONDS,
      );
    }
  }

  /**
   * Takes the response over from Fastify and starts the event stream, with its heartbeat comments; registers it
   * with the stream guard, which ends it when the principal loses READ on the topic (or the group) or its
   * credential no longer holds.
   */
  private openResponse(reply: FastifyReply, topic: string, group: string | null): ResponseSink {
    const request = reply.request;
    const principal = principalOf(request);
    const host = hostOf(request);
    reply.hijack();
    const response = reply.raw;
    this.responses.add(response);
    response.writeHead(200, {
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.write(HEARTBEAT_EVENT);
    const abort = new AbortController();
    const reader = { principal, host, path: 'sse.stream', requestId: request.id };
    const sink = new ResponseSink(
      response,
      abort,
      {
        principal,
        mayRead: (name) => this.access.mayRead(reader, name),
        throttle: new DeliveryThrottle(this.quotas, principal, ({ quota, waitMs }) => {
          if (!response.writableEnded) response.write(throttledEvent(quota, waitMs));
        }),
      },
      this.reads.clock,
    );
    const rights: Check[] = [{ operation: 'READ', resource: { type: 'TOPIC', name: topic } }];
    if (group !== null) rights.push({ operation: 'READ', resource: { type: 'GROUP', name: group } });
    const unguard = this.guard.register({
      identity: { principal, host, credential: credentialOf(request) },
      rights: () => rights,
      end: (error) => sink.end(error),
    });
    const stopHeartbeat = everyMs(this.reads.clock, this.config.ws.sseHeartbeatMs, () => {
      if (!response.writableNeedDrain) response.write(HEARTBEAT_EVENT);
    });
    response.once('close', () => {
      abort.abort();
      unguard();
      stopHeartbeat();
      this.responses.delete(response);
    });
    return sink;
  }
}
