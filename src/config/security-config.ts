// Security settings, read once at start-up with the rest of the broker config (broker-config.ts calls
// loadSecurityConfig). A bad value stops the broker with a message naming the setting.
//
//   BROOK_AUTH              none (default) | basic | bearer | basic,bearer: how clients authenticate
//   BROOK_AUTH_USERS_FILE   the users file (src/config/users-file.ts): passwords (scrypt) and API keys (SHA-256)
//   BROOK_AUTHORIZER_ENABLE true: every request is checked against the ACLs (no matching allow = denied)
//   BROOK_SUPER_USERS       Kafka's syntax, User:alice;User:bob: principals that bypass the ACLs
//   BROOK_TLS_CERT, BROOK_TLS_KEY  PEM files: the public listener speaks HTTPS
//   BROOK_TLS_CA            PEM file: client certificates signed by it authenticate as User:<common name>
//   BROOK_TLS_PEER_CA       PEM file: the CA(s) that sign the brokers' own certificates. With TLS, brokers call
//                           each other over HTTPS; they verify each other's server certificates against it (default:
//                           the system's CAs), present their own certificate as a client certificate, and accept
//                           internal requests only with a certificate signed by it (on top of the cluster secret)
//   BROOK_CONNECTIONS_MAX   open connections of the listener (10000); past it new ones are refused
//   BROOK_STREAM_REAUTHORIZE_INTERVAL_MS  how often open streams (WebSocket, SSE) have their credentials and rights
//                           checked again (5000); an ACL change or a users-file reload is acted on at once
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { boolean, ConfigError, integer, type Env } from './env-values.js';

export type AuthMode = 'basic' | 'bearer';

export interface TlsConfig {
  cert: Buffer;
  key: Buffer;
  ca: Buffer | null;
  /** BROOK_TLS_PEER_CA: the brokers' CA; null: peers' server certificates are checked against the system's CAs. */
  peerCa: Buffer | null;
}

export interface SecurityConfig {
  /** Empty: no authentication, every request is User:ANONYMOUS. */
  authModes: AuthMode[];
  usersFile: string | null;
  authorizerEnable: boolean;
  superUsers: string[];
  tls: TlsConfig | null;
  /** Bound on open connections of the public listener. */
  connectionsMax: number;
  /** How often open streams are re-authorized at the latest. */
  streamReauthorizeIntervalMs: number;
}

const PRINCIPAL = /^User:[^;\s]+$/;

export function loadSecurityConfig(env: Env): SecurityConfig {
  const authModes = parseAuthModes(env.BROOK_AUTH);
  const usersFile = env.BROOK_AUTH_USERS_FILE?.trim() ? resolve(env.BROOK_AUTH_USERS_FILE.trim()) : null;
  if (authModes.length > 0 && usersFile === null) {
    throw new ConfigError(`BROOK_AUTH=${env.BROOK_AUTH} needs BROOK_AUTH_USERS_FILE (the users and API keys)`);
  }
  const superUsers = (env.BROOK_SUPER_USERS ?? '')
    .split(';')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  for (const principal of superUsers) {
    if (!PRINCIPAL.test(principal)) {
      throw new ConfigError(`BROOK_SUPER_USERS=${env.BROOK_SUPER_USERS} is invalid: expected User:alice;User:bob`);
    }
  }
  return {
    authModes,
    usersFile,
    authorizerEnable: boolean(env, 'BROOK_AUTHORIZER_ENABLE', false),
    superUsers,
    tls: loadTls(env),
    connectionsMax: integer(env, 'BROOK_CONNECTIONS_MAX', 10_000, 1),
    streamReauthorizeIntervalMs: integer(env, 'BROOK_STREAM_REAUTHORIZE_INTERVAL_MS', 5_000, 10, 3_600_000),
  };
}

function parseAuthModes(raw: string | undefined): AuthMode[] {
  const modes = new Set<AuthMode>();
  for (const part of (raw ?? 'none').split(',').map((mode) => mode.trim().toLowerCase())) {
    if (part === 'basic' || part === 'bearer') modes.add(part);
    else if (part !== 'none' && part !== '')
      throw new ConfigError(`BROOK_AUTH=${raw} is invalid: expected none, basic, bearer or basic,bearer`);
  }
  return [...modes];
}

function loadTls(env: Env): TlsConfig | null {
  const cert = env.BROOK_TLS_CERT?.trim();
  const key = env.BROOK_TLS_KEY?.trim();
  const ca = env.BROOK_TLS_CA?.trim();
  const peerCa = env.BROOK_TLS_PEER_CA?.trim();
  if (!cert && !key) {
    if (ca) throw new ConfigError('BROOK_TLS_CA is set without BROOK_TLS_CERT and BROOK_TLS_KEY');
    if (peerCa) throw new ConfigError('BROOK_TLS_PEER_CA is set without BROOK_TLS_CERT and BROOK_TLS_KEY');
    return null;
  }
  if (!cert || !key) throw new ConfigError('BROOK_TLS_CERT and BROOK_TLS_KEY must be set together');
  const tls: TlsConfig = {
    cert: readPem('BROOK_TLS_CERT', cert),
    key: readPem('BROOK_TLS_KEY', key),
    ca: ca ? readPem('BROOK_TLS_CA', ca) : null,
    peerCa: peerCa ? readPem('BROOK_TLS_PEER_CA', peerCa) : null,
  };
  const own = certificatesOf('BROOK_TLS_CERT', cert, tls.cert);
  if (tls.ca !== null) certificatesOf('BROOK_TLS_CA', ca!, tls.ca);
  if (tls.peerCa !== null) {
    const authorities = certificatesOf('BROOK_TLS_PEER_CA', peerCa!, tls.peerCa);
    if (!signedByAuthority(own, authorities)) {
      throw new ConfigError(
        `BROOK_TLS_CERT=${cert} is not signed by a CA in BROOK_TLS_PEER_CA=${peerCa}: the other brokers would ` +
          'refuse this broker; give every broker a certificate from the CA they share',
      );
    }
  }
  return tls;
}

/** The certificates of a PEM file (at least one), or a ConfigError naming the setting. */
export function certificatesOf(name: string, path: string, pem: Buffer): X509Certificate[] {
  const blocks = pem.toString('utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new ConfigError(`${name}=${path} contains no PEM certificate`);
  try {
    return blocks.map((block) => new X509Certificate(block));
  } catch (error) {
    throw new ConfigError(`${name}=${path} has an invalid certificate: ${(error as Error).message}`);
  }
}

/**
 * Whether a chain (leaf first, then intermediates, as in a PEM file or a TLS handshake) leads to one of the
 * authorities: each certificate is signed by the next one, up to one that is an authority or signed by one.
 */
export function signedByAuthority(chain: readonly X509Certificate[], authorities: readonly X509Certificate[]): boolean {
  const signs = (issuer: X509Certificate, certificate: X509Certificate) =>
    certificate.checkIssued(issuer) && certificate.verify(issuer.publicKey);
  for (let index = 0; index < chain.length; index++) {
    const certificate = chain[index];
    if (
      authorities.some(
        (authority) => authority.fingerprint256 === certificate.fingerprint256 || signs(authority, certificate),
      )
    ) {
      return true;
    }
    const next = chain[index + 1];
    if (next === undefined || !signs(next, certificate)) return false;
  }
  return false;
}

function readPem(name: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError(`${name}=${path} cannot be read: ${(error as Error).message}`);
  }
}
