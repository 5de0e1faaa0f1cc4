// CORS for browsers calling Brook from another origin (BROOK_CORS_ALLOWED_ORIGINS; off when empty), with
// @fastify/cors. Its onRequest hook runs first in the pipeline, so a preflight (OPTIONS with
// Access-Control-Request-Method, on any path) is answered 204 before authentication, which browsers do not send on a
// preflight. An allowed origin is echoed (never `*`, so that credentials work) with `Vary: Origin` and
// `Access-Control-Allow-Credentials: true`; any other origin gets no CORS header at all, and its preflight is 404.
// Requests without an `Origin` header are answered as before.
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { originGranted, type CorsOrigins } from '../config/cors-origins.js';

export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Request headers a browser may send besides the CORS-safelisted ones (plus any `Brook-*` or `X-Brook-*`). */
export const CORS_REQUEST_HEADERS = [
  'Authorization',
  'Content-Type',
  'Accept',
  'Idempotency-Key',
  'Last-Event-ID',
  'X-Request-Id',
  'Brook-Producer-Id',
  'Brook-Producer-Epoch',
  'Brook-Producer-Sequence',
] as const;

/** Answer headers scripts in the page may read besides the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = [
  'Idempotent-Replayed',
  'Retry-After',
  'Location',
  'X-Request-Id',
  'X-Brook-Next-Offset',
  'X-Brook-High-Watermark',
  'Brook-Outcome',
  'Brook-Producer-Id',
  'Brook-Producer-Epoch',
  'WWW-Authenticate',
] as const;

/** How long a browser may keep a preflight's answer. */
export const CORS_PREFLIGHT_MAX_AGE_SECONDS = 600;

const BROOK_HEADER = /^(x-)?brook-[a-z0-9-]+$/i;

/**
 * The headers a preflight allows: Brook's request headers, and those of the ones asked for (its
 * Access-Control-Request-Headers) that are Brook's own (`Brook-*`, `X-Brook-*`).
 */
export function allowedRequestHeaders(requested: string | undefined): string[] {
  const allowed: string[] = [...CORS_REQUEST_HEADERS];
  const known = new Set(allowed.map((name) => name.toLowerCase()));
  for (const name of (requested ?? '').split(',').map((part) => part.trim())) {
    if (BROOK_HEADER.test(name) && !known.has(name.toLowerCase())) {
      known.add(name.toLowerCase());
      allowed.push(name);
    }
  }
  return allowed;
}

/** Registers CORS on the application when origins are configured; nothing otherwise. */
export function registerCors(fastify: FastifyInstance, origins: CorsOrigins): void {
  if (origins === null) return;
  void fastify.register(cors, {
    delegator: (request: FastifyRequest, callback) =>
      callback(null, {
        origin: originGranted(origins, request.headers.origin),
        credentials: true,
        methods: [...CORS_METHODS],
        allowedHeaders: allowedRequestHeaders(request.headers['access-control-request-headers']),
        exposedHeaders: [...CORS_EXPOSED_HEADERS],
        maxAge: CORS_PREFLIGHT_MAX_AGE_SECONDS,
        strictPreflight: false,
      }),
  });
}
