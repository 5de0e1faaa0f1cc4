// SASL/SCRAM-SHA-256 and SCRAM-SHA-512 (RFC 5802, RFC 7677) as Kafka's brokers serve it (KIP-84), one exchange as
// a pure state machine over the two client messages:
//   client-first  gs2-header client-first-bare        "n,,n=<user>,r=<client nonce>[,<extension>...]"
//   server-first                                      "r=<client nonce><server nonce>,s=<salt>,i=<iterations>"
//   client-final  "c=<base64 gs2-header>,r=<nonce>[,<extension>...],p=<proof>"
//   server-final  "v=<server signature>"
// The proof is checked against the user's StoredKey (the users file's SCRAM credential, never the password):
// ClientKey = proof XOR HMAC(StoredKey, AuthMessage), and H(ClientKey) must equal StoredKey (a constant-time
// compare); AuthMessage is client-first-bare "," server-first "," client-final without its proof.
// Checks: no channel binding ("p=" is refused: Brook advertises no -PLUS mechanism), an authorization id only if it
// is the user, no mandatory "m=" extension, Kafka's `tokenauth` extension refused (no delegation tokens), the client
// nonce printable without commas, the final nonce the client's and the server's (or, as librdkafka before 2.6.1
// sends it, the client's once more before them), the channel binding the
// client-first header. Bounded: each message at most SCRAM_MESSAGE_BYTES_MAX, two messages, then done.
// An unknown user, or one with no SCRAM credentials, is refused only at the proof (the credential lookup gives a
// stand-in), with the same message as a wrong password, so that names cannot be found by asking; the reason goes
// to the audit line.
import { timingSafeEqual } from 'node:crypto';
import { digest, hmac, type ScramCredential, type ScramMechanism } from '../config/scram-credentials.js';

export const SCRAM_MESSAGE_BYTES_MAX = 4096;
const NONCE_CHARS_MAX = 512;
const USER_CHARS_MAX = 512;

export type CredentialLookup = (name: string) => { credential: ScramCredential; problem: string | null };

export type ScramStep =
  | { readonly kind: 'challenge'; readonly reply: Buffer }
  | { readonly kind: 'success'; readonly reply: Buffer; readonly principal: string }
  | {
      readonly kind: 'failure';
      /** What the client is told. */
      readonly reason: string;
      /** What the audit line says (for a refused proof, why: unknown user, no SCRAM credentials, wrong password). */
      readonly detail: string;
      readonly attemptedPrincipal: string;
    };

/** What a client whose proof is refused is told, whatever the cause. */
export const PROOF_REFUSED =
  'Invalid user name or password (a user whose password was set before Brook wrote SCRAM credentials can use PLAIN only).';

/** `a=b,c=d` attributes in order, or null when one is not a letter, "=" and a value. */
function attributes(text: string): Array<[string, string]> | null {
  const parts = text.split(',');
  const out: Array<[string, string]> = [];
  for (const part of parts) {
    const match = /^([A-Za-z][A-Za-z0-9]*)=(.*)$/s.exec(part);
    if (match === null) return null;
    out.push([match[1], match[2]]);
  }
  return out;
}

/** A saslname with =2C and =3D decoded, or null when it holds another "=". */
function saslName(text: string): string | null {
  if (/=(?!2C|3D)/.test(text)) return null;
  return text.replaceAll('=2C', ',').replaceAll('=3D', '=');
}

const printableNonce = (nonce: string) => /^[\x21-\x2b\x2d-\x7e]+$/.test(nonce) && nonce.length <= NONCE_CHARS_MAX;

export class ScramServerExchange {
  private stage: 'first' | 'final' | 'over' = 'first';
  private user = '';
  private gs2Header = '';
  private clientFirstBare = '';
  private serverFirst = '';
  private nonce = '';
  private clientNonce = '';
  private credential: ScramCredential | null = null;
  private problem: string | null = null;

  constructor(
    readonly mechanism: ScramMechanism,
    private readonly lookup: CredentialLookup,
    /** The server's part of the nonce: printable, no commas (random in production). */
    private readonly serverNonce: () => string,
  ) {}

  /** The exchange's answer to the client's next message. */
  step(message: Buffer): ScramStep {
    if (message.length > SCRAM_MESSAGE_BYTES_MAX)
      return this.fail(`A SCRAM message is at most ${SCRAM_MESSAGE_BYTES_MAX} bytes.`);
    const text = message.toString('utf8');
    if (!Buffer.from(text, 'utf8').equals(message)) return this.fail('A SCRAM message must be UTF-8.');
    switch (this.stage) {
      case 'first':
        return this.first(text);
      case 'final':
        return this.final(text);
      case 'over':
        return this.fail('The SCRAM exchange is over.');
    }
  }

