// Is this request from another broker of the cluster? It must carry the cluster secret (compared in constant time)
// and, when the broker has a peer CA (BROOK_TLS_PEER_CA), come over a TLS connection whose client certificate
// chains to that CA: a stolen secret alone does not let a host outside the cluster call the internal routes or
// speak for a user on a forwarded request. A broker without a secret (one broker on the embedded store) trusts no
// request as a peer's.
import { createHash, timingSafeEqual, X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket, DetailedPeerCertificate } from 'node:tls';
import type { BrokerConfig } from '../config/broker-config.js';
import { certificatesOf, signedByAuthority } from '../config/security-config.js';
import { CLUSTER_SECRET_HEADER } from './peer-client.js';

/** Bound on the certificate chain walked from a client's certificate. */
const CHAIN_LENGTH_MAX = 8;

export type PeerCheck = { ok: true } | { ok: false; reason: string };

export class PeerAuthenticator {
  private readonly secretDigest: Buffer | null;
  private readonly secretBytes: Buffer;
  /** Where a secret given on a vouched connection is written to be compared (the secret's length). */
  private readonly given: Buffer;
  /** Connections that have presented the secret: later requests on them are compared without hashing. */
  private readonly vouched = new WeakSet<object>();
  private readonly authorities: X509Certificate[] | null;

  constructor(config: BrokerConfig) {
    this.secretDigest = config.clusterSecret === null ? null : digest(config.clusterSecret);
    this.secretBytes = Buffer.from(config.clusterSecret ?? '', 'utf8');
    this.given = Buffer.alloc(this.secretBytes.length);
    const peerCa = config.security.tls?.peerCa ?? null;
    this.authorities = peerCa === null ? null : certificatesOf('BROOK_TLS_PEER_CA', 'peer CA', peerCa);
  }

  check(request: IncomingMessage): PeerCheck {
    const given = request.headers[CLUSTER_SECRET_HEADER];
    if (this.secretDigest === null || typeof given !== 'string' || !this.secretMatches(request.socket ?? null, given))
      return { ok: false, reason: 'a valid cluster secret is required' };
    if (this.authorities === null) return { ok: true };
    const chain = verifiedChain(request.socket as TLSSocket);
    if (chain.length === 0 || !signedByAuthority(chain, this.authorities))
      return { ok: false, reason: 'a broker certificate signed by the peer CA (BROOK_TLS_PEER_CA) is required' };
    return { ok: true };
  }

  /**
   * Whether `given` is the secret, in constant time: through digests of the same length (which tell nothing of the
   * secret's length), or, on a connection that presented the secret before (a follower's fetch connection sends it
   * with every fetch), by its bytes when it has the secret's length: one SHA-256 a connection, not one a request.
   * A connection's peer that presented the secret knows its length; any other is compared through the digests.
   */
  private secretMatches(socket: object | null, given: string): boolean {
    if (socket !== null && this.vouched.has(socket) && Buffer.byteLength(given, 'utf8') === this.secretBytes.length) {
      this.given.write(given, 0, 'utf8');
      return timingSafeEqual(this.given, this.secretBytes);
    }
    if (!timingSafeEqual(digest(given), this.secretDigest!)) return false;
    if (socket !== null) this.vouched.add(socket);
    return true;
  }
}

/** The certificates a TLS client presented and the handshake verified, leaf first; empty when none. */
export function verifiedChain(socket: TLSSocket): X509Certificate[] {
  if (!socket.encrypted || !socket.authorized) return [];
  const chain: X509Certificate[] = [];
  let current: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (current?.raw !== undefined && chain.length < CHAIN_LENGTH_MAX) {
    chain.push(new X509Certificate(current.raw));
    if (current.issuerCertificate === current) break; // self-signed: the chain ends
    current = current.issuerCertificate;
  }
  return chain;
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}
