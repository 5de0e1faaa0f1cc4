import { describe, expect, it } from 'vitest';
import { loadBrokerConfig } from '../../config/broker-config.js';
import { securityWarnings } from './install-security.js';

describe('security warnings', () => {
  it('warns at start-up when bound beyond loopback without authentication', () => {
    expect(securityWarnings(loadBrokerConfig({}))).toEqual([]);
    expect(securityWarnings(loadBrokerConfig({ BROOK_HOST: '0.0.0.0' }))[0]).toMatch(/without authentication/);
    expect(
      securityWarnings(
        loadBrokerConfig({ BROOK_HOST: '0.0.0.0', BROOK_AUTH: 'bearer', BROOK_AUTH_USERS_FILE: '/etc/brook/users' }),
      ),
    ).toEqual([]);
  });
});