  private fail(reason: string, detail = reason): ScramStep {
    this.stage = 'over';
    const attemptedPrincipal = this.user === '' ? 'User:ANONYMOUS' : `User:${this.user}`;
    return { kind: 'failure', reason, detail, attemptedPrincipal };
  }

  private first(text: string): ScramStep {
    const firstComma = text.indexOf(',');
    const secondComma = firstComma < 0 ? -1 : text.indexOf(',', firstComma + 1);
    if (secondComma < 0) return this.fail('Malformed SCRAM client-first message.');
    const flag = text.slice(0, firstComma);
    const authzid = text.slice(firstComma + 1, secondComma);
    if (flag.startsWith('p=')) return this.fail('SCRAM channel binding is not supported.');
    if (flag !== 'n' && flag !== 'y') return this.fail('Malformed SCRAM gs2 header.');
    if (authzid !== '' && !authzid.startsWith('a=')) return this.fail('Malformed SCRAM authorization id.');
    this.gs2Header = text.slice(0, secondComma + 1);
    this.clientFirstBare = text.slice(secondComma + 1);
    const attrs = attributes(this.clientFirstBare);
    if (attrs === null || attrs.length < 2 || attrs[0][0] !== 'n' || attrs[1][0] !== 'r') {
      return this.fail('Malformed SCRAM client-first message.');
    }
    const user = saslName(attrs[0][1]);
    if (user === null || user === '' || user.length > USER_CHARS_MAX) return this.fail('Malformed SCRAM user name.');
    this.user = user;
    if (authzid !== '' && saslName(authzid.slice(2)) !== user) {
      return this.fail('The authorization id must be empty or the user name.');
    }
    const clientNonce = attrs[1][1];
    if (!printableNonce(clientNonce)) return this.fail('The SCRAM client nonce must be printable, without commas.');
    for (const [key, value] of attrs.slice(2)) {
      if (key === 'm') return this.fail('SCRAM mandatory extensions are not supported.');
      if (key === 'tokenauth' && value.toLowerCase() === 'true') {
        return this.fail('Delegation tokens are not supported by Brook.');
      }
    }
    const { credential, problem } = this.lookup(user);
    this.credential = credential;
    this.problem = problem;
    this.clientNonce = clientNonce;
    this.nonce = `${clientNonce}${this.serverNonce()}`;
    this.serverFirst = `r=${this.nonce},s=${credential.salt.toString('base64')},i=${credential.iterations}`;
    this.stage = 'final';
    return { kind: 'challenge', reply: Buffer.from(this.serverFirst, 'utf8') };
  }

  private final(text: string): ScramStep {
    const proofAt = text.lastIndexOf(',p=');
    const attrs = attributes(text);
    if (proofAt < 0 || attrs === null || attrs.length < 3 || attrs[0][0] !== 'c' || attrs[1][0] !== 'r') {
      return this.fail('Malformed SCRAM client-final message.');
    }
    if (attrs.at(-1)![0] !== 'p') return this.fail('Malformed SCRAM client-final message.');
    if (!Buffer.from(attrs[0][1], 'base64').equals(Buffer.from(this.gs2Header, 'utf8'))) {
      return this.fail('The SCRAM channel binding does not match the client-first header.');
    }
    // librdkafka before 2.6.1 sends the client nonce once more before the exchange's (its #4895); Kafka 3.8.1+
    // accepts that form too (CVE-2024-56128's fix), and so does Brook, since the server nonce is still echoed
    const nonce = attrs[1][1];
    if (nonce !== this.nonce && nonce !== `${this.clientNonce}${this.nonce}`) {
      return this.fail('The SCRAM nonce does not match the exchange.');
    }
    const credential = this.credential!;
    const proof = Buffer.from(attrs.at(-1)![1], 'base64');
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${text.slice(0, proofAt)}`;
    const clientSignature = hmac(this.mechanism, credential.storedKey, authMessage);
    if (proof.length !== clientSignature.length) return this.fail('Malformed SCRAM proof.');
    const clientKey = Buffer.alloc(proof.length);
    for (let i = 0; i < proof.length; i++) clientKey[i] = proof[i] ^ clientSignature[i];
    const matches = timingSafeEqual(digest(this.mechanism, clientKey), credential.storedKey);
    if (!matches || this.problem !== null) {
      return this.fail(PROOF_REFUSED, this.problem ?? 'Invalid user name or password.');
    }
    this.stage = 'over';
    const serverSignature = hmac(this.mechanism, credential.serverKey, authMessage);
    return {
      kind: 'success',
      reply: Buffer.from(`v=${serverSignature.toString('base64')}`, 'utf8'),
      principal: `User:${this.user}`,
    };
  }
}
