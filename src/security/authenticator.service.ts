// Authentication: who is calling. Credentials, in the order tried: a TLS client certificate verified against
// BROOK_TLS_CA (User:<common name>), `Authorization: Basic` (users file, scrypt) when BROOK_AUTH has basic,
// `Authorization: Bearer <API key>` when it has bearer. A request with no credentials is User:ANONYMOUS when
// authentication is off, and 401 when it is on; a wrong credential is always 401.
//
// This is the API the WebSocket gateway and SSE call too:
//   authenticate({ authorization, token, certificate }) -> principal ('User:alice'), or throws a 401
//   AuthenticationFailure naming the principal that was tried (for the audit line)
//   identify(...) -> the principal and the credential it rests on; credentialProblem(credential) says later
//   whether that credential still holds (the user or key is still in the users file with the same secret, the
//   client certificate has not expired), so open streams are ended when it does not (stream-reauthorizer.ts)
// (`token` is the WebSocket's ?token= query parameter for browsers, taken as a Bearer credential).
// The Kafka listener's SASL/SCRAM asks scramCredentialOf(name, mechanism) for the salted credential the users file
// keeps beside the scrypt hash (it checks the client's proof itself, kafka/sasl-scram.ts).
//
// Checks take the same time whether the user exists or not: an unknown user's password is checked against a
// dummy scrypt hash with the default parameters, an unknown key id's key against a dummy SHA-256, so that user
// names and key ids cannot be found by timing.
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
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { BrookError } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import {
  apiKeyHash,
  apiKeyId,
  parseUsersFile,
  SCRYPT_DEFAULTS,
  SCRYPT_KEY_BYTES,
  verifyPassword,
  type ApiKeyEntry,
  type PasswordEntry,
} from '../config/users-file.js';
import {
  SCRAM_ITERATIONS_DEFAULT,
  scramHash,
  type ScramCredential,
  type ScramMechanism,
} from '../config/scram-credentials.js';
import { type CancelTimer, type Clock, CLOCK, everyMs, systemClock } from '../common/clock.js';

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

/** A 401 that remembers whom the client tried to authenticate as (User:<name>, or ANONYMOUS when unknown). */
export class AuthenticationFailure extends BrookError {
  constructor(
    message: string,
    readonly attemptedPrincipal: string = ANONYMOUS,
  ) {
    super(401, 40101, message);
  }
}

export const unauthorized = (message: string, attemptedPrincipal?: string) =>
  new AuthenticationFailure(message, attemptedPrincipal);

/** What a principal was authenticated by, to be checked again during a stream's life. */
export type Credential =
  | { kind: 'anonymous' }
  | { kind: 'password'; name: string; hash: Buffer }
  | { kind: 'apikey'; keyId: string; hash: Buffer }
  | { kind: 'certificate'; commonName: string; notAfterMs: number | null }
  /** A principal a peer broker authenticated (a forwarded request); it checks the credential itself. */
  | { kind: 'peer' };

export interface Identified {
  principal: string;
  credential: Credential;
}

/** Longest user name put in an audit line as the principal tried. */
const ATTEMPTED_NAME_CHARS_MAX = 128;
const attempted = (name: string) => `User:${name.slice(0, ATTEMPTED_NAME_CHARS_MAX)}`;

