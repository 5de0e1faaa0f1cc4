// The exception filter of the gateway: every frame the broker refuses, whatever refused it (the router, the rights
// guard, a DTO pipe, the session), is answered with one `error` frame, `{op: "error", id?, error_code, message}`,
// with the frame's id when it has a valid one, the five-digit code (errorFrameCode) and the message of the
// BrookError; any other exception is a broker error (50002) with its message. The socket stays open. An answer to
// a socket that has closed meanwhile goes nowhere.
import { Catch, Injectable, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { WebSocket } from 'ws';
import { asBrookError, isFrameId } from './ws-protocol.js';
import { WsSessions } from './ws-sessions.js';

@Catch()
@Injectable()
export class FrameErrorFilter implements ExceptionFilter {
  constructor(private readonly sessions: WsSessions) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ws = host.switchToWs();
    const id = ws.getData<{ id?: unknown } | undefined>()?.id;
    this.sessions.find(ws.getClient<WebSocket>())?.sendError(asBrookError(exception), isFrameId(id) ? id : undefined);
  }
}
