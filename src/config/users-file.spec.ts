import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addApiKey,
  addUser,
  apiKeyHash,
  apiKeyId,
  formatEntry,
  parseUsersFile,
  removeEntry,
  verifyPassword,
  type PasswordEntry,
} from './users-file.js';
import { scramCredential } from './scram-credentials.js';

const dir = mkdtempSync(join(tmpdir(), 'brook-users-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('users file', () => {
  it('stores scrypt hashes that verify the right password only, never the password', async () => {
    const path = join(dir, 'users');
    await addUser(path, 'alice', 'wonderland');
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('wonderland');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const [entry] = parseUsersFile(text) as PasswordEntry[];
    expect(entry).toMatchObject({ kind: 'user', name: 'alice', N: 16384, r: 8, p: 1 });
    expect(await verifyPassword(entry, 'wonderland')).toBe(true);
    expect(await verifyPassword(entry, 'wonderlanD')).toBe(false);
    expect(parseUsersFile(formatEntry(entry))).toEqual([entry]);
    await addUser(path, 'alice', 'second');
    const entries = parseUsersFile(readFileSync(path, 'utf8')) as PasswordEntry[];
    expect(entries).toHaveLength(1);
    expect(await verifyPassword(entries[0], 'second')).toBe(true);
  });

  it('writes SCRAM-SHA-256 and -512 credentials with the password, and reads lines without them', async () => {
    const path = join(dir, 'scram');
    await addUser(path, 'carol', 'carol-secret');
    const line = readFileSync(path, 'utf8').split('\n')[1];
    expect(line).toMatch(/^user carol scrypt:\S+ scram-sha-256:8192:\S+ scram-sha-512:8192:\S+$/);
    const [entry] = parseUsersFile(line) as PasswordEntry[];
    for (const mechanism of ['SCRAM-SHA-256', 'SCRAM-SHA-512'] as const) {
      const stored = entry.scram![mechanism]!;
      expect(stored.iterations).toBeGreaterThanOrEqual(4096);
      const again = await scramCredential(mechanism, 'carol-secret', stored.salt, stored.iterations);
      expect(again).toEqual(stored);
      expect((await scramCredential(mechanism, 'wrong', stored.salt, stored.iterations)).storedKey).not.toEqual(
        stored.storedKey,
      );
    }
    expect(parseUsersFile(formatEntry(entry))).toEqual([entry]);
    const old = line.split(' ').slice(0, 3).join(' ');
    const [plainOnly] = parseUsersFile(old) as PasswordEntry[];
    expect(plainOnly.scram).toBeUndefined();
    expect(await verifyPassword(plainOnly, 'carol-secret')).toBe(true);
    expect(formatEntry(plainOnly)).toBe(old);
    const scram256 = line.split(' ')[3];
    expect(() => parseUsersFile(`${old} ${scram256} ${scram256}`)).toThrow(/twice/);
    expect(() => parseUsersFile(`${old} ${scram256.replace(':8192:', ':1000:')}`)).toThrow(/iterations/);
    expect(() => parseUsersFile(`${old} scram-sha-1:4096:a:b:c`)).toThrow(/scram-sha-256/);
    expect(() => parseUsersFile(`${old} ${scram256.split(':').slice(0, 4).join(':')}:AAAA`)).toThrow(/32 bytes/);
  });

  it('creates API keys stored as SHA-256, found by id, removable', () => {
    const path = join(dir, 'keys');
    const key = addApiKey(path, 'ci', 'bot');
    expect(apiKeyId(key)).toBe('ci');
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(key.slice(-20));
    expect(parseUsersFile(text)).toEqual([{ kind: 'apikey', keyId: 'ci', name: 'bot', hash: apiKeyHash(key) }]);
    expect(() => addApiKey(path, 'ci', 'bot')).toThrow(/exists/);
    expect(removeEntry(path, 'ci')).toBe(true);
    expect(removeEntry(path, 'ci')).toBe(false);
    expect(parseUsersFile(readFileSync(path, 'utf8'))).toEqual([]);
  });

  it('rejects malformed lines with their line number, and memory-hungry scrypt parameters', () => {
    expect(() => parseUsersFile('# c\n\nuser bob plain:x')).toThrow(/line 3/);
    expect(() => parseUsersFile('user bob scrypt:1048576:64:1:c2FsdA==:aGFzaA==')).toThrow(/memory/);
    expect(() => parseUsersFile('user b@d! scrypt:16384:8:1:c2FsdA==:aGFzaA==')).toThrow(/user name/);
    expect(() => parseUsersFile('apikey k bob sha256:abc')).toThrow(/sha256/);
    expect(apiKeyId('brook_ci_short')).toBeNull();
    expect(apiKeyId('Bearer whatever')).toBeNull();
  });
});
