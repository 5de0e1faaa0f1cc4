// SaslAuthenticate (36), v0-2 (KIP-152; v1 answers the session lifetime, KIP-368: 0, Brook does not ask clients to
// re-authenticate; v2 is flexible): a token of the mechanism a v1 handshake chose (sasl-exchange.ts): PLAIN's one
// token, answered with an empty one; SCRAM's client-first and client-final messages, answered with the server's.
// A failed exchange is SASL_AUTHENTICATION_FAILED with the reason, and the connection closes after the answer; a
// token before a v1 handshake, or after the exchange succeeded, is ILLEGAL_SASL_STATE and closes it too.
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { CloseConnection, defineHandler } from '../kafka-handler.js';
import { saslExchange } from '../sasl-exchange.js';

const EMPTY = Buffer.alloc(0);

const answer = (errorCode: number, errorMessage: string | null, authBytes: Buffer = EMPTY) => ({
  errorCode,
  errorMessage,
  authBytes,
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
    if (sasl.kind !== 'handshaken') {
      return new CloseConnection<'SaslAuthenticate'>(
        'a SASL token outside an exchange',
        answer(KafkaErrorCode.ILLEGAL_SASL_STATE, 'SaslAuthenticate needs a SaslHandshake v1 first'),
      );
    }
    const result = await saslExchange(context, 'SaslAuthenticate', sasl.mechanism, request.body.authBytes);
    if (result.ok) return answer(KafkaErrorCode.NONE, null, result.token);
    return new CloseConnection<'SaslAuthenticate'>(
      `SASL authentication failed: ${result.reason}`,
      answer(KafkaErrorCode.SASL_AUTHENTICATION_FAILED, result.reason),
    );
  },
});