@Injectable()
export class Authenticator implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Authenticator');
  private passwords = new Map<string, PasswordEntry>();
  private apiKeys = new Map<string, ApiKeyEntry>();
  private usersFileStamp = '';
  private readonly verified = new Map<string, { principal: string; expiresAt: number }>();
  private readonly cacheKey = randomBytes(32);
  private stopPolling: CancelTimer | null = null;
  private readonly listeners: Array<() => void> = [];
  /** Checked when the user is unknown, so that a wrong name costs what a wrong password costs. */
  private readonly dummyPassword: PasswordEntry;
  private readonly dummyKeyHash = randomBytes(32);
  private passwordChecksInFlight = 0;
  private readonly passwordCheckQueue: Array<() => void> = [];
  /** The bounds on password checks (tests lower them). */
  readonly passwordCheckLimits = { inFlightMax: PASSWORD_CHECKS_IN_FLIGHT_MAX, queuedMax: PASSWORD_CHECKS_QUEUED_MAX };

  /** BROOK_TLS_CA: only client certificates it signed name a user (not, say, a broker's from BROOK_TLS_PEER_CA). */
  private readonly clientAuthorities: X509Certificate[] | null;

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {
    const ca = config.security.tls?.ca ?? null;
    this.clientAuthorities = ca === null ? null : certificatesOf('BROOK_TLS_CA', 'client CA', ca);
    const salt = randomBytes(16);
    const hash = scryptSync(randomBytes(16), salt, SCRYPT_KEY_BYTES, SCRYPT_DEFAULTS);
    this.dummyPassword = { kind: 'user', name: '', ...SCRYPT_DEFAULTS, salt, hash };
  }

  /** Called after the users file changed (a user or key may be gone). */
  onCredentialsChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * Why the credential no longer holds (user or key removed or given a new secret, certificate expired), or null
   * while it does.
   */
  credentialProblem(credential: Credential, nowMs: number): string | null {
    switch (credential.kind) {
      case 'anonymous':
      case 'peer':
        return null;
      case 'password': {
        const entry = this.passwords.get(credential.name);
        return entry !== undefined && entry.hash.equals(credential.hash)
          ? null
          : `the password of user ${credential.name} was removed or changed`;
      }
      case 'apikey': {
        const entry = this.apiKeys.get(credential.keyId);
        return entry !== undefined && entry.hash.equals(credential.hash)
          ? null
          : `API key ${credential.keyId} was removed`;
      }
      case 'certificate':
        return credential.notAfterMs === null || nowMs < credential.notAfterMs
          ? null
          : `the client certificate of ${credential.commonName} expired`;
    }
  }

  /** The expiry of the request's verified client certificate (epoch ms), or null. */
  certificateNotAfterOf(request: IncomingMessage): number | null {
    if (this.certificateCommonNameOf(request) === null) return null;
    const validTo = (request.socket as TLSSocket).getPeerCertificate()?.valid_to;
    const ms = validTo === undefined ? NaN : Date.parse(validTo);
    return Number.isFinite(ms) ? ms : null;
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
    this.stopPolling = everyMs(this.clock, USERS_FILE_POLL_MS, () => this.loadUsersFile(false));
  }

  onModuleDestroy(): void {
    this.stopPolling?.();
  }

  async authenticate(credentials: Credentials): Promise<string> {
    return (await this.identify(credentials)).principal;
  }

  async identify(credentials: Credentials & { certificateNotAfterMs?: number | null }): Promise<Identified> {
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
    const commonName = credentials.certificateCommonName;
    if (commonName) {
      const notAfterMs = credentials.certificateNotAfterMs ?? null;
      return { principal: `User:${commonName}`, credential: { kind: 'certificate', commonName, notAfterMs } };
    }
    if (this.required) throw unauthorized('Authentication is required.');
    return { principal: ANONYMOUS, credential: { kind: 'anonymous' } };
  }

  private async basic(value: string): Promise<Identified> {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw unauthorized('Malformed Basic credentials.');
    const name = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const cacheKey = createHmac('sha256', this.cacheKey).update(decoded).digest('base64');
    const cached = this.verified.get(cacheKey);
    const entry = this.passwords.get(name);
    if (cached !== undefined && cached.expiresAt > this.clock.monotonicMs() && entry !== undefined)
      return { principal: cached.principal, credential: { kind: 'password', name, hash: entry.hash } };
    // the same work for an unknown user: scrypt against the dummy hash, through the same bounded slots
    const verified = await this.checkPassword(() => verifyPassword(entry ?? this.dummyPassword, password));
    if (entry === undefined || !verified) throw unauthorized('Invalid user name or password.', attempted(name));
    if (this.verified.size >= VERIFIED_CACHE_ENTRIES_MAX) this.verified.clear();
    const principal = `User:${name}`;
    this.verified.set(cacheKey, { principal, expiresAt: this.clock.monotonicMs() + VERIFIED_CACHE_TTL_MS });
    return { principal, credential: { kind: 'password', name, hash: entry.hash } };
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

  /**
   * User `name`'s SCRAM credential for `mechanism`, with problem null when SCRAM can authenticate the user. An
   * unknown user, or one whose line has no SCRAM credentials (written before they existed: PLAIN only), gets a
   * stand-in of the same shape (a salt that stays the same for the name, keys no proof matches) and the reason,
   * so that the exchange runs to its end either way and user names cannot be found by asking.
   */
  scramCredentialOf(name: string, mechanism: ScramMechanism): { credential: ScramCredential; problem: string | null } {
    const entry = this.passwords.get(name);
    const credential = entry?.scram?.[mechanism];
    if (credential !== undefined) return { credential, problem: null };
    const bytes = scramHash(mechanism).bytes;
    const salt = createHmac('sha256', this.cacheKey)
      .update(`scram-salt\0${mechanism}\0${name}`)
      .digest()
      .subarray(0, 24);
    const standIn = {
      iterations: SCRAM_ITERATIONS_DEFAULT,
      salt,
      storedKey: randomBytes(bytes),
      serverKey: randomBytes(bytes),
    };
    const problem =
      entry === undefined
        ? 'Invalid user name or password.'
        : `User ${name} has no ${mechanism} credentials (a password set before Brook wrote them): ` +
          'authenticate with PLAIN, or set the password again with brook users add.';
    return { credential: standIn, problem };
  }

  private bearer(apiKey: string): Identified {
    const keyId = apiKeyId(apiKey);
    const entry = keyId === null ? undefined : this.apiKeys.get(keyId);
    const matches = timingSafeEqual(apiKeyHash(apiKey), entry?.hash ?? this.dummyKeyHash);
    if (entry === undefined || !matches)
      throw unauthorized('Invalid API key.', entry === undefined ? ANONYMOUS : attempted(entry.name));
    return { principal: `User:${entry.name}`, credential: { kind: 'apikey', keyId: entry.keyId, hash: entry.hash } };
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
      if (!atStartUp) {
        this.logger.warn(`reloaded the users file ${path}`);
        for (const listener of this.listeners) listener();
      }
    } catch (error) {
      // At start-up a missing or broken users file stops the broker; later, the last good copy stays in force.
      if (atStartUp) throw new Error(`BROOK_AUTH_USERS_FILE: ${(error as Error).message}`, { cause: error });
      this.logger.error(`users file ${path} not reloaded: ${(error as Error).message}`);
    }
  }
}
