// SaslHandshake (17), v0-1 (KIP-43, KIP-152): the client names a mechanism; the broker answers the ones it serves
// and, when it serves that one, expects the client's tokens: after v1 in SaslAuthenticate requests, after v0 as
// bare size-prefixed frames without a Kafka header (the connection reads them, kafka-connection.ts). Brook serves
// PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 against the users file REST's Basic authentication reads
// (sasl-exchange.ts), when that authentication is enabled (BROOK_AUTH has basic). UNSUPPORTED_SASL_MECHANISM for
// another mechanism and ILLEGAL_SASL_STATE for a second handshake close the connection after their answer, as
// Kafka does.
import { KafkaErrorCode } from '../protocol/error-codes.js';
import { CloseConnection, defineHandler } from '../kafka-handler.js';
import { saslMechanisms } from '../sasl-exchange.js';

export const saslHandshakeHandler = defineHandler({
  api: 'SaslHandshake',
  minVersion: 0,
  maxVersion: 1,
  ordering: 'exclusive',
  beforeAuthentication: true,
  handle(request, context) {
    const mechanisms = saslMechanisms(context);
    const { session } = context;
    if (session.sasl.kind !== 'none') {
      return new CloseConnection<'SaslHandshake'>('a second SASL handshake', {
        errorCode: KafkaErrorCode.ILLEGAL_SASL_STATE,
        mechanisms,
      });
    }
    if (!mechanisms.includes(request.body.mechanism)) {
      return new CloseConnection<'SaslHandshake'>(`SASL mechanism ${request.body.mechanism} is not served`, {
        errorCode: KafkaErrorCode.UNSUPPORTED_SASL_MECHANISM,
        mechanisms,
      });
    }
    const mechanism = request.body.mechanism;
    session.sasl = request.apiVersion === 0 ? { kind: 'raw-tokens', mechanism } : { kind: 'handshaken', mechanism };
    return { errorCode: KafkaErrorCode.NONE, mechanisms };
  },
});
