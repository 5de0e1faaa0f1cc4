// One WebSocket connection to /v3/ws, from its handshake to its close: what is sent to the socket and what is read
// from it. Every record sent is paid for by a credit (the subscriptions' CreditWindows, socket-subscriptions.ts)
// and nothing is read from the log while the socket's send queue is past its pause mark (SendPressure); a socket
// paused too long, or with too much queued, is closed with 4001. The socket's frames are not read while it is
// paused, while BROOK_WS_PRODUCE_IN_FLIGHT_MAX produce frames are being appended, and while a quota is in debt.
// Security during its life is socket-security.ts: a revoked right ends a subscription (40301), a revoked
// credential closes the socket (4003), a quota in debt stops the reading of frames (a `throttled` notice).
// The gateway's handlers call it with checked frames; a frame it refuses is a thrown BrookError.
import type { WebSocket } from 'ws';
import type { BrookError } from '../common/brook-error.js';
import type { Clock } from '../common/clock.js';
import type { ProduceService } from '../application/produce/produce.service.js';
import { keyProducer } from '../application/idempotence/idempotency-key.js';
import type { WsLimits } from '../config/stream-limits.js';
import { SendPressure } from './flow-control.js';
import { SocketSecurity, type SocketSecurityDeps } from './socket-security.js';
import { SocketSubscriptions, type SubscriptionsDeps } from './socket-subscriptions.js';
import { CLOSE_CODES } from './ws-limits.js';
import { ackFrame, errorFrame, type FrameId, type ProduceFrame, type ScannedProduceFrame } from './ws-protocol.js';
import { allFailedError, resultAckFrame } from './result-ack.js';

const RECORDS_FRAME_END = Buffer.from(']}');

/**
 * A `records` frame (`prefix`, the records' JSON, `]}`) as one text message in one WebSocket frame, written to the
 * socket at once (WsSession.sendRecords); `sent` is called once it is written. The frame's header is written here
 * (RFC 6455 5.2: FIN and the text opcode, the payload length in 7, 7+16 or 7+64 bits, no mask from a server) and
 * the three pieces after it, with the TCP socket corked, so the shared JSON is not copied. Sent as three fragments
 * (one message still) the receiver joins them: `ws` (receiver.js dataMessage) copies every fragmented message into
 * a new Buffer, in W5 55 KB a subscriber a frame, the external memory that clocks the client's mark-compacts. Only
 * when `ws` has nothing of its own pending (its sender idle, no fragmented message begun, no compression), else
 * through `ws` as three fragments.
 */
export function sendRecordsFrame(socket: WebSocket, prefix: Buffer, joinedJson: Buffer, sent: () => void): void {
  const transport = transportOf(socket);
  const payloadBytes = prefix.length + joinedJson.length + RECORDS_FRAME_END.length;
  if (transport !== null && senderIdle(socket)) {
    transport.cork();
    try {
      transport.write(textFrameHeader(payloadBytes));
      transport.write(prefix);
      transport.write(joinedJson);
      transport.write(RECORDS_FRAME_END, () => sent());
    } finally {
      transport.uncork();
    }
    return;
  }
  transport?.cork();
  try {
    socket.send(prefix, { binary: false, fin: false });
    socket.send(joinedJson, { binary: false, fin: false });
    socket.send(RECORDS_FRAME_END, { binary: false, fin: true }, sent);
  } finally {
    transport?.uncork();
  }
}

/** The header of an unmasked, final text frame of `payloadBytes` (RFC 6455 5.2). */
export function textFrameHeader(payloadBytes: number): Buffer {
  if (!Number.isSafeInteger(payloadBytes) || payloadBytes < 0) throw new RangeError(`payload of ${payloadBytes} bytes`);
  const FIN_TEXT = 0x81;
  if (payloadBytes < 126) return Buffer.from([FIN_TEXT, payloadBytes]);
  if (payloadBytes < 65_536) {
    const header = Buffer.allocUnsafe(4);
    header[0] = FIN_TEXT;
    header[1] = 126;
    header.writeUInt16BE(payloadBytes, 2);
    return header;
  }
  const header = Buffer.allocUnsafe(10);
  header[0] = FIN_TEXT;
  header[1] = 127;
  header.writeUInt32BE(Math.floor(payloadBytes / 2 ** 32), 2);
  header.writeUInt32BE(payloadBytes >>> 0, 6);
  return header;
}

