// One Kafka client connection: bytes in, frames (protocol/frames.ts), decoded requests, their handlers
// (handler-table.ts) started in the order request-schedule.ts allows, answers written in arrival order.
//
// What a connection does with input it cannot serve, as Kafka does:
//   - a frame size below 0 or above BROOK_SOCKET_REQUEST_MAX_BYTES: closed (the stream cannot be read further);
//   - a frame that does not decode (truncated, bad lengths, trailing bytes, unknown API key, a version the codec
//     lacks): closed, except an ApiVersions version it cannot decode, which gets the v0-shaped UNSUPPORTED_VERSION
//     answer (KIP-511) and stays open;
//   - an API with no handler, or a version outside the handler's range: closed;
//   - before authentication (when the broker requires it), anything but ApiVersions and SASL: closed;
//   - after a v0 SaslHandshake, the next frame is the bare SASL token (no Kafka header), answered bare;
//   - a handler that throws (a bug below the edge, never a client's input): logged, closed.
// Bounds: requests held between arrival and answer (BROOK_KAFKA_IN_FLIGHT_REQUESTS_MAX, and one request's worth
// of bytes past the first), frames read ahead of them (what one socket read delivered), an answer queue the
// client does not drain (reading stops until it does), idle connections (BROOK_CONNECTIONS_MAX_IDLE_MS).
import { Logger } from '@nestjs/common';
import type { Socket } from 'node:net';
import type { CancelTimer } from '../common/clock.js';
import { apiByName, type ApiName } from './protocol/apis.js';
import { decodeRequest, encodeResponse, type KafkaRequest } from './protocol/codec.js';
import type { KafkaDecodeError } from './protocol/errors.js';
import { FrameReader, FrameSplitter } from './protocol/frames.js';
import { inVersions } from './protocol/schema.js';
import { unsupportedApiVersionsAnswer } from './handlers/api-versions.js';
import { ADVERTISED_VERSIONS, handlerFor } from './handler-table.js';
import { type AnyKafkaHandler, CloseConnection, NO_RESPONSE } from './kafka-handler.js';
import type { KafkaServices } from './kafka-services.js';
import type { KafkaSession } from './kafka-session.js';
import { RequestContext } from './request-context.js';
import { RequestSchedule, type ScheduledRequest } from './request-schedule.js';
import { saslExchange } from './sasl-exchange.js';

const API_VERSIONS_KEY = 18;
/** Held answers up to this many bytes are copied into one buffer for one socket write; larger ones are not. */
const JOINED_ANSWER_BYTES_MAX = 16 * 1024;

/**
 * How the socket's bytes reach the connection: its 'data' events (chunks the connection may keep), or the caller
 * reading where readTarget() says and calling receive() with what it read (read-buffer-socket.ts): bytes of a read
 * buffer the socket reuses, valid only during the call, or the rest of a large frame read into its own memory.
 */
export type ConnectionInput = 'data-events' | 'receive-calls';

export interface ConnectionLimits {
  /** BROOK_SOCKET_REQUEST_MAX_BYTES. */
  readonly requestBytesMax: number;
  /** BROOK_KAFKA_IN_FLIGHT_REQUESTS_MAX. */
  readonly inFlightRequestsMax: number;
  /** BROOK_CONNECTIONS_MAX_IDLE_MS. */
  readonly idleMs: number;
}

/**
 * What runs for one arrived frame: a request and its handler, an answer known at arrival, or the bare SASL token
 * that follows a v0 SaslHandshake (answered by a bare frame with an empty token, or by closing on a failure).
 */
type Job =
  | { readonly request: KafkaRequest; readonly handler: AnyKafkaHandler }
  | { readonly answer: Buffer[] }
  | { readonly saslToken: Buffer };

/** The bare frame that answers a successful v0 SASL exchange: an empty token. */
/** A SASL token as a bare frame of the v0 exchange: its size, then its bytes. */
function bareTokenFrame(token: Buffer): Buffer {
  const frame = Buffer.alloc(4 + token.length);
  frame.writeInt32BE(token.length, 0);
  token.copy(frame, 4);
  return frame;
}

