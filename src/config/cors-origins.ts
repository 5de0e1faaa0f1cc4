// BROOK_CORS_ALLOWED_ORIGINS: the browser origins allowed to call Brook from another origin. Empty (the default)
// turns CORS off (no CORS headers, and the WebSocket and SSE origin checks pass everything); `*` allows every
// origin; otherwise a comma list of origins as browsers send them (`scheme://host[:port]`, no path). A request
// without an `Origin` header (curl, Kafka tools, server-side clients) is never refused by the origin check.

import { ConfigError, type Env } from './env-values.js';

/** Null: CORS off. */
export type CorsOrigins = null | '*' | ReadonlySet<string>;

export const CORS_ORIGINS_ENV = 'BROOK_CORS_ALLOWED_ORIGINS';

export function corsOriginsFromEnv(env: Env): CorsOrigins {
  const raw = env[CORS_ORIGINS_ENV]?.trim() ?? '';
  if (raw === '') return null;
  if (raw === '*') return '*';
  const origins = new Set<string>();
  for (const entry of raw.split(',').map((part) => part.trim())) {
    if (entry === '*') throw new ConfigError(`${CORS_ORIGINS_ENV}: '*' allows every origin and stands alone`);
    origins.add(normalizedOrigin(entry));
  }
  return origins;
}

function normalizedOrigin(entry: string): string {
  let parsed: URL;
  try {
    parsed = new URL(entry);
  } catch {
    throw new ConfigError(`${CORS_ORIGINS_ENV}: '${entry}' is not an origin (expected scheme://host[:port])`);
  }
  if (parsed.origin === 'null' || `${parsed.origin}/` !== parsed.href.replace(/\/?$/, '/')) {
    throw new ConfigError(
      `${CORS_ORIGINS_ENV}: '${entry}' is not an origin (expected scheme://host[:port], without path, query or user)`,
    );
  }
  return parsed.origin;
}

/** Whether a request with this `Origin` header may go on: always without the header or with CORS off. */
export function originAllowed(origins: CorsOrigins, origin: string | undefined): boolean {
  if (origin === undefined || origins === null || origins === '*') return true;
  return origins.has(origin);
}

/** Whether a browser at this origin gets a CORS grant (an `Access-Control-Allow-Origin` naming it). */
export function originGranted(origins: CorsOrigins, origin: string | undefined): boolean {
  return origin !== undefined && origins !== null && (origins === '*' || origins.has(origin));
}
