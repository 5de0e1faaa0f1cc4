import { describe, expect, it } from 'vitest';

import { ConfigError, loadBrokerConfig } from './broker-config.js';

const SECRET = 'a-cluster-secret-of-enough-length';

describe('cluster settings', () => {
  it('defaults to one broker without a secret, and to Kafka KRaft timings', () => {
    const config = loadBrokerConfig({});
    expect(config.redisUrl).toBeNull();
    expect(config.clusterSecret).toBeNull();
    expect(config.brokerSessionTimeoutMs).toBe(9_000);
    expect(config.brokerHeartbeatIntervalMs).toBe(2_000);
  });

  it('refuses cluster mode without a cluster secret, naming the setting', () => {
    expect(() => loadBrokerConfig({ BROOK_REDIS_URL: 'redis://localhost:6379' })).toThrow(
      /BROOK_CLUSTER_SECRET is required with BROOK_REDIS_URL/,
    );
    expect(() => loadBrokerConfig({ BROOK_REDIS_URL: 'redis://localhost', BROOK_CLUSTER_SECRET: 'short' })).toThrow(
      /BROOK_CLUSTER_SECRET is too short/,
    );
  });

  it('accepts plain and Sentinel URLs, and refuses others', () => {
    for (const url of ['redis://localhost:6379/1', 'redis+sentinel://s1:26379,s2:26379/mymaster']) {
      expect(loadBrokerConfig({ BROOK_REDIS_URL: url, BROOK_CLUSTER_SECRET: SECRET }).redisUrl).toBe(url);
    }
    expect(() => loadBrokerConfig({ BROOK_REDIS_URL: 'http://x', BROOK_CLUSTER_SECRET: SECRET })).toThrow(ConfigError);
  });

  it('refuses a heartbeat longer than half the session timeout', () => {
    expect(() =>
      loadBrokerConfig({ BROOK_BROKER_SESSION_TIMEOUT_MS: '3000', BROOK_BROKER_HEARTBEAT_INTERVAL_MS: '2000' }),
    ).toThrow(/BROOK_BROKER_HEARTBEAT_INTERVAL_MS=2000 must be at most half/);
  });

  it("defaults replication settings to Kafka's, and names a bad one", () => {
    const config = loadBrokerConfig({});
    expect(config.replicaLagTimeMaxMs).toBe(30_000);
    expect(config.replicaFetchWaitMaxMs).toBe(500);
    expect(config.replicaFetchMaxBytes).toBe(1_048_576);
    expect(config.controlledShutdownEnable).toBe(true);
    expect(config.controlledShutdownMaxRetries).toBe(3);
    expect(config.autoLeaderRebalanceEnable).toBe(true);
    expect(config.leaderImbalanceCheckIntervalMs).toBe(300_000);
    expect(config.leaderImbalancePerBrokerPercentage).toBe(10);
    expect(() => loadBrokerConfig({ BROOK_REPLICA_LAG_TIME_MAX_MS: 'soon' })).toThrow(/BROOK_REPLICA_LAG_TIME_MAX_MS/);
  });
});

describe('schema registry settings', () => {
  it("defaults to Confluent's port on the broker's host, with bounds on what it stores", () => {
    const config = loadBrokerConfig({ BROOK_HOST: '0.0.0.0' });
    expect(config.schemaRegistry).toEqual({
      enabled: true,
      port: 8081,
      host: '0.0.0.0',
      schemaBytesMax: 262_144,
      versionsMax: 100_000,
    });
    expect(loadBrokerConfig({ BROOK_SCHEMA_REGISTRY_ENABLED: 'false' }).schemaRegistry.enabled).toBe(false);
  });

  it('refuses the HTTP port as the registry port, and names a bad value', () => {
    expect(() => loadBrokerConfig({ BROOK_PORT: '9000', BROOK_SCHEMA_REGISTRY_PORT: '9000' })).toThrow(
      /BROOK_SCHEMA_REGISTRY_PORT=9000 is the HTTP port/,
    );
    expect(() => loadBrokerConfig({ BROOK_SCHEMA_REGISTRY_PORT: '0' })).toThrow(/BROOK_SCHEMA_REGISTRY_PORT=0/);
    expect(() => loadBrokerConfig({ BROOK_SCHEMA_REGISTRY_SCHEMA_BYTES_MAX: 'big' })).toThrow(
      /BROOK_SCHEMA_REGISTRY_SCHEMA_BYTES_MAX/,
    );
  });
});
