// The Kafka listener (DESIGN.md §3b): a TCP server on BROOK_KAFKA_HOST:BROOK_KAFKA_PORT, TLS when Brook's TLS
// settings are set (the HTTP listener's certificate; client certificates requested when BROOK_TLS_CA or
// BROOK_TLS_PEER_CA is given, and a certificate signed by BROOK_TLS_CA names the connection's user). Each
// connection is a KafkaConnection: a plain TCP one reads into the listener's one read buffer (read-buffer-socket.ts:
// no fresh 64 KiB buffer per read, frames copied out of it) or, for the rest of a large frame, straight into that
// frame's own memory (FrameReader), a TLS one through its 'data' events. At most
// BROOK_MAX_CONNECTIONS are open (one more is closed at once). main.ts calls listen() once the broker has started;
// shutdown closes the server and every connection.
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { type ConnectionInput, KafkaConnection } from './kafka-connection.js';
import { KafkaServices } from './kafka-services.js';
import { ANONYMOUS_PRINCIPAL, KafkaSession } from './kafka-session.js';
import { takeWithReadBuffer } from './read-buffer-socket.js';

/** The read buffer every plain connection of a listener reads into (one read at a time, on this thread). */
const READ_BUFFER_BYTES = 64 * 1024;

@Injectable()
export class KafkaListener implements OnApplicationShutdown {
  private readonly logger = new Logger('KafkaListener');
  private server: Server | null = null;
  private readonly connections = new Set<KafkaConnection>();
  private readonly readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly services: KafkaServices,
  ) {}

  get enabled(): boolean {
    return this.config.kafka.enabled;
  }

  /** Open connections (for the metrics gauge and tests). */
  get connectionCount(): number {
    return this.connections.size;
  }

  /** Binds the listener; rejects with a message naming the setting when the address cannot be bound. */
  async listen(): Promise<void> {
    const { host, port, maxConnections } = this.config.kafka;
    const tls = this.config.security.tls;
    const server =
      tls === null
        ? createServer({ pauseOnConnect: true }, (socket) => this.acceptPlain(socket))
        : createTlsServer(
            {
              cert: tls.cert,
              key: tls.key,
              ...(tls.ca === null && tls.peerCa === null
                ? {}
                : {
                    ca: [tls.ca, tls.peerCa].filter((ca): ca is Buffer => ca !== null),
                    requestCert: true,
                    rejectUnauthorized: false,
                  }),
            },
            (socket) => this.accept(socket),
          );
    server.maxConnections = maxConnections;
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new Error(
            `the Kafka listener cannot listen on ${host}:${port} (BROOK_KAFKA_HOST, BROOK_KAFKA_PORT or ` +
              `--kafka-port; BROOK_KAFKA_ENABLED=false turns it off): ${error.code ?? error.message}`,
          ),
        ),
      );
      server.listen(port, host, () => resolve());
    });
    server.on('error', (error) => this.logger.error(`Kafka listener: ${error.message}`));
  }

  onApplicationShutdown(): Promise<void> {
    for (const connection of this.connections) connection.close('the broker is shutting down');
    const server = this.server;
    if (server === null) return Promise.resolve();
    return new Promise((resolve) => server.close(() => resolve()));
  }

  private acceptPlain(accepted: Socket): void {
    let connection: KafkaConnection | null = null;
    const socket = takeWithReadBuffer(
      accepted,
      () => connection?.readTarget(this.readBuffer) ?? this.readBuffer,
      (bytes) => connection?.receive(bytes),
    );
    if (socket === null) {
      accepted.destroy();
      return;
    }
    connection = this.accept(socket, 'receive-calls');
  }

  private accept(socket: Socket, input: ConnectionInput = 'data-events'): KafkaConnection {
    const authenticator = this.services.authenticator;
    const certificateName =
      'encrypted' in socket ? authenticator.certificateCommonNameOfSocket(socket as TLSSocket) : null;
    const principal = certificateName === null ? ANONYMOUS_PRINCIPAL : `User:${certificateName}`;
    const session = new KafkaSession(hostOf(socket), principal, authenticator.required && certificateName === null);
    const connection = new KafkaConnection(
      socket,
      session,
      this.services,
      {
        requestBytesMax: this.config.socketRequestMaxBytes,
        inFlightRequestsMax: this.config.kafka.inFlightRequestsMax,
        idleMs: this.config.kafka.connectionsMaxIdleMs,
      },
      input,
    );
    this.connections.add(connection);
    connection.start(() => this.connections.delete(connection));
    return connection;
  }
}

/** The client address as ACLs name hosts: IPv4-mapped IPv6 addresses in their IPv4 form. */
function hostOf(socket: Socket): string {
  const address = socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
