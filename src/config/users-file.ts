// The users file (BROOK_AUTH_USERS_FILE): who may authenticate, with secrets stored only as hashes. Text, one entry
// a line, fields separated by single spaces; blank lines and lines starting with # are ignored:
//
//   user <name> scrypt:<N>:<r>:<p>:<salt base64>:<hash base64> [scram-sha-256:...] [scram-sha-512:...]
//                                                                  HTTP Basic and SASL/PLAIN: password hashed with
//                                                                  scrypt; SASL/SCRAM: the optional salted SCRAM
//                                                                  credentials (scram-credentials.ts)
//   apikey <key id> <name> sha256:<hash hex>                       Bearer: an API key, hashed with SHA-256
//
// Both authenticate as the principal User:<name>. scrypt hashes cannot give SCRAM credentials, so `brook users
// add` writes both from the password; a line without SCRAM fields (a file from before they existed) stays valid,
// and its user can authenticate with PLAIN only. An API key is `brook_<key id>_<secret>`: the id finds the line,
// the SHA-256 of the whole key is compared in constant time (the secret is 32 random bytes, so a fast hash is
// enough; passwords are chosen by people, so they get scrypt). Names and key ids are [A-Za-z0-9._@-]{1,128}.
// `brook users add` (the CLI) calls addUser/addApiKey/removeEntry below; the broker re-reads the file when it
// changes, so users can be added without a restart.
import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import {
  formatScramField,
  parseScramField,
  SCRAM_MECHANISMS,
  scramCredential,
  type ScramCredential,
  type ScramMechanism,
} from './scram-credentials.js';

export const USER_NAME = /^[A-Za-z0-9._@-]{1,128}$/;
export const SCRYPT_DEFAULTS = { N: 16_384, r: 8, p: 1 } as const;
export const SCRYPT_KEY_BYTES = 32;
const SCRYPT_SALT_BYTES = 16;
/** scrypt memory is 128 * N * r bytes; the bound keeps a crafted file from asking for gigabytes. */
const SCRYPT_MEMORY_BYTES_MAX = 256 * 1024 * 1024;
const API_KEY_SECRET_BYTES = 32;

export interface PasswordEntry {
  kind: 'user';
  name: string;
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
  /** The salted SCRAM credentials written with the password (absent from older lines: PLAIN only). */
  scram?: Partial<Record<ScramMechanism, ScramCredential>>;
}

export interface ApiKeyEntry {
  kind: 'apikey';
  keyId: string;
  name: string;
  hash: Buffer;
}

export type UsersFileEntry = PasswordEntry | ApiKeyEntry;

export class UsersFileError extends Error {}

export function parseUsersFile(text: string, source = 'users file'): UsersFileEntry[] {
  const entries: UsersFileEntry[] = [];
  text.split('\n').forEach((rawLine, index) => {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) return;
    const fail = (why: string) => new UsersFileError(`${source} line ${index + 1}: ${why}`);
    const fields = line.split(' ');
    if (fields[0] === 'user' && fields.length >= 3 && fields.length <= 3 + SCRAM_MECHANISMS.length) {
      const [, name, hashText, ...scramFields] = fields;
      if (!USER_NAME.test(name)) throw fail(`invalid user name '${name}'`);
      const parts = hashText.split(':');
      if (parts.length !== 6 || parts[0] !== 'scrypt') throw fail('expected scrypt:N:r:p:salt:hash');
      const [N, r, p] = parts.slice(1, 4).map(Number);
      if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0) || (N & (N - 1)) !== 0 || N < 2)
        throw fail('scrypt N must be a power of two, r and p positive integers');
      if (128 * N * r > SCRYPT_MEMORY_BYTES_MAX) throw fail('scrypt parameters need too much memory');
      const salt = Buffer.from(parts[4], 'base64');
      const hash = Buffer.from(parts[5], 'base64');
      if (salt.length === 0 || hash.length === 0) throw fail('empty salt or hash');
      const scram: Partial<Record<ScramMechanism, ScramCredential>> = {};
      for (const field of scramFields) {
        const parsed = parseScramField(field);
        if ('problem' in parsed) throw fail(parsed.problem);
        if (scram[parsed.mechanism] !== undefined) throw fail(`${parsed.mechanism} given twice`);
        scram[parsed.mechanism] = parsed.credential;
      }
      entries.push({ kind: 'user', name, N, r, p, salt, hash, ...(scramFields.length > 0 ? { scram } : {}) });
      return;
    }
    if (fields[0] === 'apikey' && fields.length === 4) {
      const [, keyId, name, hashText] = fields;
      if (!USER_NAME.test(keyId) || keyId.includes('_')) throw fail(`invalid key id '${keyId}'`);
      if (!USER_NAME.test(name)) throw fail(`invalid user name '${name}'`);
      if (!/^sha256:[0-9a-f]{64}$/.test(hashText)) throw fail('expected sha256:<64 hex digits>');
      entries.push({ kind: 'apikey', keyId, name, hash: Buffer.from(hashText.slice(7), 'hex') });
      return;
    }
    throw fail(
      `expected 'user <name> scrypt:... [scram-sha-256:...] [scram-sha-512:...]' or 'apikey <id> <name> sha256:...'`,
    );
  });
  return entries;
}

