// GET /v3/ws (DESIGN.md section 4, asyncapi.yaml): the WebSocket gateway, one handler per op. The adapter
// (ws.adapter.ts) has authenticated the upgrade and bounded the sockets before a connection gets here, and routes
// each frame by its `op` (ws-protocol.ts). Per frame: the rights guard (frame-rights.guard.ts), the control frames'
// DTO pipes (frame-validation.pipe.ts; produce frames come parsed by the router, the hot path), the handler, which
// hands the frame to the socket's session (ws-session.ts), and the exception filter, which answers every refusal
// with an `error` frame (frame-error.filter.ts). A handler whose work goes on after it returns (produce, subscribe,
// commit) returns it as an Observable, so that its failure reaches the filter too. What the broker pushes (records,
// acks, rebalances) does not pass through here: the session writes it to its socket.
import { UseFilters, UseGuards } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  SubscribeMessage,
  WebSocketGateway,
  type OnGatewayConnection,
  type OnGatewayDisconnect,
} from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import { from, type Observable } from 'rxjs';
import type { WebSocket } from 'ws';
import type { Identified } from '../security/authenticator.service.js';
import { FrameErrorFilter } from './frame-error.filter.js';
import { FrameRightsGuard } from './frame-rights.guard.js';
import { ControlFramePipe } from './frame-validation.pipe.js';
import { CommitFrameDto, CreditFrameDto, SubscribeFrameDto, UnsubscribeFrameDto } from './frames.dto.js';
import {
  REFUSED_FRAME,
  WS_PATH,
  type CommitFrame,
  type CreditFrame,
  type ProduceFrame,
  type ScannedProduceFrame,
  type RefusedFrame,
  type SubscribeFrame,
  type UnsubscribeFrame,
} from './ws-protocol.js';
import { WsSessions } from './ws-sessions.js';

@WebSocketGateway({ path: WS_PATH })
@UseFilters(FrameErrorFilter)
export class WsGateway implements OnGatewayConnection, OnGatewayDisconnect {
  constructor(private readonly sessions: WsSessions) {}

  handleConnection(socket: WebSocket, request: IncomingMessage, identified: Identified): void {
    this.sessions.open(socket, request, identified);
  }

  handleDisconnect(socket: WebSocket): void {
    this.sessions.forget(socket);
  }

  @SubscribeMessage('produce')
  @UseGuards(FrameRightsGuard)
  produce(
    @ConnectedSocket() socket: WebSocket,
    @MessageBody() frame: ProduceFrame | ScannedProduceFrame,
  ): Observable<void> {
    return from(this.sessions.of(socket).produce(frame));
  }

  @SubscribeMessage('subscribe')
  @UseGuards(FrameRightsGuard)
  subscribe(
    @ConnectedSocket() socket: WebSocket,
    @MessageBody(ControlFramePipe(SubscribeFrameDto)) frame: SubscribeFrame,
  ): Observable<void> {
    return from(this.sessions.of(socket).subscriptions.subscribe(frame));
  }

  @SubscribeMessage('credit')
  @UseGuards(FrameRightsGuard)
  credit(
    @ConnectedSocket() socket: WebSocket,
    @MessageBody(ControlFramePipe(CreditFrameDto)) frame: CreditFrame,
  ): void {
    this.sessions.of(socket).subscriptions.credit(frame);
  }

  @SubscribeMessage('commit')
  @UseGuards(FrameRightsGuard)
  commit(
    @ConnectedSocket() socket: WebSocket,
    @MessageBody(ControlFramePipe(CommitFrameDto)) frame: CommitFrame,
  ): Observable<void> {
    return from(this.sessions.of(socket).subscriptions.commit(frame));
  }

  @SubscribeMessage('unsubscribe')
  @UseGuards(FrameRightsGuard)
  unsubscribe(
    @ConnectedSocket() socket: WebSocket,
    @MessageBody(ControlFramePipe(UnsubscribeFrameDto)) frame: UnsubscribeFrame,
  ): void {
    this.sessions.of(socket).subscriptions.unsubscribe(frame);
  }

  /** A frame the router could not route (not JSON, a bad id or op, a broken produce frame, binary). */
  @SubscribeMessage(REFUSED_FRAME)
  refuse(@MessageBody() frame: RefusedFrame): never {
    throw frame.error;
  }
}
