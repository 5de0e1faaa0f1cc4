import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Authenticator, Credentials } from '../security/authenticator.service.js';
import type { AuditEvent, AuditLog } from '../security/audit-log.js';
import type { Authorizer } from '../security/authorizer.service.js';
import { authenticateUpgrade, authorizeFrame, hostOfSocket, webSocketChecks } from './ws-auth.js';

const upgrade = (url: string, headers: Record<string, string> = {}) =>
  ({ url, headers, socket: { remoteAddress: '::ffff:10.1.2.3', encrypted: false } }) as unknown as IncomingMessage;

describe('WebSocket and SSE security helpers', () => {
  it('authenticates an upgrade from its header or its ?token=', async () => {
    const seen: Credentials[] = [];
    const authenticator = {
      identify: async (credentials: Credentials) => {
        seen.push(credentials);
        return { principal: 'User:x', credential: { kind: 'anonymous' } };
      },
      certificateCommonNameOf: () => null,
      certificateNotAfterOf: () => null,
    } as unknown as Authenticator;
    await authenticateUpgrade(authenticator, upgrade('/v3/ws?token=brook_k_secretsecretsecret'));
    await authenticateUpgrade(authenticator, upgrade('/v3/ws', { authorization: 'Basic YTpi' }));
    expect(seen).toEqual([
      {
        authorization: undefined,
        token: 'brook_k_secretsecretsecret',
        certificateCommonName: null,
        certificateNotAfterMs: null,
      },
      { authorization: 'Basic YTpi', token: undefined, certificateCommonName: null, certificateNotAfterMs: null },
    ]);
    expect(hostOfSocket(upgrade('/'))).toBe('10.1.2.3');
  });

  it('maps WebSocket frames to the rights they need', () => {
    expect(webSocketChecks({ op: 'produce', topic: 't', records: [] })).toEqual([
      { operation: 'WRITE', resource: { type: 'TOPIC', name: 't' } },
    ]);
    expect(webSocketChecks({ op: 'subscribe', topics: ['a', 'b'], group: 'g' })).toEqual([
      { operation: 'READ', resource: { type: 'GROUP', name: 'g' } },
      { operation: 'READ', resource: { type: 'TOPIC', name: 'a' } },
      { operation: 'READ', resource: { type: 'TOPIC', name: 'b' } },
    ]);
    expect(
      webSocketChecks({
        op: 'subscribe',
        assign: [
          { topic: 'c', partition: 0 },
          { topic: 'c', partition: 1 },
        ],
      }),
    ).toEqual([{ operation: 'READ', resource: { type: 'TOPIC', name: 'c' } }]);
    expect(webSocketChecks({ op: 'commit', offsets: [{ topic: 'c', partition: 0, offset: 3 }] }, 'g')).toEqual([
      { operation: 'READ', resource: { type: 'GROUP', name: 'g' } },
      { operation: 'READ', resource: { type: 'TOPIC', name: 'c' } },
    ]);
    expect(webSocketChecks({ op: 'credit', id: 1, n: 5 })).toEqual([]);
  });

  it('refuses a frame missing a right with 40301 and an audit line naming the frame and the right', () => {
    const lines: AuditEvent[] = [];
    const authorizer = {
      authorize: (_p: string, _h: string, operation: string) => operation === 'READ',
      check: () => {
        throw Object.assign(new Error('denied'), { errorCode: 40301 });
      },
    } as unknown as Authorizer;
    const audit = { write: (event: AuditEvent) => lines.push(event) } as AuditLog;
    const who = { principal: 'User:alice', host: '10.0.0.1' };
    authorizeFrame(authorizer, audit, who, { op: 'subscribe', assign: [{ topic: 'a', partition: 0 }] }, null);
    expect(() => authorizeFrame(authorizer, audit, who, { op: 'produce', topic: 'a' }, null)).toThrow('denied');
    expect(lines).toEqual([
      expect.objectContaining({
        event: 'authorization.denied',
        principal: 'User:alice',
        route: '/v3/ws',
        frame_op: 'produce',
        operation: 'WRITE',
        resource_name: 'a',
      }),
    ]);
  });
});