export function formatEntry(entry: UsersFileEntry): string {
  if (entry.kind === 'user') {
    const { N, r, p } = entry;
    const scram = SCRAM_MECHANISMS.flatMap((mechanism) => {
      const credential = entry.scram?.[mechanism];
      return credential === undefined ? [] : [` ${formatScramField(mechanism, credential)}`];
    });
    return `user ${entry.name} scrypt:${N}:${r}:${p}:${entry.salt.toString('base64')}:${entry.hash.toString('base64')}${scram.join('')}`;
  }
  return `apikey ${entry.keyId} ${entry.name} sha256:${entry.hash.toString('hex')}`;
}

function scryptAsync(password: string, salt: Buffer, options: ScryptOptions & { N: number; r: number }) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(
      password,
      salt,
      SCRYPT_KEY_BYTES,
      { ...options, maxmem: SCRYPT_MEMORY_BYTES_MAX + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

/** The scrypt hash of a password, and (unless `scram` is false) its SCRAM-SHA-256 and -512 credentials. */
export async function hashPassword(name: string, password: string, scram = true): Promise<PasswordEntry> {
  const salt = randomBytes(SCRYPT_SALT_BYTES);
  const hash = await scryptAsync(password, salt, SCRYPT_DEFAULTS);
  const entry: PasswordEntry = { kind: 'user', name, ...SCRYPT_DEFAULTS, salt, hash };
  if (!scram) return entry;
  const credentials = await Promise.all(SCRAM_MECHANISMS.map((mechanism) => scramCredential(mechanism, password)));
  return { ...entry, scram: Object.fromEntries(SCRAM_MECHANISMS.map((mechanism, i) => [mechanism, credentials[i]])) };
}

export async function verifyPassword(entry: PasswordEntry, password: string): Promise<boolean> {
  const hash = await scryptAsync(password, entry.salt, { N: entry.N, r: entry.r, p: entry.p });
  return hash.length === entry.hash.length && timingSafeEqual(hash, entry.hash);
}

export function apiKeyHash(apiKey: string): Buffer {
  return createHash('sha256').update(apiKey, 'utf8').digest();
}

/** The key id of an API key `brook_<id>_<secret>`, or null when it does not have that shape. */
export function apiKeyId(apiKey: string): string | null {
  const match = /^brook_([A-Za-z0-9.@-]{1,128})_[A-Za-z0-9_-]{16,128}$/.exec(apiKey);
  return match === null ? null : match[1];
}

function readEntries(path: string): UsersFileEntry[] {
  return existsSync(path) ? parseUsersFile(readFileSync(path, 'utf8'), path) : [];
}

function writeEntries(path: string, entries: UsersFileEntry[]): void {
  const text = ['# Brook users file (see README, "Running in production")', ...entries.map(formatEntry)].join('\n');
  // Owner-only (0600), replaced by rename so that the broker never reads half a file.
  writeFileSync(`${path}.tmp`, `${text}\n`, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

/** Adds or replaces the password of user `name`. */
export async function addUser(path: string, name: string, password: string): Promise<void> {
  if (!USER_NAME.test(name)) throw new UsersFileError(`invalid user name '${name}': expected [A-Za-z0-9._@-]{1,128}`);
  if (password.length === 0) throw new UsersFileError('the password must not be empty');
  const entry = await hashPassword(name, password);
  const entries = readEntries(path).filter((e) => !(e.kind === 'user' && e.name === name));
  writeEntries(path, [...entries, entry]);
}

/** Creates an API key for user `name`; returns the key, which is shown once and stored only hashed. */
export function addApiKey(path: string, keyId: string, name: string): string {
  if (!USER_NAME.test(keyId) || keyId.includes('_')) throw new UsersFileError(`invalid key id '${keyId}'`);
  if (!USER_NAME.test(name)) throw new UsersFileError(`invalid user name '${name}'`);
  const entries = readEntries(path);
  if (entries.some((e) => e.kind === 'apikey' && e.keyId === keyId))
    throw new UsersFileError(`API key id '${keyId}' already exists`);
  const apiKey = `brook_${keyId}_${randomBytes(API_KEY_SECRET_BYTES).toString('base64url')}`;
  writeEntries(path, [...entries, { kind: 'apikey', keyId, name, hash: apiKeyHash(apiKey) }]);
  return apiKey;
}

/** Removes user `name` (its password and API keys) or the API key with that id; true when something went. */
export function removeEntry(path: string, nameOrKeyId: string): boolean {
  const entries = readEntries(path);
  const kept = entries.filter((e) => e.name !== nameOrKeyId && !(e.kind === 'apikey' && e.keyId === nameOrKeyId));
  if (kept.length === entries.length) return false;
  writeEntries(path, kept);
  return true;
}
