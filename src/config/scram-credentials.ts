// SCRAM credentials (RFC 5802 §3, RFC 7677; Kafka's KIP-84): what a broker keeps to check a SCRAM-SHA-256 or
// SCRAM-SHA-512 client without knowing its password. From the password, a random salt and an iteration count:
//   SaltedPassword = PBKDF2(HMAC-H, password as UTF-8, salt, iterations, length of H)
//   ClientKey = HMAC(SaltedPassword, "Client Key"),  StoredKey = H(ClientKey),  ServerKey = HMAC(SaltedPassword, "Server Key")
// and only salt, iterations, StoredKey and ServerKey are kept. In the users file (users-file.ts) one credential is
// the field `scram-sha-256:<iterations>:<salt base64>:<StoredKey base64>:<ServerKey base64>` (scram-sha-512 alike).
// The iteration count is within Kafka's bounds for both mechanisms (4096 to 16384).
import { createHash, createHmac, pbkdf2, randomBytes } from 'node:crypto';

export const SCRAM_MECHANISMS = ['SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;
export type ScramMechanism = (typeof SCRAM_MECHANISMS)[number];

export const SCRAM_ITERATIONS_MIN = 4096;
export const SCRAM_ITERATIONS_MAX = 16_384;
export const SCRAM_ITERATIONS_DEFAULT = 8192;
const SCRAM_SALT_BYTES = 24;

const HASHES: Readonly<Record<ScramMechanism, { name: 'sha256' | 'sha512'; bytes: number }>> = {
  'SCRAM-SHA-256': { name: 'sha256', bytes: 32 },
  'SCRAM-SHA-512': { name: 'sha512', bytes: 64 },
};

export interface ScramCredential {
  readonly iterations: number;
  readonly salt: Buffer;
  readonly storedKey: Buffer;
  readonly serverKey: Buffer;
}

/** The hash function of a mechanism and its output length in bytes. */
export function scramHash(mechanism: ScramMechanism): { name: 'sha256' | 'sha512'; bytes: number } {
  return HASHES[mechanism];
}

export function hmac(mechanism: ScramMechanism, key: Buffer, data: Buffer | string): Buffer {
  return createHmac(HASHES[mechanism].name, key).update(data).digest();
}

export function digest(mechanism: ScramMechanism, data: Buffer): Buffer {
  return createHash(HASHES[mechanism].name).update(data).digest();
}

/** The credential of `password` (PBKDF2 on the libuv pool). */
export async function scramCredential(
  mechanism: ScramMechanism,
  password: string,
  salt: Buffer = randomBytes(SCRAM_SALT_BYTES),
  iterations: number = SCRAM_ITERATIONS_DEFAULT,
): Promise<ScramCredential> {
  const { name, bytes } = HASHES[mechanism];
  const salted = await new Promise<Buffer>((resolve, reject) =>
    pbkdf2(Buffer.from(password, 'utf8'), salt, iterations, bytes, name, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
  const clientKey = hmac(mechanism, salted, 'Client Key');
  return {
    iterations,
    salt,
    storedKey: digest(mechanism, clientKey),
    serverKey: hmac(mechanism, salted, 'Server Key'),
  };
}

const FIELD_PREFIX: Readonly<Record<ScramMechanism, string>> = {
  'SCRAM-SHA-256': 'scram-sha-256',
  'SCRAM-SHA-512': 'scram-sha-512',
};

export function formatScramField(mechanism: ScramMechanism, credential: ScramCredential): string {
  const { iterations, salt, storedKey, serverKey } = credential;
  return [FIELD_PREFIX[mechanism], iterations, ...[salt, storedKey, serverKey].map((b) => b.toString('base64'))].join(
    ':',
  );
}

/** A users-file field as a credential, or the reason it is not one. */
export function parseScramField(
  field: string,
): { mechanism: ScramMechanism; credential: ScramCredential } | { problem: string } {
  const parts = field.split(':');
  const mechanism = SCRAM_MECHANISMS.find((candidate) => FIELD_PREFIX[candidate] === parts[0]);
  if (mechanism === undefined || parts.length !== 5) {
    return { problem: 'expected scram-sha-256:<iterations>:<salt>:<StoredKey>:<ServerKey> (or scram-sha-512:...)' };
  }
  const iterations = Number(parts[1]);
  if (!Number.isSafeInteger(iterations) || iterations < SCRAM_ITERATIONS_MIN || iterations > SCRAM_ITERATIONS_MAX) {
    return { problem: `SCRAM iterations must be ${SCRAM_ITERATIONS_MIN} to ${SCRAM_ITERATIONS_MAX}` };
  }
  const [salt, storedKey, serverKey] = parts.slice(2).map((text) => Buffer.from(text, 'base64'));
  const bytes = HASHES[mechanism].bytes;
  if (salt.length === 0 || storedKey.length !== bytes || serverKey.length !== bytes) {
    return { problem: `${mechanism} needs a salt and keys of ${bytes} bytes` };
  }
  return { mechanism, credential: { iterations, salt, storedKey, serverKey } };
}
