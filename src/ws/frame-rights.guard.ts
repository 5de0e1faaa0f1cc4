// The rights of a client frame (DESIGN.md section 4, ws-auth.ts `webSocketChecks`): produce needs WRITE on the
// topic, subscribe READ on each topic and on the group it joins, commit READ on the group of its subscription and on
// each topic; credit and unsubscribe act on the socket's own subscriptions only. The first right missing is an
// audit line (authorization.denied, with the frame's op) and a 403 (40301) thrown, which the exception filter
// answers with an `error` frame; the socket stays open. It reads the frame as the client sent it (control frames
// are checked after it, by their pipes): a field that names no topic or group asks for no right.
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { WebSocket } from 'ws';
import { AuditLog } from '../security/audit-log.js';
import { Authorizer } from '../security/authorizer.service.js';
import { authorizeFrame } from './ws-auth.js';
import type { ControlFrameBody, ProduceFrame } from './ws-protocol.js';
import { WsSessions } from './ws-sessions.js';

@Injectable()
export class FrameRightsGuard implements CanActivate {
  constructor(
    private readonly sessions: WsSessions,
    private readonly authorizer: Authorizer,
    private readonly audit: AuditLog,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const ws = context.switchToWs();
    const session = this.sessions.of(ws.getClient<WebSocket>());
    const frame = ws.getData<ProduceFrame | ControlFrameBody>();
    const group = frame.op === 'commit' ? session.subscriptions.groupOf(frame.id) : null;
    authorizeFrame(this.authorizer, this.audit, session.identity, frame as unknown as Record<string, unknown>, group);
    return true;
  }
}
