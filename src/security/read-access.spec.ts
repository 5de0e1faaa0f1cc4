import { describe, expect, it } from 'vitest';
import type { AuditEvent, AuditLog } from './audit-log.js';
import type { Authorizer } from './authorizer.service.js';
import { ReadAccess } from './read-access.js';

describe('ReadAccess, the one check before records leave the broker', () => {
  it('asks READ on the topic now, and writes an audit line naming the path for each refusal', () => {
    const readable = new Set(['a']);
    const asked: string[] = [];
    const authorizer = {
      authorize: (principal: string, host: string, operation: string, resource: { type: string; name: string }) => {
        asked.push(`${principal}@${host} ${operation} ${resource.type}:${resource.name}`);
        return readable.has(resource.name);
      },
    } as unknown as Authorizer;
    const lines: AuditEvent[] = [];
    const access = new ReadAccess(authorizer, { write: (event: AuditEvent) => lines.push(event) } as AuditLog);
    const reader = { principal: 'User:alice', host: '10.0.0.1', path: 'ws.subscription' };
    expect(access.mayRead(reader, 'a')).toBe(true);
    expect(access.mayRead(reader, 'secret')).toBe(false);
    readable.delete('a');
    expect(access.forReader({ ...reader, path: 'rest.poll', requestId: 'r1' })('a')).toBe(false);
    expect(access.mayDescribe(reader, 'secret')).toBe(false);
    expect(asked).toEqual([
      'User:alice@10.0.0.1 READ TOPIC:a',
      'User:alice@10.0.0.1 READ TOPIC:secret',
      'User:alice@10.0.0.1 READ TOPIC:a',
      'User:alice@10.0.0.1 DESCRIBE TOPIC:secret',
    ]);
    expect(lines).toEqual([
      expect.objectContaining({ event: 'authorization.denied', path: 'ws.subscription', resource_name: 'secret' }),
      expect.objectContaining({
        event: 'authorization.denied',
        path: 'rest.poll',
        request_id: 'r1',
        resource_name: 'a',
      }),
    ]);
  });
});
