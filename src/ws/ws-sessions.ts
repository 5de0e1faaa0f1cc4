// The open WebSockets of the broker, one WsSession each, and the broker-wide bounds over them: at most
// BROOK_WS_SOCKETS_MAX (the adapter turns one more away with 1008), ping/pong liveness (a socket that did not answer
// the previous ping is dropped, unless the broker itself stopped reading it), the periodic slow-consumer check of
// every session, and the close of them all (1001) when the broker stops. The adapter asks it whether a socket may
// stay and charges the frames it reads to their socket; the gateway opens and finds the sessions.
import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { ProduceService } from '../application/produce/produce.service.js';
import { STREAM_GROUP_PORT, type StreamGroupPort } from '../application/streaming/group-port.js';
import { SharedReads } from '../application/streaming/partition-stream.js';
import { RecordJsonCache } from '../application/streaming/record-json-cache.js';
import { type CancelTimer, type Clock, CLOCK, everyMs, systemClock } from '../common/clock.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { Metrics } from '../metrics/metrics.service.js';
import { PartitionRouter } from '../replication/partition-router.service.js';
import type { Identified } from '../security/authenticator.service.js';
import { QuotaManager } from '../security/quota-manager.service.js';
import { ReadAccess } from '../security/read-access.js';
import { StreamGuard } from '../security/stream-guard.service.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import type { SocketIntake, Turnaway } from './ws.adapter.js';
import { hostOfSocket } from './ws-auth.js';
import { CLOSE_CODES } from './ws-limits.js';
import type { RoutedMessage } from './ws-protocol.js';
import { WsSession } from './ws-session.js';

/** How often every session's send pressure is checked against the slow-consumer timeout, at most. */
const PRESSURE_CHECK_MS_MAX = 1_000;

@Injectable()
export class WsSessions implements SocketIntake, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('WebSocket');
  private readonly sessions = new Map<WebSocket, WsSession>();
  private readonly timers: CancelTimer[] = [];
  private stopping = false;

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly replicas: PartitionRouter,
    private readonly producer: ProduceService,
    private readonly cache: RecordJsonCache,
    private readonly reads: SharedReads,
    private readonly metadata: MetadataCache,
    @Inject(STREAM_GROUP_PORT) private readonly groups: StreamGroupPort,
    private readonly access: ReadAccess,
    private readonly guard: StreamGuard,
    private readonly quotas: QuotaManager,
    metrics: Metrics,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {
    metrics.gaugeOf('brook_websocket_connections', 'Open WebSockets on /v3/ws.', () => this.sessions.size);
    metrics.gaugeOf('brook_websocket_subscriptions', 'Subscriptions of the open WebSockets.', () => {
      let count = 0;
      for (const session of this.sessions.values()) count += session.subscriptions.count;
      return count;
    });
  }

  onApplicationBootstrap(): void {
    const limits = this.config.ws;
    this.timers.push(everyMs(this.clock, limits.pingIntervalMs, () => this.ping()));
    const checkMs = Math.min(PRESSURE_CHECK_MS_MAX, Math.max(10, Math.floor(limits.slowConsumerTimeoutMs / 4)));
    this.timers.push(everyMs(this.clock, checkMs, () => this.checkPressure()));
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
    for (const cancel of this.timers) cancel();
    for (const [socket, session] of this.sessions) {
      session.close(CLOSE_CODES.goingAway, 'broker shutting down');
      socket.terminate();
    }
    this.sessions.clear();
  }

  turnaway(): Turnaway | null {
    if (this.stopping) return { code: CLOSE_CODES.goingAway, reason: 'broker shutting down' };
    const max = this.config.ws.socketsMax;
    if (this.sessions.size < max) return null;
    return { code: CLOSE_CODES.policyViolation, reason: `too many WebSockets on this broker (at most ${max})` };
  }

  takesFrames(socket: WebSocket): boolean {
    return this.sessions.get(socket)?.isOpen ?? false;
  }

  frameRead(socket: WebSocket, bytes: number, event: RoutedMessage['event']): void {
    this.sessions.get(socket)?.frameRead(bytes, event === 'produce');
  }

  /** The session of a socket the adapter let in, opened as `identified`. */
  open(socket: WebSocket, request: IncomingMessage, { principal, credential }: Identified): void {
    const host = hostOfSocket(request);
    const reader = { principal, host, path: 'ws.subscription' };
    const session = new WsSession(socket, {
      replicas: this.replicas,
      producer: this.producer,
      limits: this.config.ws,
      clock: this.clock,
      cache: this.cache,
      reads: this.reads,
      groups: this.groups,
      topicExists: (topic) => this.metadata.topic(topic) !== undefined,
      identity: { principal, host, credential },
      guard: this.guard,
      mayRead: (topic) => this.access.mayRead(reader, topic),
      quotas: this.quotas,
    });
    this.sessions.set(socket, session);
  }

  forget(socket: WebSocket): void {
    this.sessions.delete(socket);
  }

  /** The open session of a socket whose frames are being handled. */
  of(socket: WebSocket): WsSession {
    const session = this.sessions.get(socket);
    if (session === undefined || !session.isOpen) throw new Error('a frame of a WebSocket without an open session');
    return session;
  }

  /** The session of a socket if it is still open (an answer to a frame goes nowhere once it is not). */
  find(socket: WebSocket): WsSession | undefined {
    const session = this.sessions.get(socket);
    return session?.isOpen ? session : undefined;
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
