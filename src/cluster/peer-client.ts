// Broker-to-broker HTTP (DESIGN.md §1): calls to another broker's internal routes (INTERNAL_PREFIX), carrying the
// cluster secret. Binary record batches travel as they are (BATCHES_MEDIA_TYPE), JSON only for control calls.
// A peer's Brook error comes back as the same BrookError (with its unknown produce outcome, from the Brook-Outcome
// header); a peer that cannot be reached is `unreachable`, which callers turn into the error that fits (leader not
// available, no controller). An unreachable peer says whether the request can have reached it: a connection that
// was refused or never made (nothing was sent) is told apart from one that broke or timed out after the request
// went out (the peer may have acted on it).
//
// Every call made while serving a request carries that request's X-Request-Id, so the peer logs it under the same
// id. Calls go over node:http with a keep-alive agent (peer-http-request.ts; not global fetch, whose WebAssembly
// parser costs each broker 20-30 MiB), answers received whole, up to PEER_ANSWER_BYTES_MAX. With TLS
// (BROOK_TLS_CERT/KEY) peers' URLs are https: calls go through a keep-alive HTTPS agent that verifies the peer's
// certificate against BROOK_TLS_PEER_CA (or the system's CAs) and presents this broker's certificate, which the
// peer's internal routes require when it has a peer CA (cluster/peer-auth.ts).
import { Inject, Injectable, type OnModuleDestroy, Optional } from '@nestjs/common';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { currentRequestId } from '../common/request-context.js';
import { BrookError, OUTCOME_HEADER } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { CoordinationStore } from '../coordination/coordination-store.js';
import { BROKERS_PREFIX } from '../coordination/cluster-keys.js';
import type { BrokerRegistration } from '../topic/cluster-metadata.js';
import { type Clock, CLOCK, systemClock } from '../common/clock.js';
import { AnswerBuffers } from './answer-buffers.js';
import { type BinaryAnswer, NOT_SENT_CODE, PeerAnswer, sendPeerRequest } from './peer-http-request.js';
import { FetchConnectionError, PeerFetchConnection } from './peer-fetch-connection.js';

export const INTERNAL_PREFIX = '/internal/v1';
export const CLUSTER_SECRET_HEADER = 'x-brook-cluster-secret';
/** On a request forwarded by a peer: the principal the forwarding broker authenticated, and the client's address. */
export const PRINCIPAL_HEADER = 'x-brook-principal';
export const CLIENT_HOST_HEADER = 'x-brook-client-host';
/** On a consumer-group request a broker sends on to another (group forwarding, the cluster-wide group list): its id. */
export const FORWARDED_HEADER = 'x-brook-forwarded-by';
const REQUEST_ID_HEADER = 'x-request-id';
/**
 * Connections to one peer through an agent. Over https each partition followed from that peer holds one in a long
 * poll, so the bound is generous; past it requests queue (their timeout runs while they wait).
 */
const PEER_SOCKETS_MAX = 4096;
/**
 * A kept connection unused this long is closed (before the peer's own keep-alive timeout, Fastify's 72 s, so a
 * request is not sent on a connection the peer is closing; a shorter `keep-alive: timeout` the peer announces wins).
 */
const PEER_IDLE_SOCKET_MS = 30_000;
/**
 * The largest answer a peer call takes (a forwarded read of BROOK_READ_BYTES_MAX, at most 64 MiB, as JSON is the
 * largest a Brook peer sends); a larger one fails the call.
 */
export const PEER_ANSWER_BYTES_MAX = 256 * 1024 * 1024;
export const BATCHES_MEDIA_TYPE = 'application/vnd.brook.batches';
/** A peer call without an answer in this time fails (reads add their long-poll wait on top). */
export const PEER_REQUEST_TIMEOUT_MS = 10_000;
/** Parsed peer URLs kept by getBinary; past this many (peers re-registered at new addresses) it starts over. */
const ORIGINS_KEPT = 64;
/** Broker addresses are re-read from the registrations at most this often (and at once on a miss). */
const BROKER_DIRECTORY_TTL_MS = 1_000;

/** Errors of a connection that was never made: the request cannot have reached the peer. */
const NOT_CONNECTED_CODES = new Set([
  NOT_SENT_CODE,
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
]);

export class PeerUnreachableError extends Error {
  override readonly name = 'PeerUnreachableError';

  constructor(
    message: string,
    /** False only when no connection was made: the peer cannot have seen the request. */
    readonly requestMayHaveArrived: boolean = true,
  ) {
    super(message);
  }
}

/** Whether a failed call may have delivered its request: anything but a connection that was never made. */
function mayHaveArrived(error: unknown): boolean {
  const cause = (error as { cause?: unknown }).cause ?? error;
  const codes = [cause, ...((cause as { errors?: unknown[] }).errors ?? [])].map(
    (item) => (item as { code?: unknown }).code,
  );
  return !codes.some((code) => typeof code === 'string' && NOT_CONNECTED_CODES.has(code));
}

