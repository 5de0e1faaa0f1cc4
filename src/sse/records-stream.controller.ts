// GET /v3/clusters/{c}/topics/{t}/records:stream: every partition of a topic as Server-Sent Events (sse-format.ts),
// from `earliest` or `latest` (the default), resumed after `Last-Event-ID`. The stream follows the socket's
// back-pressure: nothing more is read from the log while the response cannot take more (Node's writable
// high-water mark), so a client that stops reading holds at most one fetch per partition. Open streams per broker
// are bounded (BROOK_SSE_STREAMS_MAX, 429 / 42901 beyond); a heartbeat comment goes out every BROOK_SSE_HEARTBEAT_MS.
// With `group=`, the stream is a member of the consumer group instead (sse-group-stream.ts).
import { Metrics } from '../metrics/metrics.service.js';
import { BeforeApplicationShutdown, Controller, Get, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { BrookError, errors } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { PartitionRouter } from '../replication/partition-router.service.js';
import { AdminService } from '../application/admin/admin.service.js';
import type { ReadFormat } from '../application/record-format.js';
import { STREAM_GROUP_PORT, type StreamGroupPort } from '../application/streaming/group-port.js';
import {
  RECORDS_PER_FRAME_MAX,
  SharedReads,
  streamPartition,
  type StreamSink,
} from '../application/streaming/partition-stream.js';
import { RecordJsonCache, type EncodedRun } from '../application/streaming/record-json-cache.js';
import { errorEvent, HEARTBEAT_EVENT, parseLastEventId, recordEvents } from './sse-format.js';
import { SseGroupStream } from './sse-group-stream.js';

const STREAMS_FULL_RETRY_AFTER_SECONDS = 5;
/** Kafka's bound on a group id's length in the REST Proxy's checks. */
const GROUP_ID_LENGTH_MAX = 255;

class ResponseSink implements StreamSink {
  constructor(
    private readonly response: ServerResponse,
    private readonly abort: AbortController,
  ) {}

  room(): number {
    return this.response.writableNeedDrain || this.response.writableEnded ? 0 : RECORDS_PER_FRAME_MAX;
  }

  async waitForRoom(signal: AbortSignal): Promise<void> {
    if (this.room() > 0 || signal.aborted) return;
    await once(this.response, 'drain', { signal }).catch(() => undefined);
  }

  deliver(_topic: string, partition: number, run: EncodedRun): void {
    this.response.write(recordEvents(partition, run.records));
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
    @Res() reply: FastifyReply,
  ): Promise<void> {
    this.admin.checkCluster(clusterId);
    const partitions = this.admin.topicOrThrow(topic).assignment.replicas.length;
    const format = (query.format ?? 'binary') as ReadFormat;
    if (!['binary', 'json', 'string'].includes(format))
      throw errors.badRequest(`format must be binary, json or string, got '${query.format}'.`);
    const from = query.from ?? 'latest';
    if (from !== 'earliest' && from !== 'latest')
      throw errors.badRequest(`from must be earliest or latest, got '${from}'.`);
    const group: unknown = query.group;
    if (group !== undefined && (typeof group !== 'string' || group.length === 0 || group.length > GROUP_ID_LENGTH_MAX))
      throw errors.invalidRequest(`group must be given once, 1 to ${GROUP_ID_LENGTH_MAX} characters.`);
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
    const { response, abort } = this.openResponse(reply);
    const sink = new ResponseSink(response, abort);
    for (const start of starts) {
      void streamPartition(this.replicas, sink, {
        topic,
        ...start,
        format,
        fetchBytes: this.config.ws.fetchBytesMax,
        cache: this.cache,
        reads: this.reads,
        signal: abort.signal,
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
    const { response, abort } = this.openResponse(reply);
    const sink = new ResponseSink(response, abort);
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

  /** Takes the response over from Fastify and starts the event stream, with its heartbeat comments. */
  private openResponse(reply: FastifyReply): { response: ServerResponse; abort: AbortController } {
    reply.hijack();
    const response = reply.raw;
    this.responses.add(response);
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.write(HEARTBEAT_EVENT);
    const abort = new AbortController();
    const heartbeat = setInterval(() => {
      if (!response.writableNeedDrain) response.write(HEARTBEAT_EVENT);
    }, this.config.ws.sseHeartbeatMs);
    response.once('close', () => {
      abort.abort();
      clearInterval(heartbeat);
      this.responses.delete(response);
    });
    return { response, abort };
  }
}
