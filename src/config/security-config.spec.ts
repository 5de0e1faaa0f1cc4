import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBrokerConfig } from './broker-config.js';

describe('security config', () => {
  it('defaults to no authentication and no authorizer', () => {
    expect(loadBrokerConfig({}).security).toEqual({
      authModes: [],
      usersFile: null,
      authorizerEnable: false,
      superUsers: [],
      tls: null,
      connectionsMax: 10_000,
      streamReauthorizeIntervalMs: 5_000,
    });
  });

  it('reads BROOK_AUTH, BROOK_SUPER_USERS and rejects bad values naming the setting', () => {
    const config = loadBrokerConfig({
      BROOK_AUTH: 'basic, bearer',
      BROOK_AUTH_USERS_FILE: '/etc/brook/users',
      BROOK_SUPER_USERS: 'User:alice; User:bob',
      BROOK_AUTHORIZER_ENABLE: 'true',
    }).security;
    expect(config).toMatchObject({ authModes: ['basic', 'bearer'], superUsers: ['User:alice', 'User:bob'] });
    expect(() => loadBrokerConfig({ BROOK_AUTH: 'kerberos' })).toThrow(/BROOK_AUTH=kerberos/);
    expect(() => loadBrokerConfig({ BROOK_AUTH: 'basic' })).toThrow(/BROOK_AUTH_USERS_FILE/);
    expect(() => loadBrokerConfig({ BROOK_SUPER_USERS: 'alice' })).toThrow(/BROOK_SUPER_USERS/);
    expect(() => loadBrokerConfig({ BROOK_TLS_CERT: '/nonexistent.pem' })).toThrow(/BROOK_TLS_KEY/);
    expect(() => loadBrokerConfig({ BROOK_TLS_CERT: '/nonexistent.pem', BROOK_TLS_KEY: '/x' })).toThrow(
      /BROOK_TLS_CERT=\/nonexistent.pem cannot be read/,
    );
  });

  it('refuses BROOK_TLS_PEER_CA without a certificate of its own, or a file that holds no certificate', () => {
    expect(() => loadBrokerConfig({ BROOK_TLS_PEER_CA: '/etc/brook/ca.crt' })).toThrow(
      /BROOK_TLS_PEER_CA is set without BROOK_TLS_CERT/,
    );
    const pemless = fileURLToPath(import.meta.url);
    expect(() =>
      loadBrokerConfig({ BROOK_TLS_CERT: pemless, BROOK_TLS_KEY: pemless, BROOK_TLS_PEER_CA: pemless }),
    ).toThrow(/BROOK_TLS_CERT=.* contains no PEM certificate/);
  });
});
