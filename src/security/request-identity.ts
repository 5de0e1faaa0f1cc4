// Who made an HTTP request, as the authentication hook found it (security-hooks.ts): the principal, the credential
// it rests on (a stream the request opens is re-checked against it), and for a request a peer forwarded, the
// client address the first broker saw. Kept beside the Node request (WeakMaps: gone with the request), so that
// every edge that serves HTTP requests (REST controllers, SSE streams, internal routes' audit lines) reads the
// same identity without importing another edge.
import type { IncomingMessage } from 'node:http';
import type { Credential } from './authenticator.service.js';

/** A Fastify request as far as identity goes: the Node request under it and the client address. */
export interface RequestLike {
  raw: IncomingMessage;
  ip?: string;
}

const ANONYMOUS = 'User:ANONYMOUS';
const principals = new WeakMap<IncomingMessage, string>();
const credentials = new WeakMap<IncomingMessage, Credential>();
const forwardedHosts = new WeakMap<IncomingMessage, string>();

/**
 * An anonymous request (no credential, not forwarded: every request when authentication is off) is not entered:
 * the look-ups below answer it by default. Two WeakMap entries a request cost their sets and the scavenges'
 * ephemeron work.
 */
export function rememberIdentity(
  raw: IncomingMessage,
  identity: { principal: string; credential: Credential; forwardedHost?: string },
): void {
  if (
    identity.credential.kind === 'anonymous' &&
    identity.principal === ANONYMOUS &&
    identity.forwardedHost === undefined
  )
    return;
  principals.set(raw, identity.principal);
  credentials.set(raw, identity.credential);
  if (identity.forwardedHost !== undefined) forwardedHosts.set(raw, identity.forwardedHost);
}

/** The authenticated principal of a request (User:ANONYMOUS when authentication is off). */
export function principalOf(request: RequestLike | IncomingMessage): string {
  const raw = 'raw' in request ? request.raw : request;
  return principals.get(raw) ?? ANONYMOUS;
}

/** What the request's principal was authenticated by; a forwarded request's is its peer's word. */
export function credentialOf(request: RequestLike): Credential {
  return credentials.get(request.raw) ?? { kind: 'anonymous' };
}

/** The client address as ACLs name hosts: IPv4-mapped IPv6 addresses in their IPv4 form. */
export function hostOf(request: RequestLike): string {
  const forwarded = forwardedHosts.get(request.raw);
  if (forwarded !== undefined) return forwarded;
  const ip = request.ip ?? '';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}
