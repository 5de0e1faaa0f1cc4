// One SASL/PLAIN exchange of a Kafka connection, whichever way its token came: in a SaslAuthenticate request
// (after a v1 handshake) or as a bare frame (after a v0 handshake, KIP-43's original form, which librdkafka and
// Java still require a broker to advertise). A success makes the connection the user's; a failure is an audit
// line (authentication.failed, as on REST) and the reason the connection then closes with.
import { BrookError } from '../common/brook-error.js';
import { AuthenticationFailure } from '../security/authenticator.service.js';
import type { KafkaRequestContext } from './kafka-handler.js';
import { authenticatePlain, parsePlainToken, PLAIN } from './sasl-plain.js';

export type ExchangeResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export async function plainExchange(
  context: Pick<KafkaRequestContext, 'session' | 'services'>,
  api: string,
  authBytes: Buffer,
): Promise<ExchangeResult> {
  const { session, services } = context;
  const refuse = (attemptedPrincipal: string, reason: string): ExchangeResult => {
    services.audit.write({
      event: 'authentication.failed',
      protocol: 'kafka',
      api,
      client_id: session.clientId,
      principal: attemptedPrincipal,
      host: session.host,
      reason,
    });
    return { ok: false, reason };
  };
  const token = parsePlainToken(authBytes);
  if (token === null) return refuse('User:ANONYMOUS', 'Malformed PLAIN token.');
  if (token.authorizationId !== '' && token.authorizationId !== token.user) {
    return refuse(`User:${token.user}`, 'The authorization id must be empty or the user name.');
  }
  try {
    const { principal } = await authenticatePlain(services.authenticator, token.user, token.password);
    session.authenticated(principal, PLAIN);
    return { ok: true };
  } catch (error) {
    if (!(error instanceof BrookError)) throw error;
    return refuse(
      error instanceof AuthenticationFailure ? error.attemptedPrincipal : `User:${token.user}`,
      error.message,
    );
  }
}
