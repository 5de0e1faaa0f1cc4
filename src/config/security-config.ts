// Security settings, read once at start-up with the rest of the broker config (broker-config.ts calls
// loadSecurityConfig). A bad value stops the broker with a message naming the setting.
//
//   BROOK_AUTH              none (default) | basic | bearer | basic,bearer: how clients authenticate
//   BROOK_AUTH_USERS_FILE   the users file (src/security/users-file.ts): passwords (scrypt) and API keys (SHA-256)
//   BROOK_AUTHORIZER_ENABLE true: every request is checked against the ACLs (no matching allow = denied)
//   BROOK_SUPER_USERS       Kafka's syntax, User:alice;User:bob: principals that bypass the ACLs
//   BROOK_TLS_CERT, BROOK_TLS_KEY  PEM files: the public listener speaks HTTPS
//   BROOK_TLS_CA            PEM file: client certificates signed by it authenticate as User:<common name>
//   BROOK_CONNECTIONS_MAX   open connections of the listener (10000); past it new ones are refused
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { boolean, ConfigError, integer, type Env } from './env-values.js';

export type AuthMode = 'basic' | 'bearer';

export interface TlsConfig {
  cert: Buffer;
  key: Buffer;
  ca: Buffer | null;
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
  if (!cert && !key) {
    if (ca) throw new ConfigError('BROOK_TLS_CA is set without BROOK_TLS_CERT and BROOK_TLS_KEY');
    return null;
  }
  if (!cert || !key) throw new ConfigError('BROOK_TLS_CERT and BROOK_TLS_KEY must be set together');
  return {
    cert: readPem('BROOK_TLS_CERT', cert),
    key: readPem('BROOK_TLS_KEY', key),
    ca: ca ? readPem('BROOK_TLS_CA', ca) : null,
  };
}

function readPem(name: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError(`${name}=${path} cannot be read: ${(error as Error).message}`);
  }
}
