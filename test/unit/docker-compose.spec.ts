// docker-compose.yml cannot run here, so this checks what can be checked without Docker: it parses, runs Redis
// with AOF and three brokers from the repo's Dockerfile, names only settings that the broker accepts and the
// README documents, and gives each broker the cluster settings it needs.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadBrokerConfig } from '../../src/config/broker-config.js';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

interface Service {
  build?: string;
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, unknown>;
}

const compose = parse(readFileSync(root('docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const readme = readFileSync(root('README.md'), 'utf8');
const brokers = Object.entries(compose.services).filter(([name]) => name.startsWith('broker-'));

describe('docker-compose.yml', () => {
  it('runs Redis with AOF and three brokers built from the Dockerfile', () => {
    const redis = compose.services.redis;
    expect(redis.command?.join(' ')).toMatch(/--appendonly yes/);
    expect(brokers.map(([name]) => name)).toEqual(['broker-1', 'broker-2', 'broker-3']);
    expect(existsSync(root('Dockerfile'))).toBe(true);
    for (const [, service] of brokers) {
      expect(service.build).toBe('.');
      expect(service.depends_on).toHaveProperty('redis');
    }
  });

  it('gives every broker its own id and the same Redis URL and secret', () => {
    const environments = brokers.map(([, service]) => service.environment ?? {});
    expect(new Set(environments.map((env) => env.BROOK_BROKER_ID)).size).toBe(3);
    expect(new Set(environments.map((env) => env.BROOK_ADVERTISED_URL)).size).toBe(3);
    for (const env of environments) {
      expect(env.BROOK_REDIS_URL).toBe('redis://redis:6379');
      expect(env.BROOK_CLUSTER_SECRET).toMatch(/^\$\{BROOK_CLUSTER_SECRET:\?/);
    }
  });

  it('names only settings the broker accepts and the README documents', () => {
    for (const [, service] of brokers) {
      const env = { ...service.environment, BROOK_CLUSTER_SECRET: 'a-secret-of-enough-length' };
      expect(() => loadBrokerConfig(env)).not.toThrow();
      for (const name of Object.keys(env)) expect(readme, `README names ${name}`).toContain(`\`${name}\``);
    }
    expect(readme).toContain('appendonly yes');
    expect(readme).toContain('docker compose up');
  });
});
