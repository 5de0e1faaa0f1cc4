// The CLI's only way to the broker: openapi-fetch over the types generated from openapi.yaml
// (generated/brook-api.ts). `connect` finds the first `--bootstrap-server` that answers and the cluster id;
// every failure to reach a broker (including a server that does not answer JSON, so is no Brook broker) becomes
// an UnreachableError naming the URL, every error the broker answers a BrokerError with its `error_code`.
import createClient, { type Client } from 'openapi-fetch';
import { BrokerError, CliError, InterruptedError, UnreachableError, UsageError } from './errors.js';
import type { paths } from './generated/brook-api.js';

/**
 * JSON answers only: v3 and v2 JSON content types and the schema registry's (the read route's raw-batches
 * alternative is not used).
 */
export type ApiMediaType =
  'application/json' | `application/vnd.kafka.${string}` | 'application/vnd.schemaregistry.v1+json';
export type BrookApi = Client<paths, ApiMediaType>;

/** How long one request may take before the broker counts as unreachable (long-poll waits are added to it). */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface Connection {
  api: BrookApi;
  baseUrl: string;
  clusterId: string;
}

export interface ApiResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Returns the data of a successful call; throws a BrokerError with the broker's message otherwise. */
export function unwrap<T>(result: ApiResult<T>): T {
  if (result.error !== undefined || !result.response.ok) {
    throw brokerError(result.response, result.error);
  }
  return result.data as T;
}

export function brokerError(response: Response, body: unknown): BrokerError {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const errorCode = typeof fields.error_code === 'number' ? fields.error_code : undefined;
  const detail =
    typeof fields.message === 'string' ? fields.message : typeof body === 'string' && body !== '' ? body : '';
  const message = `${detail || `HTTP ${response.status} ${response.statusText}`}`.trim();
  return new BrokerError(
    errorCode === undefined ? message : `${message} (error ${errorCode})`,
    response.status,
    errorCode,
  );
}

/** Tries each server in order; the first whose `GET /v3/clusters` answers is used for the whole command. */
export async function connect(servers: readonly string[], signal?: AbortSignal): Promise<Connection> {
  let lastError: CliError | undefined;
  for (const baseUrl of servers) {
    const api = createApi(baseUrl, signal);
    try {
      const clusters = unwrap(await api.GET('/v3/clusters'));
      const clusterId = clusters.data[0]?.cluster_id;
      if (clusterId === undefined) throw new BrokerError(`the broker at ${baseUrl} reports no cluster`, 500, undefined);
      return { api, baseUrl, clusterId };
    } catch (error) {
      if (!(error instanceof UnreachableError)) throw error;
      lastError = error;
    }
  }
  throw lastError ?? new UnreachableError('no --bootstrap-server given');
}

export function createApi(baseUrl: string, signal?: AbortSignal): BrookApi {
  return createClient<paths, ApiMediaType>({
    baseUrl,
    fetch: (request) => fetchOrExplain(baseUrl, request, signal),
  });
}

/**
 * The credentials the CLI sends, from the environment (as Kafka's tools read a client config): BROOK_API_KEY as a
 * Bearer key, or BROOK_USER and BROOK_PASSWORD for Basic; none when unset. A broker over HTTPS with a private CA:
 * NODE_EXTRA_CA_CERTS=ca.crt.
 */
export function authorizationFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const apiKey = env.BROOK_API_KEY?.trim();
  if (apiKey) return `Bearer ${apiKey}`;
  const user = env.BROOK_USER;
  if (user === undefined || user === '') return undefined;
  if (user.includes(':')) throw new UsageError('BROOK_USER must not contain a colon');
  return `Basic ${Buffer.from(`${user}:${env.BROOK_PASSWORD ?? ''}`).toString('base64')}`;
}

async function fetchOrExplain(baseUrl: string, request: Request, signal: AbortSignal | undefined): Promise<Response> {
  const authorization = authorizationFromEnv();
  if (authorization !== undefined && !request.headers.has('authorization')) {
    request.headers.set('authorization', authorization);
  }
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS + waitMsOf(request));
  const signals = [request.signal, timeout, ...(signal === undefined ? [] : [signal])];
  let response: Response;
  try {
    response = await fetch(request, { signal: AbortSignal.any(signals) });
  } catch (error) {
    if (signal?.aborted === true || request.signal.aborted) throw new InterruptedError();
    if (timeout.aborted) {
      throw new UnreachableError(`the broker at ${baseUrl} did not answer within ${REQUEST_TIMEOUT_MS} ms`);
    }
    throw new UnreachableError(`cannot reach the broker at ${baseUrl} (${networkReason(error)})`);
  }
  const type = response.headers.get('content-type') ?? '';
  const empty = response.status === 204 || response.headers.get('content-length') === '0';
  if (!empty && !/json/i.test(type)) {
    await response.body?.cancel();
    throw new UnreachableError(
      `the server at ${baseUrl} is not a Brook broker (it answered HTTP ${response.status} with '${type}', not JSON)`,
    );
  }
  return response;
}

function waitMsOf(request: Request): number {
  const wait = Number(new URL(request.url).searchParams.get('wait_ms') ?? 0);
  return Number.isFinite(wait) && wait > 0 ? wait : 0;
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
};

export function networkReason(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const code = cause?.code;
  if (code !== undefined) return REASONS[code] ?? code;
  if (cause?.message !== undefined) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
