import { createHash, createHmac, pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { scramCredential, type ScramCredential, type ScramMechanism } from '../config/scram-credentials.js';
import { PROOF_REFUSED, ScramServerExchange, type ScramStep } from './sasl-scram.js';

// RFC 7677 §3: user "user", password "pencil", salt W22ZaJ0SNY7soEsUEjb6gQ==, 4096 iterations.
const RFC_SALT = Buffer.from('W22ZaJ0SNY7soEsUEjb6gQ==', 'base64');
const RFC_CLIENT_NONCE = 'rOprNGfwEbeRWgbNEkqO';
const RFC_SERVER_NONCE = '%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0';
const RFC_NONCE = `${RFC_CLIENT_NONCE}${RFC_SERVER_NONCE}`;
const RFC_CLIENT_FINAL = `c=biws,r=${RFC_NONCE},p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=`;
const RFC_SERVER_FINAL = 'v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=';

const text = (step: ScramStep) => (step.kind === 'failure' ? step.reason : step.reply.toString('utf8'));

function exchange(
  credential: ScramCredential,
  options: { mechanism?: ScramMechanism; problem?: string | null; serverNonce?: string } = {},
) {
  return new ScramServerExchange(
    options.mechanism ?? 'SCRAM-SHA-256',
    () => ({ credential, problem: options.problem ?? null }),
    () => options.serverNonce ?? RFC_SERVER_NONCE,
  );
}

/** A client's final message for `password` (RFC 5802 §3), to check the server against an independent derivation. */
function clientFinal(mechanism: ScramMechanism, password: string, clientFirstBare: string, serverFirst: string) {
  const hash = mechanism === 'SCRAM-SHA-256' ? 'sha256' : 'sha512';
  const fields = Object.fromEntries(serverFirst.split(',').map((part) => [part[0], part.slice(2)]));
  const salted = pbkdf2Sync(
    password,
    Buffer.from(fields.s, 'base64'),
    Number(fields.i),
    hash === 'sha256' ? 32 : 64,
    hash,
  );
  const clientKey = createHmac(hash, salted).update('Client Key').digest();
  const storedKey = createHash(hash).update(clientKey).digest();
  const withoutProof = `c=biws,r=${fields.r}`;
  const signature = createHmac(hash, storedKey).update(`${clientFirstBare},${serverFirst},${withoutProof}`).digest();
  const proof = Buffer.from(clientKey.map((byte, i) => byte ^ signature[i]));
  return Buffer.from(`${withoutProof},p=${proof.toString('base64')}`);
}

/** A SHA-256 client-final message with `withoutProof` as given, signed over the server-first message as sent. */
function clientFinalWith(password: string, clientFirstBare: string, serverFirst: string, withoutProof: string) {
  const fields = Object.fromEntries(serverFirst.split(',').map((part) => [part[0], part.slice(2)]));
  const salted = pbkdf2Sync(password, Buffer.from(fields.s, 'base64'), Number(fields.i), 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const signature = createHmac('sha256', storedKey)
    .update(`${clientFirstBare},${serverFirst},${withoutProof}`)
    .digest();
  return `${withoutProof},p=${Buffer.from(clientKey.map((byte, i) => byte ^ signature[i])).toString('base64')}`;
}

describe('the SCRAM server exchange', () => {
  it("answers RFC 7677's SCRAM-SHA-256 test vector", async () => {
    const credential = await scramCredential('SCRAM-SHA-256', 'pencil', RFC_SALT, 4096);
    const server = exchange(credential);
    const first = server.step(Buffer.from(`n,,n=user,r=${RFC_CLIENT_NONCE}`));
    expect(first.kind).toBe('challenge');
    expect(text(first)).toBe(`r=${RFC_NONCE},s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096`);
    const final = server.step(Buffer.from(RFC_CLIENT_FINAL));
    expect(final).toMatchObject({ kind: 'success', principal: 'User:user' });
    expect(text(final)).toBe(RFC_SERVER_FINAL);
    expect(server.step(Buffer.from(RFC_CLIENT_FINAL))).toMatchObject({ kind: 'failure', reason: /over/ });
  });

  it.each(['SCRAM-SHA-256', 'SCRAM-SHA-512'] as const)(
    'authenticates a %s client and refuses a wrong password',
    async (mechanism) => {
      const credential = await scramCredential(mechanism, 'alice-secret');
      for (const [password, kind] of [
        ['alice-secret', 'success'],
        ['wrong', 'failure'],
      ] as const) {
        const server = exchange(credential, { mechanism, serverNonce: 'srv-nonce' });
        const bare = 'n=alice,r=client-nonce';
        const first = server.step(Buffer.from(`n,,${bare}`));
        const final = server.step(clientFinal(mechanism, password, bare, text(first)));
        expect(final.kind).toBe(kind);
        if (final.kind === 'failure')
          expect(final).toMatchObject({ reason: PROOF_REFUSED, attemptedPrincipal: 'User:alice' });
      }
    },
  );

  it('takes the nonce as librdkafka before 2.6.1 sends it (the client nonce once more), signed as sent', async () => {
    const credential = await scramCredential('SCRAM-SHA-256', 'alice-secret');
    const server = exchange(credential, { serverNonce: 'srv' });
    const bare = 'n=alice,r=cli';
    const first = text(server.step(Buffer.from(`n,,${bare}`)));
    // the proof is over the server-first message as the server sent it, the final message as the client sent it
    const proofOverSent = clientFinalWith('alice-secret', bare, first, 'c=biws,r=clicli' + 'srv');
    expect(server.step(Buffer.from(proofOverSent)).kind).toBe('success');
    const strict = exchange(credential, { serverNonce: 'srv' });
    strict.step(Buffer.from(`n,,${bare}`));
    expect(strict.step(Buffer.from(clientFinalWith('alice-secret', bare, first, 'c=biws,r=xclisrv')))).toMatchObject({
      kind: 'failure',
      reason: /nonce/,
    });
  });

  it('refuses the right proof for a user the lookup says cannot use SCRAM, telling the audit why', async () => {
    const credential = await scramCredential('SCRAM-SHA-256', 'pencil', RFC_SALT, 4096);
    const server = exchange(credential, { problem: 'User user has no SCRAM-SHA-256 credentials' });
    server.step(Buffer.from(`n,,n=user,r=${RFC_CLIENT_NONCE}`));
    expect(server.step(Buffer.from(RFC_CLIENT_FINAL))).toMatchObject({
      kind: 'failure',
      reason: PROOF_REFUSED,
      detail: /no SCRAM-SHA-256 credentials/,
    });
  });

  it.each([
    ['p=tls-unique,,n=user,r=abc', /channel binding/],
    ['x,,n=user,r=abc', /gs2/],
    ['n,,r=abc,n=user', /client-first/],
    ['n,,n=us=er,r=abc', /user name/],
    ['n,a=other,n=user,r=abc', /authorization id/],
    ['n,,n=user,r=a,b', /client-first/],
    ['n,,n=user,r=a b', /nonce/],
    ['n,,n=user,r=abc,m=x', /mandatory/],
    ['n,,n=user,r=abc,tokenauth=true', /Delegation tokens/],
    ['n,,n=user', /client-first/],
  ])('refuses the client-first message %s', async (message, reason) => {
    const server = exchange(await scramCredential('SCRAM-SHA-256', 'pencil', RFC_SALT, 4096));
    expect(server.step(Buffer.from(message))).toMatchObject({ kind: 'failure', reason });
  });

  it('reads escaped user names and an authorization id naming the user', async () => {
    const lookedUp: string[] = [];
    const credential = await scramCredential('SCRAM-SHA-256', 'pencil', RFC_SALT, 4096);
    const server = new ScramServerExchange(
      'SCRAM-SHA-256',
      (name) => (lookedUp.push(name), { credential, problem: null }),
      () => 'x',
    );
    expect(server.step(Buffer.from('n,a=a=2Cb=3Dc,n=a=2Cb=3Dc,r=abc')).kind).toBe('challenge');
    expect(lookedUp).toEqual(['a,b=c']);
  });

  it.each([
    [`c=biws,r=${RFC_CLIENT_NONCE}other,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=`, /nonce/],
    [`c=eSws,r=${RFC_NONCE},p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=`, /channel binding/],
    [`c=biws,r=${RFC_NONCE}`, /client-final/],
    [`c=biws,r=${RFC_NONCE},p=AAAA`, /proof/],
    [`r=${RFC_NONCE},c=biws,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=`, /client-final/],
  ])('refuses the client-final message %s', async (message, reason) => {
    const server = exchange(await scramCredential('SCRAM-SHA-256', 'pencil', RFC_SALT, 4096));
    server.step(Buffer.from(`n,,n=user,r=${RFC_CLIENT_NONCE}`));
    expect(server.step(Buffer.from(message))).toMatchObject({ kind: 'failure', reason });
  });

  it('refuses oversized and non-UTF-8 messages', async () => {
    const credential = await scramCredential('SCRAM-SHA-256', 'pencil', RFC_SALT, 4096);
    expect(exchange(credential).step(Buffer.alloc(5000, 0x61))).toMatchObject({ kind: 'failure', reason: /at most/ });
    expect(exchange(credential).step(Buffer.from([0x6e, 0x2c, 0x2c, 0xff]))).toMatchObject({
      kind: 'failure',
      reason: /UTF-8/,
    });
  });
});
