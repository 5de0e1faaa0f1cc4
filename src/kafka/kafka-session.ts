// What the broker knows about one Kafka connection: who is on the other end (the principal, set by a TLS client
// certificate at accept time or by SASL later), from where, and the client id of its latest request. Handlers read
// it; only the SASL handlers and the listener change it.
import type { ScramServerExchange } from './sasl-scram.js';

export const ANONYMOUS_PRINCIPAL = 'User:ANONYMOUS';

/** Where the connection is in SASL (KIP-43 and KIP-152): the handlers of SaslHandshake and SaslAuthenticate move it. */
export type SaslStage =
  /** Nothing asked yet. */
  | { readonly kind: 'none' }
  /** A v1 handshake chose a mechanism: its tokens come in SaslAuthenticate requests. */
  | { readonly kind: 'handshaken'; readonly mechanism: string }
  /** A v0 handshake chose a mechanism: its tokens come as bare size-prefixed frames, without a Kafka header. */
  | { readonly kind: 'raw-tokens'; readonly mechanism: string }
  | { readonly kind: 'authenticated'; readonly mechanism: string };

export class KafkaSession {
  /** The client id of the latest request (Kafka's header field; null when the client sent none). */
  clientId: string | null = null;
  sasl: SaslStage = { kind: 'none' };
  /** The SCRAM exchange under way after a handshake chose SCRAM (sasl-exchange.ts), else null. */
  scram: ScramServerExchange | null = null;

  constructor(
    /** The client's address as ACLs name hosts (IPv4-mapped IPv6 addresses in their IPv4 form). */
    readonly host: string,
    /** User:<common name> of a verified TLS client certificate, else User:ANONYMOUS until SASL names one. */
    public principal: string,
    /** True when the broker requires authentication and this connection has not shown any yet. */
    public authenticationRequired: boolean,
  ) {}

  /** A successful SASL exchange: the connection is this user's from now on. */
  authenticated(principal: string, mechanism: string): void {
    this.principal = principal;
    this.sasl = { kind: 'authenticated', mechanism };
    this.scram = null;
    this.authenticationRequired = false;
  }
}
