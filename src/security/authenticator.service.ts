// Authentication: who is calling. Credentials, in the order tried: a TLS client certificate verified against
// BROOK_TLS_CA (User:<common name>), `Authorization: Basic` (users file, scrypt) when BROOK_AUTH has basic,
// `Authorization: Bearer <API key>` when it has bearer. A request with no credentials is User:ANONYMOUS when
// authentication is off, and 401 when it is on; a wrong credential is always 401.
//
// This is the API the WebSocket gateway and SSE call too:
//   authenticate({ authorization, token, certificate }) -> principal ('User:alice'), or throws a 401 BrookError
// (`token` is the WebSocket's ?token= query parameter for browsers, taken as a Bearer credential).
//
// scrypt costs tens of milliseconds (on the libuv pool, not the event loop), so a verified (name, password) pair is
// remembered for VERIFIED_CACHE_TTL_MS, keyed by a keyed hash (the password itself is never kept); the cache is
// bounded and cleared whenever the users file changes, which is checked every USERS_FILE_POLL_MS. Password checks
// that miss the cache run at most PASSWORD_CHECKS_IN_FLIGHT_MAX at a time with a bounded queue behind them; past
// it a request is refused with 429 (42901): guessing passwords cannot take all the CPU.
import type { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { verifiedChain } from '../cluster/peer-auth.js';
import { certificatesOf, signedByAuthority } from '../config/security-config.js';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { BrookError } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import {
  apiKeyHash,
  apiKeyId,
  parseUsersFile,
  verifyPassword,
  type ApiKeyEntry,
  type PasswordEntry,
} from '../config/users-file.js';

export const ANONYMOUS = 'User:ANONYMOUS';
export const USERS_FILE_POLL_MS = 2_000;
export const VERIFIED_CACHE_TTL_MS = 60_000;
export const VERIFIED_CACHE_ENTRIES_MAX = 10_000;
export const PASSWORD_CHECKS_IN_FLIGHT_MAX = 4;
export const PASSWORD_CHECKS_QUEUED_MAX = 256;
/** Longest Authorization header looked at; longer ones are refused before any decoding. */
export const AUTHORIZATION_BYTES_MAX = 4096;

export interface Credentials {
  authorization?: string;
  /** A bearer API key given another way (the WebSocket's ?token= for browsers). */
  token?: string;
  /** The common name of a TLS client certificate the TLS layer verified against BROOK_TLS_CA. */
  certificateCommonName?: string | null;
}

export const unauthorized = (message: string) => new BrookError(401, 40101, message);

@Injectable()
export class Authenticator implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Authenticator');
  private passwords = new Map<string, PasswordEntry>();
  private apiKeys = new Map<string, ApiKeyEntry>();
  private usersFileStamp = '';
  private readonly verified = new Map<string, { principal: string; expiresAt: number }>();
  private readonly cacheKey = randomBytes(32);
  private timer: NodeJS.Timeout | null = null;
  private passwordChecksInFlight = 0;
  private readonly passwordCheckQueue: Array<() => void> = [];
  /** The bounds on password checks (tests lower them). */
  readonly passwordCheckLimits = { inFlightMax: PASSWORD_CHECKS_IN_FLIGHT_MAX, queuedMax: PASSWORD_CHECKS_QUEUED_MAX };

  /** BROOK_TLS_CA: only client certificates it signed name a user (not, say, a broker's from BROOK_TLS_PEER_CA). */
  private readonly clientAuthorities: X509Certificate[] | null;

  constructor(@Inject(BROKER_CONFIG) private readonly config: BrokerConfig) {
    const ca = config.security.tls?.ca ?? null;
    this.clientAuthorities = ca === null ? null : certificatesOf('BROOK_TLS_CA', 'client CA', ca);
  }

  /**
   * The common name of the request's TLS client certificate when the handshake verified it and it chains to
   * BROOK_TLS_CA; null otherwise (no client CA configured, no certificate, or one signed by another CA the
   * listener also trusts, such as the brokers' peer CA).
   */
  certificateCommonNameOf(request: IncomingMessage): string | null {
    return this.certificateCommonNameOfSocket(request.socket as TLSSocket);
  }

  /** The same for a TLS connection itself (the Kafka listener's). */
  certificateCommonNameOfSocket(socket: TLSSocket): string | null {
    if (this.clientAuthorities === null) return null;
    const chain = verifiedChain(socket);
    if (chain.length === 0 || !signedByAuthority(chain, this.clientAuthorities)) return null;
    const subject = socket.getPeerCertificate()?.subject as { CN?: string | string[] } | undefined;
    const cn = Array.isArray(subject?.CN) ? subject.CN[0] : subject?.CN;
    return typeof cn === 'string' && cn.length > 0 ? cn : null;
  }

  /** True when a request must carry credentials. */
  get required(): boolean {
    return this.config.security.authModes.length > 0 || this.config.security.tls?.ca != null;
  }

  /** The WWW-Authenticate challenges of a 401. */
  get challenges(): string[] {
    return this.config.security.authModes.map((mode) =>
      mode === 'basic' ? 'Basic realm="brook", charset="UTF-8"' : 'Bearer realm="brook"',
    );
  }

  onModuleInit(): void {
    if (this.config.security.usersFile === null) return;
    this.loadUsersFile(true);
    this.timer = setInterval(() => this.loadUsersFile(false), USERS_FILE_POLL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer !== null) clearInterval(this.timer);
  }

  async authenticate(credentials: Credentials): Promise<string> {
    const modes = this.config.security.authModes;
    const authorization = credentials.authorization;
    if (authorization !== undefined && authorization.length > AUTHORIZATION_BYTES_MAX)
      throw unauthorized('The Authorization header is too long.');
    const space = authorization?.indexOf(' ') ?? -1;
    const scheme = space > 0 ? authorization!.slice(0, space).toLowerCase() : (authorization?.toLowerCase() ?? null);
    const value = space > 0 ? authorization!.slice(space + 1).trim() : '';
    if (scheme === 'basic' && modes.includes('basic')) return this.basic(value);
    if (scheme === 'bearer' && modes.includes('bearer')) return this.bearer(value);
    if (credentials.token !== undefined && modes.includes('bearer')) return this.bearer(credentials.token);
    if (authorization !== undefined && authorization !== '')
      throw unauthorized(`Authentication scheme '${scheme}' is not enabled on this broker.`);
    if (credentials.certificateCommonName) return `User:${credentials.certificateCommonName}`;
    if (this.required) throw unauthorized('Authentication is required.');
    return ANONYMOUS;
  }

  private async basic(value: string): Promise<string> {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw unauthorized('Malformed Basic credentials.');
    const name = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const cacheKey = createHmac('sha256', this.cacheKey).update(decoded).digest('base64');
    const cached = this.verified.get(cacheKey);
    if (cached !== undefined && cached.expiresAt > Date.now()) return cached.principal;
    const entry = this.passwords.get(name);
    if (entry === undefined || !(await this.checkPassword(() => verifyPassword(entry, password))))
      throw unauthorized('Invalid user name or password.');
    if (this.verified.size >= VERIFIED_CACHE_ENTRIES_MAX) this.verified.clear();
    const principal = `User:${name}`;
    this.verified.set(cacheKey, { principal, expiresAt: Date.now() + VERIFIED_CACHE_TTL_MS });
    return principal;
  }

  private async checkPassword(check: () => Promise<boolean>): Promise<boolean> {
    if (this.passwordChecksInFlight < this.passwordCheckLimits.inFlightMax) {
      this.passwordChecksInFlight++;
    } else {
      if (this.passwordCheckQueue.length >= this.passwordCheckLimits.queuedMax)
        throw new BrookError(429, 42901, 'Too many password checks in progress; retry later.', 1);
      await new Promise<void>((resolve) => this.passwordCheckQueue.push(resolve)); // the slot is handed over
    }
    try {
      return await check();
    } finally {
      const next = this.passwordCheckQueue.shift();
      if (next !== undefined) next();
      else this.passwordChecksInFlight--;
    }
  }

  private bearer(apiKey: string): string {
    const keyId = apiKeyId(apiKey);
    const entry = keyId === null ? undefined : this.apiKeys.get(keyId);
    if (entry === undefined || !timingSafeEqual(apiKeyHash(apiKey), entry.hash)) throw unauthorized('Invalid API key.');
    return `User:${entry.name}`;
  }

  private loadUsersFile(atStartUp: boolean): void {
    const path = this.config.security.usersFile!;
    try {
      const stat = statSync(path);
      const stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
      if (stamp === this.usersFileStamp) return;
      const entries = parseUsersFile(readFileSync(path, 'utf8'), path);
      this.passwords = new Map(entries.flatMap((e) => (e.kind === 'user' ? [[e.name, e] as const] : [])));
      this.apiKeys = new Map(entries.flatMap((e) => (e.kind === 'apikey' ? [[e.keyId, e] as const] : [])));
      this.verified.clear();
      this.usersFileStamp = stamp;
      if (!atStartUp) this.logger.warn(`reloaded the users file ${path}`);
    } catch (error) {
      // At start-up a missing or broken users file stops the broker; later, the last good copy stays in force.
      if (atStartUp) throw new Error(`BROOK_AUTH_USERS_FILE: ${(error as Error).message}`, { cause: error });
      this.logger.error(`users file ${path} not reloaded: ${(error as Error).message}`);
    }
  }
}
