import * as crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { loadBrokerConfig } from '../config/broker-config.js';
import { PeerAuthenticator } from './peer-auth.js';
import { CLUSTER_SECRET_HEADER } from './peer-client.js';

vi.mock('node:crypto', async (original) => {
  const actual = await original<typeof import('node:crypto')>();
  return { ...actual, createHash: vi.fn(actual.createHash) };
});

const SECRET = 'a-cluster-secret-of-some-length';

function requestOn(socket: object, secret?: string): IncomingMessage {
  return {
    headers: secret === undefined ? {} : { [CLUSTER_SECRET_HEADER]: secret },
    socket,
  } as unknown as IncomingMessage;
}

describe('PeerAuthenticator', () => {
  const config = loadBrokerConfig({ BROOK_REDIS_URL: 'redis://127.0.0.1:1', BROOK_CLUSTER_SECRET: SECRET });

  it('takes the secret and refuses any other, on a connection that presented it before as on a new one', () => {
    const peers = new PeerAuthenticator(config);
    const vouched = {};
    expect(peers.check(requestOn(vouched, SECRET))).toEqual({ ok: true });
    const sameLength = SECRET.slice(0, -1) + (SECRET.endsWith('h') ? 'x' : 'h');
    for (const wrong of [sameLength, SECRET.slice(0, -1), `${SECRET}x`, '', `${'é'.repeat(15)}a`]) {
      expect(peers.check(requestOn(vouched, wrong)).ok).toBe(false);
      expect(peers.check(requestOn({}, wrong)).ok).toBe(false);
    }
    expect(peers.check(requestOn(vouched)).ok).toBe(false);
    expect(peers.check(requestOn(vouched, SECRET))).toEqual({ ok: true });
    expect(peers.check(requestOn({}, SECRET))).toEqual({ ok: true });
  });

  it('hashes a given secret once a connection, not once a request', () => {
    const peers = new PeerAuthenticator(config);
    const createHash = vi.mocked(crypto.createHash);
    createHash.mockClear();
    const connection = {};
    for (let request = 0; request < 5; request++) expect(peers.check(requestOn(connection, SECRET)).ok).toBe(true);
    expect(createHash).toHaveBeenCalledTimes(1);
    expect(peers.check(requestOn({}, SECRET)).ok).toBe(true); // another connection: hashed again
    expect(createHash).toHaveBeenCalledTimes(2);
  });

  it('a broker without a secret takes no request as a peer', () => {
    const none = new PeerAuthenticator(loadBrokerConfig({}));
    expect(none.check(requestOn({}, '')).ok).toBe(false);
    expect(none.check(requestOn({}, SECRET)).ok).toBe(false);
  });
});
