import { describe, expect, it } from 'vitest';
import { parsePlainToken } from './sasl-plain.js';

const token = (...parts: string[]) => Buffer.from(parts.join('\0'), 'utf8');

describe('parsePlainToken', () => {
  it('reads the authorization id, user name and password', () => {
    expect(parsePlainToken(token('', 'alice', 'pw'))).toEqual({ authorizationId: '', user: 'alice', password: 'pw' });
    expect(parsePlainToken(token('alice', 'alice', 'pâss'))).toEqual({
      authorizationId: 'alice',
      user: 'alice',
      password: 'pâss',
    });
  });

  it('refuses tokens that are not three fields with a user name and a password', () => {
    for (const bad of [
      token('alice', 'pw'),
      token('', 'alice', 'pw', 'x'),
      token('', '', 'pw'),
      token('', 'alice', ''),
    ]) {
      expect(parsePlainToken(bad)).toBeNull();
    }
    expect(parsePlainToken(Buffer.alloc(0))).toBeNull();
  });
});
