// `brook configs --entity-type users`: kafka-configs.sh for client quotas, through the client-quotas routes.
// --describe [--entity-name alice | --entity-default] lists the quotas set; --alter --add-config
// producer_byte_rate=1048576,consumer_byte_rate=2097152,request_rate=100 and --delete-config k sets and removes
// them, merged with what the entity already has (the route replaces an entity's quotas as a whole). An entity name
// is the user's name (`alice`, as kafka-configs takes it) or a whole principal (`User:alice`).
import { unwrap, type Connection } from '../client.js';
import { type CliIo, writeJson } from '../command-context.js';
import { UsageError } from '../errors.js';
import type { ConfigEntry } from '../options.js';
import { kafkaQuotaDescription } from '../kafka-output.js';
import { formatTable } from '../table.js';

export const QUOTA_NAMES = ['producer_byte_rate', 'consumer_byte_rate', 'request_rate'] as const;
type QuotaName = (typeof QUOTA_NAMES)[number];
type Quotas = Record<QuotaName, number | null>;
const DEFAULT_ENTITY = '<default>';

/** `alice` or `User:alice` -> `User:alice`; the default entity when `isDefault`. */
export function quotaEntity(name: string | undefined, isDefault: boolean): string | undefined {
  if (isDefault) {
    if (name !== undefined) throw new UsageError('give --entity-name or --entity-default, not both');
    return DEFAULT_ENTITY;
  }
  if (name === undefined) return undefined;
  if (name.trim() === '') throw new UsageError('--entity-name must not be empty');
  return name.includes(':') ? name : `User:${name}`;
}

/** The entity's quotas after setting `set` and removing `reset`; usage errors for unknown names or bad values. */
export function mergeQuotas(current: Quotas, set: readonly ConfigEntry[], reset: readonly string[]): Quotas {
  const next: Quotas = {
    producer_byte_rate: current.producer_byte_rate,
    consumer_byte_rate: current.consumer_byte_rate,
    request_rate: current.request_rate,
  };
  for (const name of reset) next[quotaName(name)] = null;
  for (const { name, value } of set) {
    const rate = Number(value);
    if (value.trim() === '' || !Number.isFinite(rate) || rate <= 0) {
      throw new UsageError(`${name} must be a positive number of ${name === 'request_rate' ? 'requests' : 'bytes'}/s`);
    }
    next[quotaName(name)] = rate;
  }
  return next;
}

function quotaName(name: string): QuotaName {
  if ((QUOTA_NAMES as readonly string[]).includes(name)) return name as QuotaName;
  throw new UsageError(`unknown quota ${name}: Brook's user quotas are ${QUOTA_NAMES.join(', ')}`);
}

export async function describeQuotas(
  connection: Connection,
  entity: string | undefined,
  output: string | undefined,
  io: CliIo,
): Promise<void> {
  const path = { cluster_id: connection.clusterId };
  const rows =
    entity === undefined
      ? unwrap(await connection.api.GET('/v3/clusters/{cluster_id}/client-quotas', { params: { path } })).data
      : [(await currentQuotas(connection, entity)) ?? emptyQuotas(entity)];
  const plain = rows.map((row) => ({
    entity: row.entity,
    producer_byte_rate: row.producer_byte_rate,
    consumer_byte_rate: row.consumer_byte_rate,
    request_rate: row.request_rate,
  }));
  if (output === 'json') return writeJson(io, plain);
  if (output === 'kafka') {
    for (const { entity: name, ...quotas } of plain) {
      io.stdout.write(kafkaQuotaDescription(name.replace(/^User:/, ''), quotas));
    }
    return;
  }
  io.stdout.write(
    formatTable(
      ['ENTITY', ...QUOTA_NAMES.map((name) => name.toUpperCase())],
      plain.map((row) => [row.entity, ...QUOTA_NAMES.map((name) => (row[name] === null ? '-' : String(row[name])))]),
    ),
  );
}

export async function alterQuotas(
  connection: Connection,
  entity: string,
  set: readonly ConfigEntry[],
  reset: readonly string[],
  output: string | undefined,
  io: CliIo,
): Promise<void> {
  const current = (await currentQuotas(connection, entity)) ?? emptyQuotas(entity);
  const next = mergeQuotas(current, set, reset);
  const stored = unwrap(
    await connection.api.PUT('/v3/clusters/{cluster_id}/client-quotas/{entity}', {
      params: { path: { cluster_id: connection.clusterId, entity } },
      body: next,
    }),
  );
  if (output === 'json') return writeJson(io, stored);
  io.stdout.write(`Completed updating config for user ${entity}.\n`);
}

/** The entity's quotas, or null when none are set (the route's 404). */
async function currentQuotas(connection: Connection, entity: string): Promise<(Quotas & { entity: string }) | null> {
  const result = await connection.api.GET('/v3/clusters/{cluster_id}/client-quotas/{entity}', {
    params: { path: { cluster_id: connection.clusterId, entity } },
  });
  if (result.response.status === 404) return null; // the cluster was checked at connect: no quotas set
  return unwrap(result);
}

function emptyQuotas(entity: string): Quotas & { entity: string } {
  return { entity, producer_byte_rate: null, consumer_byte_rate: null, request_rate: null };
}
