// SASL. SaslHandshake (API key 17), versions 0-1, never flexible: the client names a mechanism, the broker lists
// those it has. After a v0 handshake the client sends its SASL tokens as bare size-prefixed frames (no Kafka
// header); after v1 each token is a SaslAuthenticate request (36, versions 0-2, flexible from 2; v1 answers the
// session lifetime, KIP-368).
import { bytes, defineApi, int16, int64, scalars, string } from '../schema.js';

export const saslHandshake = defineApi({
  name: 'SaslHandshake',
  apiKey: 17,
  versions: '0-1',
  flexible: 'none',
  request: [string('mechanism', '0+')],
  response: [int16('errorCode', '0+'), scalars('mechanisms', 'string', '0+')],
});

export const saslAuthenticate = defineApi({
  name: 'SaslAuthenticate',
  apiKey: 36,
  versions: '0-2',
  flexible: '2+',
  request: [bytes('authBytes', '0+')],
  response: [
    int16('errorCode', '0+'),
    string('errorMessage', '0+', { nullable: '0+' }),
    bytes('authBytes', '0+'),
    int64('sessionLifetimeMs', '1+', { default: 0, ignorable: true }),
  ],
});
