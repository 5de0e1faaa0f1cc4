import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBrokerConfig } from '../config/broker-config.js';
import { ANONYMOUS, AuthenticationFailure, Authenticator } from './authenticator.service.js';
import { addApiKey, addUser, removeEntry } from '../config/users-file.js';

const dir = mkdtempSync(join(tmpdir(), 'brook-authn-'));
const usersFile = join(dir, 'users');
let apiKey: string;
let authenticator: Authenticator;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

beforeAll(async () => {
  await addUser(usersFile, 'alice', 'secret');
  apiKey = addApiKey(usersFile, 'k1', 'bot');
  authenticator = new Authenticator(
    loadBrokerConfig({ BROOK_AUTH: 'basic,bearer', BROOK_AUTH_USERS_FILE: usersFile, BROOK_DATA_DIR: dir }),
  );
  authenticator.onModuleInit();
});
afterAll(() => {
  authenticator.onModuleDestroy();
  rmSync(dir, { recursive: true, force: true });
});

const status = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: { status: number }) => error.status,
  );

describe('Authenticator', () => {
  it('accepts Basic and Bearer credentials and the WebSocket token, refuses the rest with 401', async () => {
    expect(await authenticator.authenticate({ authorization: basic('alice', 'secret') })).toBe('User:alice');
    expect(await authenticator.authenticate({ authorization: `Bearer ${apiKey}` })).toBe('User:bot');
    expect(await authenticator.authenticate({ token: apiKey })).toBe('User:bot');
    expect(await status(authenticator.authenticate({}))).toBe(401);
    expect(await status(authenticator.authenticate({ authorization: basic('alice', 'Secret') }))).toBe(401);
    expect(await status(authenticator.authenticate({ authorization: `Bearer ${apiKey}x` }))).toBe(401);
    expect(await status(authenticator.authenticate({ authorization: 'Digest abc' }))).toBe(401);
    expect(await status(authenticator.authenticate({ authorization: `Basic ${'A'.repeat(10_000)}` }))).toBe(401);
  });

  it('is anonymous when authentication is off', async () => {
    const open = new Authenticator(loadBrokerConfig({ BROOK_DATA_DIR: dir }));
    expect(await open.authenticate({})).toBe(ANONYMOUS);
    expect(open.required).toBe(false);
  });

  it('bounds password checks in flight: past the queue, 429', async () => {
    authenticator.passwordCheckLimits.inFlightMax = 1;
    authenticator.passwordCheckLimits.queuedMax = 2;
    const attempts = Array.from({ length: 6 }, (_, i) =>
      status(authenticator.authenticate({ authorization: basic('alice', `guess-${i}`) })),
    );
    const statuses = await Promise.all(attempts);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    // the slots are all released: the next checks run again (401, not 429)
    const after = await Promise.all(
      [1, 2, 3].map(() => status(authenticator.authenticate({ authorization: basic('alice', 'x') }))),
    );
    expect(after).toEqual([401, 401, 401]);
  });

  it('names the principal tried in a failure, for the audit line', async () => {
    const failure = (await authenticator
      .authenticate({ authorization: basic('mallory', 'x') })
      .catch((e) => e)) as AuthenticationFailure;
    expect(failure).toBeInstanceOf(AuthenticationFailure);
    expect(failure.attemptedPrincipal).toBe('User:mallory');
    const wrongKey = (await authenticator
      .authenticate({ authorization: `Bearer ${apiKey.slice(0, -1)}${apiKey.endsWith('A') ? 'B' : 'A'}` })
      .catch((e) => e)) as AuthenticationFailure;
    expect(wrongKey.attemptedPrincipal).toBe('User:bot');
  });

  it('says when a credential no longer holds: its key removed from the users file, a certificate expired', async () => {
    const key = addApiKey(usersFile, 'k2', 'carol');
    await reload();
    const { principal, credential } = await authenticator.identify({ authorization: `Bearer ${key}` });
    expect(principal).toBe('User:carol');
    expect(authenticator.credentialProblem(credential, Date.now())).toBeNull();
    removeEntry(usersFile, 'k2');
    await reload();
    expect(authenticator.credentialProblem(credential, Date.now())).toMatch(/API key k2 was removed/);
    const password = await authenticator.identify({ authorization: basic('alice', 'secret') });
    expect(authenticator.credentialProblem(password.credential, Date.now())).toBeNull();
    const certificate = { kind: 'certificate', commonName: 'dave', notAfterMs: 1_000 } as const;
    expect(authenticator.credentialProblem(certificate, 999)).toBeNull();
    expect(authenticator.credentialProblem(certificate, 1_000)).toMatch(/certificate of dave expired/);
  });
});

/** Lets the authenticator see the users file's new version (its stamp includes the modification time). */
async function reload(): Promise<void> {
  const seen = new Promise<void>((resolve) => authenticator.onCredentialsChange(resolve));
  await new Promise((resolve) => setTimeout(resolve, 10));
  (authenticator as unknown as { loadUsersFile(atStartUp: boolean): void }).loadUsersFile(false);
  await seen;
}
