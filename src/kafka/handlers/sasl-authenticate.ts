// SaslAuthenticate (36), v0-2 (KIP-152; v1 answers the session lifetime, KIP-368: 0, Brook does not ask clients to
// re-authenticate; v2 is flexible): the token of the mechanism a v1 handshake chose. PLAIN (sasl-exchange.ts) takes
// one token and answers an empty one. A failed exchange is SASL_AUTHENTICATION_FAILED with the reason, and the
// connection closes after the answer; a token before a v1 handshake, or after the exchange succeeded, is
// ILLEGAL_SASL_STATE and closes it too.
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { CloseConnection, defineHandler } from '../kafka-handler.js';
import { plainExchange } from '../sasl-exchange.js';
import { PLAIN } from '../sasl-plain.js';

const EMPTY = Buffer.alloc(0);

const answer = (errorCode: number, errorMessage: string | null) => ({
  errorCode,
  errorMessage,
  authBytes: EMPTY,
  sessionLifetimeMs: 0,
});

export const saslAuthenticateHandler = defineHandler({
  api: 'SaslAuthenticate',
  minVersion: 0,
  maxVersion: 2,
  ordering: 'exclusive',
  beforeAuthentication: true,
  async handle(request, context) {
    const { sasl } = context.session;
    if (sasl.kind !== 'handshaken' || sasl.mechanism !== PLAIN) {
      return new CloseConnection<'SaslAuthenticate'>(
        'a SASL token outside an exchange',
        answer(KafkaErrorCode.ILLEGAL_SASL_STATE, 'SaslAuthenticate needs a SaslHandshake v1 naming PLAIN first'),
      );
    }
    const result = await plainExchange(context, 'SaslAuthenticate', request.body.authBytes);
    if (result.ok) return answer(KafkaErrorCode.NONE, null);
    return new CloseConnection<'SaslAuthenticate'>(
      `SASL authentication failed: ${result.reason}`,
      answer(KafkaErrorCode.SASL_AUTHENTICATION_FAILED, result.reason),
    );
  },
});