/** What goes out in a request's turn: its answer frame (none for acks=0), and whether the connection ends then. */
interface Outcome {
  readonly frame: Buffer[] | null;
  readonly closeReason: string | null;
}

const throttleFieldCache = new Map<string, boolean>();

/** Whether the answer of this API version has a throttle_time_ms field. */
function hasThrottleField(api: ApiName, version: number): boolean {
  const key = `${api}:${version}`;
  let has = throttleFieldCache.get(key);
  if (has === undefined) {
    const field = apiByName(api).response.find((candidate) => candidate.name === 'throttleTimeMs');
    has = field !== undefined && inVersions(version, field.versions);
    throttleFieldCache.set(key, has);
  }
  return has;
}

export class KafkaConnection {
  private readonly logger = new Logger('KafkaConnection');
  private readonly splitter: FrameSplitter | FrameReader;
  private readonly schedule: RequestSchedule<Job, Outcome>;
  /** Frames read while the schedule was full, in order; at most what one socket read delivered. */
  private readonly backlog: Buffer[] = [];
  private readonly abort = new AbortController();
  private muteTimer: CancelTimer | null = null;
  private pumping = false;
  private pumpAgain = false;
  /** Answer bytes released and not yet written, in order: one socket write when the tick ends (sendAnswer). */
  private outgoing: Buffer[] = [];
  private outgoingBytes = 0;
  private flushQueued = false;
  private reading = true;
  private closed = false;

  constructor(
    private readonly socket: Socket,
    readonly session: KafkaSession,
    private readonly services: KafkaServices,
    private readonly limits: ConnectionLimits,
    private readonly input: ConnectionInput = 'data-events',
  ) {
    this.splitter =
      input === 'data-events' ? new FrameSplitter(limits.requestBytesMax) : new FrameReader(limits.requestBytesMax);
    this.schedule = new RequestSchedule({
      inFlightMax: limits.inFlightRequestsMax,
      inFlightBytesMax: limits.requestBytesMax,
    });
  }

  /** Starts serving the socket; `onClose` runs once when the connection ends, whoever ends it. */
  start(onClose: () => void): void {
    const socket = this.socket;
    socket.setNoDelay(true);
    socket.setTimeout(this.limits.idleMs);
    if (this.input === 'data-events') socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('drain', () => this.drainBacklog());
    socket.on('timeout', () => this.idle());
    socket.on('error', (error) => this.close(`socket error: ${error.message}`));
    socket.on('close', () => {
      this.close('closed by the client');
      onClose();
    });
  }

