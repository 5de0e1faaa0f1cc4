// Broker-to-broker HTTP (DESIGN.md §1): calls to another broker's internal routes (INTERNAL_PREFIX), carrying the
// cluster secret. Binary record batches travel as they are (BATCHES_MEDIA_TYPE), JSON only for control calls.
// A peer's Brook error comes back as the same BrookError; a peer that cannot be reached is `unreachable`, which
// callers turn into the error that fits (leader not available, no controller).
import { Inject, Injectable } from '@nestjs/common';
import { BrookError } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { CoordinationStore } from '../coordination/coordination-store.js';
import { BROKERS_PREFIX } from '../coordination/cluster-keys.js';
import type { BrokerRegistration } from '../topic/cluster-metadata.js';

export const INTERNAL_PREFIX = '/internal/v1';
export const CLUSTER_SECRET_HEADER = 'x-brook-cluster-secret';
export const BATCHES_MEDIA_TYPE = 'application/vnd.brook.batches';
/** A peer call without an answer in this time fails (reads add their long-poll wait on top). */
export const PEER_REQUEST_TIMEOUT_MS = 10_000;
/** Broker addresses are re-read from the registrations at most this often (and at once on a miss). */
const BROKER_DIRECTORY_TTL_MS = 1_000;

export class PeerUnreachableError extends Error {
  override readonly name = 'PeerUnreachableError';
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
export class PeerClient {
  private directory = new Map<number, string>();
  private directoryReadAtMs = -Infinity;
  private refreshing: Promise<void> | null = null;

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly store: CoordinationStore,
  ) {}

  /**
   * The advertised URL of a live broker, or null when it is not registered. While the store cannot be read, the
   * addresses read last are used: brokers keep serving each other when Redis is down.
   */
  async brokerUrl(brokerId: number): Promise<string | null> {
    if (!this.directory.has(brokerId)) await this.refreshDirectory();
    else if (performance.now() - this.directoryReadAtMs >= BROKER_DIRECTORY_TTL_MS) void this.refreshDirectory();
    return this.directory.get(brokerId) ?? null;
  }

  /** Calls a peer; resolves with the response of a 2xx answer, throws the peer's BrookError otherwise. */
  async call(baseUrl: string, request: PeerRequest): Promise<Response> {
    const url = new URL(`${INTERNAL_PREFIX}${request.path}`, baseUrl);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { [CLUSTER_SECRET_HEADER]: this.config.clusterSecret ?? '' };
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
    let response: Response;
    try {
      response = await fetch(url, { method: request.method, headers, body, signal });
    } catch (error) {
      throw new PeerUnreachableError(`broker at ${baseUrl} did not answer: ${(error as Error).message}`);
    }
    if (response.ok) return response;
    const text = await response.text().catch(() => '');
    let parsed: { error_code?: unknown; message?: unknown } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // not a Brook error body
    }
    const code = typeof parsed.error_code === 'number' ? parsed.error_code : response.status;
    const message = typeof parsed.message === 'string' ? parsed.message : `peer answered ${response.status}`;
    throw new BrookError(response.status, code, message);
  }

  /** One read of the registrations at a time; a failed read keeps the addresses read last. */
  private refreshDirectory(): Promise<void> {
    this.refreshing ??= this.readDirectory()
      .catch(() => {
        this.directoryReadAtMs = performance.now();
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
    this.directoryReadAtMs = performance.now();
  }
}
