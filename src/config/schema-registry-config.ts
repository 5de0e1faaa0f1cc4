// Settings of the built-in schema registry: served at the root paths of the HTTP port and on a listener of its own
// (Confluent's registry port, 8081, so that clients configured with a separate registry URL work unchanged), and
// the bounds on what it stores.
import { boolean, integer, type Env } from './env-values.js';

export interface SchemaRegistryConfig {
  /** BROOK_SCHEMA_REGISTRY_ENABLED: serve the registry's routes (and its listener). */
  enabled: boolean;
  /** BROOK_SCHEMA_REGISTRY_PORT: the registry's own listener, on BROOK_SCHEMA_REGISTRY_HOST (BROOK_HOST). */
  port: number;
  host: string;
  /** BROOK_SCHEMA_REGISTRY_SCHEMA_BYTES_MAX: the largest schema text accepted (42209 above). */
  schemaBytesMax: number;
  /** BROOK_SCHEMA_REGISTRY_VERSIONS_MAX: schema versions the registry holds, over all subjects (42205 beyond). */
  versionsMax: number;
}

export const SCHEMA_REGISTRY_PORT_DEFAULT = 8081;

export function loadSchemaRegistryConfig(env: Env, host: string): SchemaRegistryConfig {
  return {
    enabled: boolean(env, 'BROOK_SCHEMA_REGISTRY_ENABLED', true),
    port: integer(env, 'BROOK_SCHEMA_REGISTRY_PORT', SCHEMA_REGISTRY_PORT_DEFAULT, 1, 65535),
    host: env.BROOK_SCHEMA_REGISTRY_HOST?.trim() || host,
    schemaBytesMax: integer(env, 'BROOK_SCHEMA_REGISTRY_SCHEMA_BYTES_MAX', 256 * 1024, 1024, 16 * 1024 * 1024),
    versionsMax: integer(env, 'BROOK_SCHEMA_REGISTRY_VERSIONS_MAX', 100_000, 1, 10_000_000),
  };
}