/**
 * A text frame of `text`, a string or its UTF-8 bytes (a produce's ack, result-ack.ts): `ws` would send bytes as a
 * binary frame unless told otherwise; `sent` is called once it is written.
 */
export function sendTextFrame(socket: WebSocket, text: string | Buffer, sent: () => void): void {
  socket.send(text, { binary: false }, sent);
}

interface Transport {
  cork(): void;
  uncork(): void;
  write(chunk: Buffer, callback?: () => void): boolean;
}

/** The stream under a `ws` WebSocket (its `_socket`, set once open; not in its typings), if it can be corked. */
function transportOf(socket: WebSocket): Transport | null {
  const transport = (socket as unknown as { _socket?: Partial<Record<keyof Transport, unknown>> })._socket;
  if (
    typeof transport?.cork !== 'function' ||
    typeof transport.uncork !== 'function' ||
    typeof transport.write !== 'function'
  )
    return null;
  return transport as Transport;
}

/**
 * Whether a frame written straight to the socket goes out in order: the socket open and `ws`'s sender (its
 * `_sender`, not in its typings) with nothing queued (state 0 is its DEFAULT: not compressing, not reading a
 * Blob), no fragmented message begun, and no compression negotiated.
 */
function senderIdle(socket: WebSocket): boolean {
  if (socket.readyState !== socket.OPEN) return false;
  const sender = (
    socket as unknown as {
      _sender?: { _state?: unknown; _queue?: { length: number }; _firstFragment?: unknown };
    }
  )._sender;
  return (
    sender?._state === 0 && sender._queue?.length === 0 && sender._firstFragment === true && socket.extensions === ''
  );
}

export interface SessionDeps extends SocketSecurityDeps, SubscriptionsDeps {
  producer: ProduceService;
  limits: WsLimits;
  clock: Clock;
}

export class WsSession {
  /** False once this session closed the socket or saw it close. */
  private open = true;
  private produceInFlight = 0;
  private readingPaused = false;
  private readonly security: SocketSecurity;
  /** Set on every pong; cleared at every ping. */
  alive = true;
  readonly pressure: SendPressure;
  readonly subscriptions: SocketSubscriptions;

