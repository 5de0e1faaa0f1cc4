// GET /v3/ws: a `ws` server attached to the broker's HTTP server (Fastify's), taking the upgrades for /v3/ws and
// refusing others. Plain `ws`, not Nest's gateway decorators: the protocol routes frames by `op`, and flow control
// needs the socket itself (bufferedAmount, pause/resume). Owns the broker-wide bounds: sockets per broker (1008
// beyond), frame size (1009, enforced by the library through maxPayload), ping/pong liveness (a socket that did
// not answer the previous ping is dropped) and the periodic slow-consumer check of every session. Security: the
// upgrade is authenticated (a refusal is an audit line naming the principal tried), each frame authorised (a
// refusal is an error frame and an audit line); the session gets the identity, the stream guard, the one read
// check and the quotas (ws-session.ts).
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { systemClock } from '../common/clock.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { Metrics } from '../metrics/metrics.service.js';
import { PartitionRouter } from '../replication/partition-router.service.js';
import { Authenticator } from '../security/authenticator.service.js';
import { AuditLog } from '../security/audit-log.js';
import { AuthenticationFailure, type Identified } from '../security/authenticator.service.js';
import { Authorizer } from '../security/authorizer.service.js';
import { QuotaManager } from '../security/quota-manager.service.js';
import { ReadAccess } from '../security/read-access.js';
import { StreamGuard } from '../security/stream-guard.service.js';
import { authenticateUpgrade, authorizeFrame, hostOfSocket } from './ws-auth.js';
import { ProduceService } from '../application/produce/produce.service.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import { STREAM_GROUP_PORT, type StreamGroupPort } from '../application/streaming/group-port.js';
import { SharedReads } from '../application/streaming/partition-stream.js';
import { RecordJsonCache } from '../application/streaming/record-json-cache.js';
import { CLOSE_CODES } from './ws-limits.js';
import { asBrookError, WsSession } from './ws-session.js';

export const WS_PATH = '/v3/ws';
/** How often every session's send pressure is checked against the slow-consumer timeout, at most. */
const PRESSURE_CHECK_MS_MAX = 1_000;

@Injectable()
export class WsGateway implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WebSocket');
  private readonly sessions = new Map<WebSocket, WsSession>();
  private server: WebSocketServer | null = null;
  private httpServer: Server | null = null;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly replicas: PartitionRouter,
    private readonly producer: ProduceService,
    private readonly cache: RecordJsonCache,
    private readonly reads: SharedReads,
    private readonly metadata: MetadataCache,
    @Inject(STREAM_GROUP_PORT) private readonly groups: StreamGroupPort,
    private readonly authenticator: Authenticator,
    private readonly authorizer: Authorizer,
    metrics: Metrics,
    private readonly audit: AuditLog,
    private readonly access: ReadAccess,
    private readonly guard: StreamGuard,
    private readonly quotas: QuotaManager,
  ) {
    metrics.gaugeOf('brook_websocket_connections', 'Open WebSockets on /v3/ws.', () => this.sessions.size);
    metrics.gaugeOf('brook_websocket_subscriptions', 'Subscriptions of the open WebSockets.', () => {
      let count = 0;
      for (const session of this.sessions.values()) count += session.subscriptionCount;
      return count;
    });
  }

  get openSockets(): number {
    return this.sessions.size;
  }

  onApplicationBootstrap(): void {
    const limits = this.config.ws;
    this.server = new WebSocketServer({ noServer: true, maxPayload: limits.frameBytesMax, perMessageDeflate: false });
    this.server.on('connection', (socket: WebSocket, request: IncomingMessage, identified: Identified) =>
      this.accept(socket, request, identified),
    );
    this.httpServer = this.adapterHost.httpAdapter.getHttpServer() as Server;
    this.httpServer.on('upgrade', this.onUpgrade);
    this.timers.push(setInterval(() => this.ping(), limits.pingIntervalMs).unref());
    const checkMs = Math.min(PRESSURE_CHECK_MS_MAX, Math.max(10, Math.floor(limits.slowConsumerTimeoutMs / 4)));
    this.timers.push(setInterval(() => this.checkPressure(), checkMs).unref());
  }

  beforeApplicationShutdown(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.httpServer?.off('upgrade', this.onUpgrade);
    for (const [socket, session] of this.sessions) {
      session.close(CLOSE_CODES.goingAway, 'broker shutting down');
      socket.terminate();
    }
    this.sessions.clear();
    this.server?.close();
  }

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = (request.url ?? '').split('?', 1)[0];
    if (path !== WS_PATH || this.server === null) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    // Authenticated at the upgrade (header, ?token= for browsers, or the TLS client certificate): 401 refuses it.
    authenticateUpgrade(this.authenticator, request).then(
      (identified) =>
        this.server?.handleUpgrade(request, socket, head, (ws) =>
          this.server?.emit('connection', ws, request, identified),
        ),
      (error: unknown) => {
        const failure = asBrookError(error);
        this.audit.write({
          event: 'authentication.failed',
          principal: error instanceof AuthenticationFailure ? error.attemptedPrincipal : 'User:ANONYMOUS',
          host: hostOfSocket(request),
          method: 'GET',
          route: WS_PATH,
          reason: failure.message,
        });
        const body = JSON.stringify({ error_code: failure.errorCode, message: failure.message });
        socket.end(
          `HTTP/1.1 ${failure.status} ${failure.status === 401 ? 'Unauthorized' : 'Error'}\r\n` +
            `WWW-Authenticate: Basic realm="brook"\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      },
    );
  };

  private accept(socket: WebSocket, request: IncomingMessage, { principal, credential }: Identified): void {
    if (this.sessions.size >= this.config.ws.socketsMax) {
      socket.close(
        CLOSE_CODES.policyViolation,
        `too many WebSockets on this broker (at most ${this.config.ws.socketsMax})`,
      );
      return;
    }
    const host = hostOfSocket(request);
    const reader = { principal, host, path: 'ws.subscription' };
    const session = new WsSession(socket, {
      replicas: this.replicas,
      producer: this.producer,
      limits: this.config.ws,
      produceRecordsMax: this.config.produceBatchEntriesMax,
      clock: systemClock,
      cache: this.cache,
      reads: this.reads,
      groups: this.groups,
      topicExists: (topic) => this.metadata.topic(topic) !== undefined,
      authorize: (frame, group) => authorizeFrame(this.authorizer, this.audit, { principal, host }, frame, group),
      identity: { principal, host, credential },
      guard: this.guard,
      mayRead: (topic) => this.access.mayRead(reader, topic),
      quotas: this.quotas,
    });
    this.sessions.set(socket, session);
    socket.once('close', () => this.sessions.delete(socket));
  }

  private ping(): void {
    for (const [socket, session] of this.sessions) {
      if (!session.alive && !session.readingPausedByBroker) {
        this.logger.debug('dropping a WebSocket that did not answer a ping');
        socket.terminate();
        continue;
      }
      session.alive = false;
      socket.ping();
    }
  }

  private checkPressure(): void {
    for (const session of this.sessions.values()) session.checkPressure();
  }
}