  /** Ends the connection at once (a bad frame, a broker shutting down); requests still running are abandoned. */
  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.logger.debug(`connection from ${this.session.host} closed: ${reason}`);
    this.abort.abort();
    this.muteTimer?.();
    this.socket.destroy();
  }

  /**
   * With 'receive-calls': where the socket's next read should land, `readBuffer` (the caller's reused buffer) or
   * the current frame's own memory (FrameReader.readTarget).
   */
  readTarget(readBuffer: Buffer): Buffer {
    return this.splitter instanceof FrameReader ? this.splitter.readTarget(readBuffer) : readBuffer;
  }

  /**
   * Bytes read from the socket (with 'receive-calls': valid only during the call, frames are copied out, unless
   * they are the start of what readTarget() last returned).
   */
  receive(bytes: Buffer): void {
    const pushed = this.splitter.push(bytes);
    if (!pushed.ok) {
      this.close(pushed.message);
      return;
    }
    for (const frame of pushed.frames) this.backlog.push(frame);
    this.drainBacklog();
  }

  /** Admits frames while the schedule has room, starts what may start, and pauses or resumes reading. */
  private drainBacklog(): void {
    while (!this.closed && this.backlog.length > 0 && !this.schedule.full) this.admit(this.backlog.shift()!);
    this.pump();
    this.updateReading();
  }

  private admit(frame: Buffer): void {
    if (this.session.sasl.kind === 'raw-tokens') {
      this.schedule.arrive({ saslToken: frame.subarray(4) }, true, frame.length);
      return;
    }
    const decoded = decodeRequest(frame);
    if (!decoded.ok) {
      this.refuse(decoded.error);
      return;
    }
    const request = decoded.value;
    const handler = handlerFor(request.apiName);
    if (handler === undefined || request.apiVersion < handler.minVersion || request.apiVersion > handler.maxVersion) {
      this.close(`${request.apiName} v${request.apiVersion} is not served by this broker`);
      return;
    }
    if (this.session.authenticationRequired && handler.beforeAuthentication !== true) {
      this.close(`${request.apiName} before authentication (the broker requires SASL or a client certificate)`);
      return;
    }
    this.session.clientId = request.clientId;
    this.schedule.arrive({ request, handler }, handler.ordering === 'exclusive', frame.length);
  }

  private refuse(error: KafkaDecodeError): void {
    const header = error.header;
    if (error.code === 'unsupported-version' && header?.apiKey === API_VERSIONS_KEY) {
      const answer = unsupportedApiVersionsAnswer(header.correlationId, ADVERTISED_VERSIONS);
      this.schedule.arrive({ answer }, false, 0);
      return;
    }
    this.close(`undecodable request (${error.code}): ${error.message}`);
  }

  /** Starts every request the schedule allows; re-entrant calls (a handler that answers at once) loop here. */
  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        if (this.closed) return;
        const now = this.services.clock.monotonicMs();
        for (const entry of this.schedule.takeStartable(now)) this.run(entry);
        if (now < this.schedule.mutedUntilMs && this.muteTimer === null) {
          this.muteTimer = this.services.clock.setTimer(Math.ceil(this.schedule.mutedUntilMs - now), () => {
            this.muteTimer = null;
            this.drainBacklog();
          });
        }
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
  }

  private run(entry: ScheduledRequest<Job, Outcome>): void {
    const job = entry.request;
    if ('answer' in job) {
      this.finish(entry, { frame: job.answer, closeReason: null });
      return;
    }
    if ('saslToken' in job) {
      this.exchangeBareToken(entry, job.saslToken);
      return;
    }
    const { request, handler } = job;
    const context = new RequestContext(this.session, this.services, this.abort.signal, entry.bytes);
    if (handler.beforeAuthentication !== true) context.charge('request_rate', 1);
    let answer: unknown;
    try {
      answer = (handler.handle as (request: KafkaRequest, context: RequestContext) => unknown)(request, context);
    } catch (error) {
      this.failed(request, error);
      return;
    }
    if (answer instanceof Promise) {
      answer.then(
        (settled) => this.answered(entry, request, settled, context),
        (error: unknown) => this.failed(request, error),
      );
    } else {
      this.answered(entry, request, answer, context);
    }
  }

  /** The v0 form of a SASL exchange: each answer a bare size-prefixed token, the connection closed on a failure. */
  private exchangeBareToken(entry: ScheduledRequest<Job, Outcome>, token: Buffer): void {
    const { sasl } = this.session;
    if (sasl.kind !== 'raw-tokens') {
      this.close('a bare SASL token outside a v0 handshake');
      return;
    }
    saslExchange({ session: this.session, services: this.services }, 'SaslHandshake v0', sasl.mechanism, token).then(
      (result) => {
        if (this.closed) return;
        this.finish(
          entry,
          result.ok
            ? { frame: [bareTokenFrame(result.token)], closeReason: null }
            : { frame: null, closeReason: `SASL authentication failed: ${result.reason}` },
        );
      },
      (error: unknown) => this.close(`SASL authentication failed: ${(error as Error)?.message ?? String(error)}`),
    );
  }

  private answered(
    entry: ScheduledRequest<Job, Outcome>,
    request: KafkaRequest,
    answer: unknown,
    context: RequestContext,
  ): void {
    if (this.closed) return;
    const closing = answer instanceof CloseConnection ? answer : null;
    const body = closing !== null ? closing.body : answer === NO_RESPONSE ? null : answer;
    let frame: Buffer[] | null = null;
    if (body !== null) {
      let fields = body as Record<string, unknown>;
      if (context.throttleMs > 0 && hasThrottleField(request.apiName, request.apiVersion)) {
        fields = { ...fields, throttleTimeMs: Math.max(Number(fields.throttleTimeMs ?? 0), context.throttleMs) };
      }
      try {
        frame = encodeResponse(request.apiName, request.apiVersion, request.correlationId, fields as never);
      } catch (error) {
        this.failed(request, error);
        return;
      }
    }
    if (context.throttleMs > 0) this.schedule.mute(this.services.clock.monotonicMs() + context.throttleMs);
    this.finish(entry, { frame, closeReason: closing?.reason ?? null });
  }

  private finish(entry: ScheduledRequest<Job, Outcome>, outcome: Outcome): void {
    const released = this.schedule.finish(entry, outcome);
    if (released.length > 0 && !this.socket.destroyed) {
      for (const { frame, closeReason } of released) {
        if (frame !== null) this.sendAnswer(frame);
        if (closeReason !== null) {
          this.flushAnswers();
          this.endAfterWrites(closeReason);
          return;
        }
      }
      // nothing else in flight can finish in this tick (a consumer's one Fetch at a time): no reason to hold it
      if (this.schedule.held === 0) this.flushAnswers();
    }
    this.drainBacklog();
  }

  /**
   * Holds an answer's bytes until a process.nextTick runs: after the current callback, or, when called from a
   * promise reaction (the usual case: handlers are async), once the promise reactions queued so far have run. The
   * answers of requests that complete together (a log write that took several batches) leave in one socket write,
   * not one system call (and one wake-up of the client) each. finish() lets them go at once when no request is
   * left in flight.
   */
  private sendAnswer(frame: Buffer[]): void {
    for (const buffer of frame) {
      this.outgoing.push(buffer);
      this.outgoingBytes += buffer.length;
    }
    if (this.flushQueued) return;
    this.flushQueued = true;
    process.nextTick(() => {
      this.flushQueued = false;
      this.flushAnswers();
    });
  }

  /**
   * Writes the held answers: small ones joined into one buffer and one plain socket write (no cork, no writev of
   * a list), larger ones (a Fetch answer's record batches, referenced, not copied) as a corked list.
   */
  private flushAnswers(): void {
    const parts = this.outgoing;
    if (parts.length === 0) return;
    const bytes = this.outgoingBytes;
    this.outgoing = [];
    this.outgoingBytes = 0;
    if (this.socket.destroyed) return;
    if (parts.length === 1) {
      this.socket.write(parts[0]);
    } else if (bytes <= JOINED_ANSWER_BYTES_MAX) {
      this.socket.write(Buffer.concat(parts, bytes));
    } else {
      this.socket.cork();
      for (const buffer of parts) this.socket.write(buffer);
      this.socket.uncork();
    }
  }

  /** Ends the connection once what was written has gone out (an answer the client should read first). */
  private endAfterWrites(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.logger.debug(`connection from ${this.session.host} closed: ${reason}`);
    this.abort.abort();
    this.muteTimer?.();
    this.socket.destroySoon(); // ends the socket once its writes are out, then destroys it
  }

  private failed(request: KafkaRequest, error: unknown): void {
    this.logger.error(
      `${request.apiName} v${request.apiVersion} from ${this.session.host} failed: ${(error as Error)?.stack ?? String(error)}`,
    );
    this.close(`${request.apiName} failed`);
  }

  private updateReading(): void {
    if (this.closed) return;
    const stop = this.schedule.full || this.backlog.length > 0 || this.socket.writableNeedDrain;
    if (stop && this.reading) this.socket.pause();
    else if (!stop && !this.reading) this.socket.resume();
    this.reading = !stop;
  }

  private idle(): void {
    if (this.schedule.held === 0 && this.backlog.length === 0) {
      this.close(`idle for ${this.limits.idleMs} ms`);
      return;
    }
    this.socket.setTimeout(this.limits.idleMs); // busy (a long poll, a slow handler): wait another period
  }
}