  constructor(
    private readonly socket: WebSocket,
    private readonly deps: SessionDeps,
  ) {
    this.pressure = new SendPressure(
      {
        pauseBytes: deps.limits.bufferedBytesPause,
        maxBytes: deps.limits.bufferedBytesMax,
        slowTimeoutMs: deps.limits.slowConsumerTimeoutMs,
      },
      deps.clock,
    );
    this.security = new SocketSecurity(deps, {
      send: (text) => this.send(text),
      revoke: (error) => {
        for (const id of this.subscriptions.ids()) this.sendError(error, id);
        this.close(CLOSE_CODES.credentialRevoked, 'credential no longer valid');
      },
      endSubscription: (id, error) => this.subscriptions.endWith(id, error),
      pauseFrames: () => this.updateReading(),
    });
    this.subscriptions = new SocketSubscriptions(this, this.security, deps);
    socket.on('pong', () => this.onPong());
    socket.on('close', () => this.closed());
    socket.on('error', () => this.closed());
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** Who opened the socket, for the rights of its frames. */
  get identity(): { principal: string; host: string } {
    return { principal: this.deps.identity.principal, host: this.deps.identity.host };
  }

  get flowing(): boolean {
    return this.open && this.pressure.state === 'flowing';
  }

  /** Whether this session stopped reading the socket itself (liveness is then judged by the send pressure). */
  get readingPausedByBroker(): boolean {
    return this.readingPaused;
  }

  /** A text frame: a string, or its UTF-8 bytes (sent as they are, still a text frame). */
  send(text: string | Buffer): void {
    if (!this.open) return;
    sendTextFrame(this.socket, text, () => this.observePressure());
    this.observePressure();
  }

  /**
   * A `records` frame as one text message in one WebSocket frame (sendRecordsFrame): the subscription's prefix,
   * the records' JSON (one Buffer shared by every subscriber of the same run, not copied) and the closing brackets.
   * The TCP socket is corked around them, so they leave in one write (written one by one: a writev call each, the
   * largest single cost in W5's profile at 10 subscribers).
   */
  sendRecords(prefix: Buffer, joinedJson: Buffer): void {
    if (!this.open) return;
    sendRecordsFrame(this.socket, prefix, joinedJson, () => this.observePressure());
    this.observePressure();
  }

  sendError(error: BrookError, id?: FrameId): void {
    this.send(errorFrame(error, id));
  }

  /** A text frame of `bytes` was read: charged to the principal's quotas (a parsed produce frame also produces). */
  frameRead(bytes: number, produces: boolean): void {
    this.security.frameArrived(bytes, produces);
  }

  /** Appends a produce frame's records and acks them; every record failing is the first one's error, thrown. */
  async produce(frame: ProduceFrame | ScannedProduceFrame): Promise<void> {
    this.produceInFlight++;
    this.updateReading();
    try {
      const key = frame.idempotency;
      const producer =
        key === null
          ? frame.producer
          : keyProducer(
              { principal: this.deps.identity.principal, topic: frame.topic, key: key.key, position: null },
              key.digest,
            );
      if ('laidOut' in frame) {
        // a scanned frame (produce-frame-scanner.ts): its records appended as laid out, acked from the result
        const { laidOut } = frame;
        const { producer: service } = this.deps;
        const { topic, timestampMs, acks } = frame;
        const result = await service.produceScanned(topic, laidOut, undefined, timestampMs, acks, producer);
        const error = allFailedError(result, laidOut.count);
        if (error !== null) throw error;
        this.send(resultAckFrame(frame.id, result, laidOut.count));
        return;
      }
      const outcomes = await this.deps.producer.produce(frame.topic, frame.records, frame.acks, producer);
      const failed = outcomes.filter((outcome) => !outcome.ok);
      if (failed.length === outcomes.length && !failed[0].ok) throw failed[0].error;
      this.send(ackFrame(frame.id, outcomes));
    } finally {
      this.produceInFlight--;
      this.updateReading();
    }
  }

  /** Periodic check: closes the socket once it has been paused for the slow-consumer timeout. */
  checkPressure(): void {
    if (this.open && this.pressure.check() === 'closed') this.closeSlow();
  }

  close(code: number, reason: string): void {
    if (!this.open) return;
    this.socket.close(code, reason);
    // Read again so that the client's closing frame completes the handshake (otherwise ws waits 30 s).
    if (this.readingPaused) this.socket.resume();
    this.closed();
  }

  private observePressure(): void {
    if (!this.open) return;
    const state = this.pressure.observe(this.socket.bufferedAmount);
    if (state === 'closed') this.closeSlow();
    else this.updateReading();
    if (state === 'flowing') this.subscriptions.wake();
  }

  private closeSlow(): void {
    this.close(CLOSE_CODES.slowConsumer, 'slow consumer');
  }

  private updateReading(): void {
    const pause =
      this.pressure.state !== 'flowing' ||
      this.produceInFlight >= this.deps.limits.produceInFlightMax ||
      this.security.framesPaused;
    if (pause === this.readingPaused || !this.open) return;
    this.readingPaused = pause;
    if (pause) this.socket.pause();
    else this.socket.resume();
  }

  private closed(): void {
    if (!this.open) return;
    this.open = false;
    this.security.close();
    this.subscriptions.endAll();
  }

  private onPong(): void {
    this.alive = true;
    this.subscriptions.heartbeat();
  }
}