/** A request to any route of a peer (forwarded public requests included), through peerFetch. */
export interface PeerFetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  signal: AbortSignal;
}

export interface PeerRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number>;
  json?: unknown;
  body?: Buffer;
  timeoutMs?: number;
  signal?: AbortSignal;
}

@Injectable()
export class PeerClient implements OnModuleDestroy {
  private directory = new Map<number, string>();
  private directoryReadAtMs = -Infinity;
  private refreshing: Promise<void> | null = null;
  private readonly httpsAgent: HttpsAgent | null;
  /** Keep-alive connections for every call over plain HTTP but a fetch loop's own (fetchConnection). */
  private readonly httpAgent = new HttpAgent({
    keepAlive: true,
    maxSockets: PEER_SOCKETS_MAX,
    timeout: PEER_IDLE_SOCKET_MS,
  });
  /** The buffers answers on fetch connections are received into, shared and reused (answer-buffers.ts). */
  private readonly answerBuffers = new AnswerBuffers();
  /** Peers' URLs as getBinary read them for fetch connections, by the URL's text (originOf). */
  private readonly origins = new Map<string, URL>();

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly store: CoordinationStore,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {
    const tls = config.security.tls;
    this.httpsAgent =
      tls === null
        ? null
        : new HttpsAgent({
            keepAlive: true,
            maxSockets: PEER_SOCKETS_MAX,
            timeout: PEER_IDLE_SOCKET_MS,
            ca: tls.peerCa ?? undefined,
            cert: tls.cert,
            key: tls.key,
          });
  }

  onModuleDestroy(): void {
    this.httpsAgent?.destroy();
    this.httpAgent.destroy();
  }

  /**
   * Sends a request to a peer broker, adding the cluster secret and the current request's id, through the agent of
   * its protocol. Resolves with the peer's answer, whatever its status; rejects when it cannot be reached (or its
   * certificate is not trusted), when `init.signal` aborts first, or for an answer over PEER_ANSWER_BYTES_MAX.
   */
  async peerFetch(url: URL, init: PeerFetchInit): Promise<PeerAnswer> {
    const headers: Record<string, string> = {
      ...init.headers,
      [CLUSTER_SECRET_HEADER]: this.config.clusterSecret ?? '',
    };
    const requestId = currentRequestId();
    if (requestId !== undefined) headers[REQUEST_ID_HEADER] = requestId;
    const https = url.protocol === 'https:' && this.httpsAgent !== null;
    const answer = await sendPeerRequest(url, {
      method: init.method,
      headers,
      body: init.body,
      agent: https ? this.httpsAgent! : this.httpAgent,
      https,
      signal: init.signal,
      answerBytesMax: PEER_ANSWER_BYTES_MAX,
    });
    return new PeerAnswer(answer.status, answer.headers, answer.body);
  }

  /**
   * The advertised URL of a live broker, or null when it is not registered. While the store cannot be read, the
   * addresses read last are used: brokers keep serving each other when Redis is down.
   */
  async brokerUrl(brokerId: number): Promise<string | null> {
    if (!this.directory.has(brokerId)) await this.refreshDirectory();
    else if (this.clock.monotonicMs() - this.directoryReadAtMs >= BROKER_DIRECTORY_TTL_MS) void this.refreshDirectory();
    return this.directory.get(brokerId) ?? null;
  }

