import { describe, expect, it } from 'vitest';
import { loadBrokerConfig } from './broker-config.js';
import { ConfigError } from './env-values.js';

describe('the Kafka listener settings', () => {
  it('listen on 9092 at BROOK_HOST and advertise the advertised URL host with the Kafka port by default', () => {
    const config = loadBrokerConfig({ BROOK_HOST: '0.0.0.0', BROOK_ADVERTISED_URL: 'https://broker-1.example:8443' });
    expect(config.kafka).toEqual({
      enabled: true,
      port: 9092,
      host: '0.0.0.0',
      advertisedHost: 'broker-1.example',
      advertisedPort: 9092,
      maxConnections: 10_000,
      connectionsMaxIdleMs: 600_000,
      inFlightRequestsMax: 32,
    });
    expect(config.security.connectionsMax).toBe(10_000); // the HTTP listener's own bound, unchanged
  });

  it('take the port, host, advertised listener and bounds from their variables', () => {
    const { kafka } = loadBrokerConfig({
      BROOK_KAFKA_PORT: '19092',
      BROOK_KAFKA_HOST: '10.0.0.5',
      BROOK_KAFKA_ADVERTISED_LISTENER: '[2001:db8::1]:29092',
      BROOK_KAFKA_ENABLED: 'false',
      BROOK_MAX_CONNECTIONS: '50',
      BROOK_CONNECTIONS_MAX_IDLE_MS: '1000',
      BROOK_KAFKA_IN_FLIGHT_REQUESTS_MAX: '5',
    });
    expect(kafka).toEqual({
      enabled: false,
      port: 19092,
      host: '10.0.0.5',
      advertisedHost: '2001:db8::1',
      advertisedPort: 29092,
      maxConnections: 50,
      connectionsMaxIdleMs: 1000,
      inFlightRequestsMax: 5,
    });
    expect(loadBrokerConfig({ BROOK_ADVERTISED_URL: 'http://[::1]:8082' }).kafka.advertisedHost).toBe('::1');
  });

  it('refuse a listener that is not host:port, and ports outside 1-65535, naming the setting', () => {
    for (const listener of ['broker-1', 'PLAINTEXT://broker-1:9092', 'broker-1:0', 'broker-1:70000']) {
      expect(() => loadBrokerConfig({ BROOK_KAFKA_ADVERTISED_LISTENER: listener })).toThrow(
        /BROOK_KAFKA_ADVERTISED_LISTENER/,
      );
    }
    expect(() => loadBrokerConfig({ BROOK_KAFKA_PORT: '0' })).toThrow(ConfigError);
    expect(() => loadBrokerConfig({ BROOK_MAX_CONNECTIONS: 'many' })).toThrow(/BROOK_MAX_CONNECTIONS/);
  });
});
