// SASL/PLAIN (RFC 4616) as the Kafka listener checks it: the client's one token is
// [authorization id] NUL user name NUL password, UTF-8. The user name and password are checked by the
// authenticator exactly as REST's Basic credentials are (the same users file, scrypt hashes, the bounded password
// checks, the same timing for unknown users), so a user is the same principal, User:<name>, on both protocols.
// An authorization id other than empty or the user name itself is refused (Kafka's PlainSaslServer does the same).
import type { Authenticator } from '../security/authenticator.service.js';

export const PLAIN = 'PLAIN';

/** The three fields of a PLAIN token, or null when it is not one. */
export function parsePlainToken(token: Buffer): { authorizationId: string; user: string; password: string } | null {
  const first = token.indexOf(0);
  const second = first < 0 ? -1 : token.indexOf(0, first + 1);
  if (second < 0 || token.indexOf(0, second + 1) >= 0) return null;
  const [authorizationId, user, password] = [
    token.subarray(0, first),
    token.subarray(first + 1, second),
    token.subarray(second + 1),
  ].map((part) => part.toString('utf8'));
  if (user === '' || password === '') return null;
  return { authorizationId, user, password };
}

/** The principal a PLAIN token authenticates; rejects (AuthenticationFailure or a 429 BrookError) when it does not. */
export async function authenticatePlain(authenticator: Authenticator, user: string, password: string) {
  const basic = Buffer.from(`${user}:${password}`, 'utf8').toString('base64');
  return authenticator.identify({ authorization: `Basic ${basic}` });
}
