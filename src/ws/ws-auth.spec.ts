import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Authenticator, Credentials } from '../security/authenticator.service.js';
import { authenticateUpgrade, hostOfSocket, webSocketChecks } from './ws-auth.js';

const upgrade = (url: string, headers: Record<string, string> = {}) =>
  ({ url, headers, socket: { remoteAddress: '::ffff:10.1.2.3', encrypted: false } }) as unknown as IncomingMessage;

describe('WebSocket and SSE security helpers', () => {
  it('authenticates an upgrade from its header or its ?token=', async () => {
    const seen: Credentials[] = [];
    const authenticator = {
      authenticate: async (credentials: Credentials) => {
        seen.push(credentials);
        return 'User:x';
      },
      certificateCommonNameOf: () => null,
    } as unknown as Authenticator;
    await authenticateUpgrade(authenticator, upgrade('/v3/ws?token=brook_k_secretsecretsecret'));
    await authenticateUpgrade(authenticator, upgrade('/v3/ws', { authorization: 'Basic YTpi' }));
    expect(seen).toEqual([
      { authorization: undefined, token: 'brook_k_secretsecretsecret', certificateCommonName: null },
      { authorization: 'Basic YTpi', token: undefined, certificateCommonName: null },
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
});
