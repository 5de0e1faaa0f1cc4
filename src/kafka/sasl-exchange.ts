// One SASL exchange of a Kafka connection, whichever way its tokens come: in SaslAuthenticate requests (after a
// v1 handshake) or as bare frames (after a v0 handshake, KIP-43's original form, which librdkafka and Java still
// require a broker to advertise). The mechanism the handshake chose decides: PLAIN (sasl-plain.ts) takes one token
// and answers an empty one; SCRAM-SHA-256 and -512 (sasl-scram.ts) take two, answering the server-first message,
// then the server-final one. A success makes the connection the user's; a failure is an audit line
// (authentication.failed, as on REST) and the reason the connection then closes with.
import { randomBytes } from 'node:crypto';
import { BrookError } from '../common/brook-error.js';
import { SCRAM_MECHANISMS, type ScramMechanism } from '../config/scram-credentials.js';
import { AuthenticationFailure } from '../security/authenticator.service.js';
import type { KafkaRequestContext } from './kafka-handler.js';
import { authenticatePlain, parsePlainToken, PLAIN } from './sasl-plain.js';
import { ScramServerExchange } from './sasl-scram.js';

export type ExchangeResult =
  /** The token to answer; `done` once the connection has authenticated. */
  | { readonly ok: true; readonly token: Buffer; readonly done: boolean }
  | { readonly ok: false; readonly reason: string };

type Context = Pick<KafkaRequestContext, 'session' | 'services'>;

const EMPTY = Buffer.alloc(0);

export const isScram = (mechanism: string): mechanism is ScramMechanism =>
  (SCRAM_MECHANISMS as readonly string[]).includes(mechanism);

/** The mechanisms this broker serves: with BROOK_AUTH's basic, against its users file. */
export function saslMechanisms(context: Pick<KafkaRequestContext, 'services'>): string[] {
  return context.services.config.security.authModes.includes('basic') ? [PLAIN, ...SCRAM_MECHANISMS] : [];
}

function refuse(context: Context, api: string, attemptedPrincipal: string, reason: string, detail = reason) {
  const { session, services } = context;
  services.audit.write({
    event: 'authentication.failed',
    protocol: 'kafka',
    api,
    client_id: session.clientId,
    principal: attemptedPrincipal,
    host: session.host,
    reason: detail,
  });
  return { ok: false as const, reason };
}

/** The client's next token of the exchange the handshake chose (`mechanism`), and the token to answer. */
export async function saslExchange(
  context: Context,
  api: string,
  mechanism: string,
  token: Buffer,
): Promise<ExchangeResult> {
  return isScram(mechanism) ? scramStep(context, api, mechanism, token) : plainExchange(context, api, token);
}

function scramStep(context: Context, api: string, mechanism: ScramMechanism, token: Buffer): ExchangeResult {
  const { session, services } = context;
  session.scram ??= new ScramServerExchange(
    mechanism,
    (name) => services.authenticator.scramCredentialOf(name, mechanism),
    // letters and digits only, as Kafka's own (librdkafka refuses some base64 nonces)
    () => randomBytes(24).toString('hex'),
  );
  const step = session.scram.step(token);
  switch (step.kind) {
    case 'challenge':
      return { ok: true, token: step.reply, done: false };
    case 'success':
      session.authenticated(step.principal, mechanism);
      return { ok: true, token: step.reply, done: true };
    case 'failure':
      session.scram = null;
      return refuse(context, api, step.attemptedPrincipal, step.reason, step.detail);
  }
}

async function plainExchange(context: Context, api: string, authBytes: Buffer): Promise<ExchangeResult> {
  const token = parsePlainToken(authBytes);
  if (token === null) return refuse(context, api, 'User:ANONYMOUS', 'Malformed PLAIN token.');
  if (token.authorizationId !== '' && token.authorizationId !== token.user) {
    return refuse(context, api, `User:${token.user}`, 'The authorization id must be empty or the user name.');
  }
  try {
    const { principal } = await authenticatePlain(context.services.authenticator, token.user, token.password);
    context.session.authenticated(principal, PLAIN);
    return { ok: true, token: EMPTY, done: true };
  } catch (error) {
    if (!(error instanceof BrookError)) throw error;
    const attempted = error instanceof AuthenticationFailure ? error.attemptedPrincipal : `User:${token.user}`;
    return refuse(context, api, attempted, error.message);
  }
}