  /** Calls a peer; resolves with the response of a 2xx answer, throws the peer's BrookError otherwise. */
  async call(baseUrl: string, request: PeerRequest): Promise<PeerAnswer> {
    const url = new URL(`${INTERNAL_PREFIX}${request.path}${searchOf(request.query)}`, baseUrl);
    const headers: Record<string, string> = {};
    let body: string | Buffer | undefined;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.body !== undefined) {
      headers['content-type'] = BATCHES_MEDIA_TYPE;
      body = request.body;
    }
    const timeout = AbortSignal.timeout(request.timeoutMs ?? PEER_REQUEST_TIMEOUT_MS);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    let response: PeerAnswer;
    try {
      response = await this.peerFetch(url, { method: request.method, headers, body, signal });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw new PeerUnreachableError(
        `broker at ${baseUrl} did not answer: ${(error as Error).message}${cause === undefined ? '' : ` (${cause})`}`,
        mayHaveArrived(error),
      );
    }
    if (response.ok) return response;
    throw peerError(response.status, await response.text(), response.headers.get(OUTCOME_HEADER));
  }

  /**
   * A GET of a peer's internal route with a binary answer (the follower fetch, once per replicated batch run):
   * through the agent of its protocol, the body as one Buffer; over `connection` (plain HTTP) into a reused buffer,
   * which the answer's release gives back. Errors as in call: unreachable, or the peer's BrookError for an answer
   * that is not 2xx. `path` must be in URL form (its segments percent-encoded, no `.` or `..` segment): over a
   * connection it goes out as it is, not through a URL parse.
   */
  async getBinary(
    baseUrl: string,
    request: Pick<PeerRequest, 'path' | 'query' | 'timeoutMs' | 'signal'>,
    connection?: PeerFetchConnection,
  ): Promise<BinaryAnswer> {
    const target = `${INTERNAL_PREFIX}${request.path}${searchOf(request.query)}`;
    const headers: Record<string, string> = { [CLUSTER_SECRET_HEADER]: this.config.clusterSecret ?? '' };
    const requestId = currentRequestId();
    if (requestId !== undefined) headers[REQUEST_ID_HEADER] = requestId;
    const timeoutMs = request.timeoutMs ?? PEER_REQUEST_TIMEOUT_MS;
    // over a fetch connection the leader's URL is parsed once (originOf), not with each fetch's path and query
    const origin = connection === undefined ? null : this.originOf(baseUrl);
    const url = origin?.protocol === 'http:' ? null : new URL(target, baseUrl);
    const https = url?.protocol === 'https:' && this.httpsAgent !== null;
    let answer: BinaryAnswer;
    try {
      answer =
        url === null
          ? await connection!.getTarget(origin!, target, headers, timeoutMs, request.signal)
          : await sendPeerRequest(url, {
              method: 'GET',
              headers,
              agent: https ? this.httpsAgent! : this.httpAgent,
              https,
              timeoutMs,
              signal: request.signal,
              answerBytesMax: PEER_ANSWER_BYTES_MAX,
            });
    } catch (error) {
      throw new PeerUnreachableError(
        `broker at ${baseUrl} did not answer: ${(error as Error).message}`,
        error instanceof FetchConnectionError ? error.requestMayHaveArrived : mayHaveArrived(error),
      );
    }
    if (answer.status >= 200 && answer.status < 300) return answer;
    const outcome = answer.headers[OUTCOME_HEADER];
    const text = answer.body.toString('utf8');
    answer.release?.();
    throw peerError(answer.status, text, typeof outcome === 'string' ? outcome : null);
  }

  /** `baseUrl` parsed, from ORIGINS_KEPT parses kept (a broker's peers' registered URLs: a few). */
  private originOf(baseUrl: string): URL {
    let origin = this.origins.get(baseUrl);
    if (origin === undefined) {
      if (this.origins.size >= ORIGINS_KEPT) this.origins.clear();
      origin = new URL(baseUrl);
      this.origins.set(baseUrl, origin);
    }
    return origin;
  }

  /**
   * A fetch loop's own connection to its leader (peer-fetch-connection.ts), for getBinary: answers over it are
   * received into reused buffers, given back by the answer's release. Plain HTTP only: over https getBinary uses
   * the TLS agent. The caller closes it.
   */
  fetchConnection(bodyBytesMax: number): PeerFetchConnection {
    return new PeerFetchConnection(this.answerBuffers, bodyBytesMax);
  }

  /** One read of the registrations at a time; a failed read keeps the addresses read last. */
  private refreshDirectory(): Promise<void> {
    this.refreshing ??= this.readDirectory()
      .catch(() => {
        this.directoryReadAtMs = this.clock.monotonicMs();
      })
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }

  private async readDirectory(): Promise<void> {
    const entries = await this.store.list(BROKERS_PREFIX);
    const directory = new Map<number, string>();
    for (const entry of entries) {
      const registration = JSON.parse(entry.value) as BrokerRegistration;
      directory.set(registration.brokerId, registration.url);
    }
    this.directory = directory;
    this.directoryReadAtMs = this.clock.monotonicMs();
  }
}

/** The BrookError of a peer's answer that is not 2xx: its Brook error body, else its status. */
function peerError(status: number, text: string, outcomeHeader: string | null): BrookError {
  let parsed: { error_code?: unknown; message?: unknown } = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    // not a Brook error body
  }
  const code = typeof parsed.error_code === 'number' ? parsed.error_code : status;
  const message = typeof parsed.message === 'string' ? parsed.message : `peer answered ${status}`;
  return new BrookError(status, code, message, undefined, outcomeHeader === 'unknown' ? 'unknown' : undefined);
}

/** Characters a query's names and values keep as they are in application/x-www-form-urlencoded (URLSearchParams). */
const FORM_PLAIN = /^[\w.*-]*$/;

/**
 * A peer request's query as a URL's search (`?a=1&b=2`, '' for none), encoded as URLSearchParams encodes it. Built
 * once: setting the parameters one by one on a URL serialized its search again at each (a follower fetch has seven,
 * every few milliseconds under W1c).
 */
export function searchOf(query: Readonly<Record<string, string | number>> | undefined): string {
  let search = '';
  for (const name in query) {
    const given = query[name];
    const value = String(given);
    // a safe integer's text is digits and a leading `-`, which the form keeps (a follower fetch's seven values)
    const plainValue = Number.isSafeInteger(given) || FORM_PLAIN.test(value);
    const pair = plainValue && FORM_PLAIN.test(name) ? `${name}=${value}` : new URLSearchParams({ [name]: value });
    search += `${search === '' ? '?' : '&'}${String(pair)}`;
  }
  return search;
}
