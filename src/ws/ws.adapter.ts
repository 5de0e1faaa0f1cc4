// The WebSocket adapter of the broker: `@nestjs/platform-ws`'s WsAdapter, extended where Brook's endpoint needs
// more than it does. Everything that must happen before a socket exists happens here, on the HTTP server's
// `upgrade` event, in this order:
//   1. the path: only the gateway's path is upgraded; any other is answered 404;
//   2. the upgrade gate (ws-upgrade.ts): the origin and the credentials (a refusal is an HTTP answer, 401...);
//   3. the handshake, with the bounds of every frame (BROOK_WS_FRAME_BYTES_MAX, closed with 1009 by the library;
//      no compression);
//   4. the socket bound (BROOK_WS_SOCKETS_MAX): one more socket is closed with 1008 right after the handshake, and
//      one opened while the broker stops is closed with 1001. Only then is the socket the gateway's connection.
// Frames: the message parser (produce-frame-scanner.ts `routeMessage`: a produce frame of the common shape read from
// its bytes, any other frame by ws-protocol.ts `routeFrame`) routes each text frame by its `op` (a binary frame is
// refused); the frame is charged to the socket's quotas as it is read; then the handler of its event runs through
// Nest (guard, pipes, handler, exception filter). A socket's frames run one after the other, in the order they
// arrived: the next starts once the previous one's handler has returned (an async handler returns an Observable of
// its work, which goes on without holding the next frame). Nothing the broker sends passes through here: the
// session writes records, acks and errors to its socket itself.
import { Logger } from '@nestjs/common';
import type { WsMessageHandler } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { isObservable, type Observable } from 'rxjs';
import { WebSocketServer, type WebSocket } from 'ws';
import type { BrookError } from '../common/brook-error.js';
import type { Identified } from '../security/authenticator.service.js';
import { asBrookError, type RoutedMessage } from './ws-protocol.js';

/** What the adapter asks before the handshake. */
export interface UpgradeGate {
  /** Who the client is; rejects with the BrookError the upgrade is refused with. */
  identify(request: IncomingMessage): Promise<Identified>;
}

/** A close right after the handshake: the socket may not stay. */
export interface Turnaway {
  code: number;
  reason: string;
}

/** What the adapter asks of the broker's open sockets. */
export interface SocketIntake {
  /** Why one more socket may not stay, or null when it may. */
  turnaway(): Turnaway | null;
  /** Whether the socket's session still takes frames. */
  takesFrames(socket: WebSocket): boolean;
  /** A text frame of `bytes` was read and routed to `event`; charged to the socket's quotas. */
  frameRead(socket: WebSocket, bytes: number, event: RoutedMessage['event']): void;
}

export interface BrookWsOptions {
  frameBytesMax: number;
  /** The op router of a message as received; a frame it does not know how to route goes to its refusal event. */
  messageParser: (data: Buffer, isBinary: boolean) => RoutedMessage;
  gate: UpgradeGate;
  intake: SocketIntake;
}

export class BrookWsAdapter extends WsAdapter {
  private readonly log = new Logger('WebSocket');
  private readonly upgradeListeners: Array<(request: IncomingMessage, socket: Duplex, head: Buffer) => void> = [];
  private readonly route: (data: Buffer, isBinary: boolean) => RoutedMessage;

  constructor(
    app: object,
    private readonly options: BrookWsOptions,
  ) {
    super(app);
    this.route = options.messageParser;
  }

  /** The server of the gateway at `path` (its one option), sharing the broker's HTTP server. */
  override create(_port: number, { path }: { path?: string } = {}): WebSocketServer {
    const server = new WebSocketServer({
      noServer: true,
      maxPayload: this.options.frameBytesMax,
      perMessageDeflate: false,
    });
    server.on('error', (error: Error) => this.log.error(error));
    const listener = (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.upgrade(server, path, request, socket, head);
    (this.httpServer as Server).on('upgrade', listener);
    this.upgradeListeners.push(listener);
    return server;
  }

  /** Client sockets' errors are the client's (a broken frame): the socket closes, nothing is logged. */
  override bindErrorHandler(server: WebSocketServer): WebSocketServer {
    return server;
  }

  override bindMessageHandlers(client: WebSocket, handlers: WsMessageHandler[]): void {
    const byEvent = new Map(handlers.map((handler) => [handler.message as string, handler.callback]));
    let previous: Promise<void> = Promise.resolve();
    client.on('message', (data: Buffer, isBinary: boolean) => {
      const { intake } = this.options;
      if (!intake.takesFrames(client)) return;
      const frame = this.route(data, isBinary);
      if (!isBinary) intake.frameRead(client, data.length, frame.event);
      const handler = byEvent.get(frame.event);
      if (handler === undefined) throw new Error(`no handler for the WebSocket event ${frame.event}`);
      previous = previous.then(() => this.run(client, handler, frame));
    });
  }

  override async dispose(): Promise<void> {
    for (const listener of this.upgradeListeners.splice(0)) (this.httpServer as Server).off('upgrade', listener);
    await super.dispose();
  }

  private async run(client: WebSocket, handler: WsMessageHandler['callback'], frame: RoutedMessage): Promise<void> {
    if (!this.options.intake.takesFrames(client)) return;
    try {
      const result: unknown = await handler(frame.data, frame.event);
      if (isObservable(result)) (result as Observable<unknown>).subscribe({ error: (error) => this.log.error(error) });
    } catch (error) {
      // Only an exception filter that throws gets here (a bug): the next frames still run.
      this.log.error(error);
    }
  }

  private upgrade(
    server: WebSocketServer,
    path: string | undefined,
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
  ): void {
    if ((request.url ?? '').split('?', 1)[0] !== path) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.options.gate.identify(request).then(
      (identified) =>
        server.handleUpgrade(request, socket, head, (ws) => {
          const turnaway = this.options.intake.turnaway();
          if (turnaway === null) {
            server.emit('connection', ws, request, identified);
            return;
          }
          ws.once('error', () => ws.terminate());
          ws.close(turnaway.code, turnaway.reason);
        }),
      (error: unknown) => refuseUpgrade(socket, asBrookError(error)),
    );
  }
}

const STATUS_TEXT: Readonly<Record<number, string>> = { 401: 'Unauthorized', 403: 'Forbidden' };

function refuseUpgrade(socket: Duplex, failure: BrookError): void {
  const body = JSON.stringify({ error_code: failure.errorCode, message: failure.message });
  socket.end(
    `HTTP/1.1 ${failure.status} ${STATUS_TEXT[failure.status] ?? 'Error'}\r\n` +
      (failure.status === 401 ? `WWW-Authenticate: Basic realm="brook"\r\n` : '') +
      `Content-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
