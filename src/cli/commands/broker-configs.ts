// `brook configs --entity-type brokers`: kafka-configs.sh for broker configs, over REST's brokers/{id}/configs and
// broker-configs. --describe shows a broker's dynamic configs (every config with --all), or with --entity-default
// the cluster-wide ones, or without a name those of every live broker; --alter sets (--add-config) and removes
// (--delete-config) dynamic configs of one broker or, with --entity-default, cluster-wide, in one atomic change.
import { unwrap, type Connection } from '../client.js';
import { writeJson, type CliIo, type OutputFormat } from '../command-context.js';
import { UsageError } from '../errors.js';
import { kafkaEntityConfigDescription } from '../kafka-output.js';
import type { ConfigEntry } from '../options.js';
import { formatTable } from '../table.js';

/** One broker (by id) or the cluster-wide defaults. */
export type BrokerEntity = { brokerId: number } | 'default';

interface BrokerConfig {
  name: string;
  value?: string | null;
  source: string;
  is_default: boolean;
  is_read_only: boolean;
  is_sensitive: boolean;
  synonyms: Array<{ name: string; value?: string | null; source: string }>;
}

export function brokerEntity(name: string | undefined, isDefault: boolean): BrokerEntity | undefined {
  if (isDefault) {
    if (name !== undefined) throw new UsageError('give --entity-name or --entity-default, not both');
    return 'default';
  }
  if (name === undefined) return undefined;
  if (!/^\d{1,10}$/.test(name)) throw new UsageError(`--entity-name ${name} is not a broker id`);
  return { brokerId: Number(name) };
}

async function configsOf(connection: Connection, entity: BrokerEntity): Promise<BrokerConfig[]> {
  const { api, clusterId } = connection;
  const list =
    entity === 'default'
      ? unwrap(
          await api.GET('/v3/clusters/{cluster_id}/broker-configs', { params: { path: { cluster_id: clusterId } } }),
        )
      : unwrap(
          await api.GET('/v3/clusters/{cluster_id}/brokers/{broker_id}/configs', {
            params: { path: { cluster_id: clusterId, broker_id: entity.brokerId } },
          }),
        );
  return list.data as BrokerConfig[];
}

const isDynamic = (config: BrokerConfig) =>
  config.source === 'DYNAMIC_BROKER_CONFIG' || config.source === 'DYNAMIC_DEFAULT_BROKER_CONFIG';

export async function describeBrokerConfigs(
  connection: Connection,
  entity: BrokerEntity | undefined,
  all: boolean,
  output: OutputFormat,
  io: CliIo,
): Promise<void> {
  let entities: BrokerEntity[];
  if (entity !== undefined) entities = [entity];
  else {
    const brokers = unwrap(
      await connection.api.GET('/v3/clusters/{cluster_id}/brokers', {
        params: { path: { cluster_id: connection.clusterId } },
      }),
    );
    entities = ['default', ...brokers.data.map((broker) => ({ brokerId: broker.broker_id }))];
  }
  const described: Array<{ entity: BrokerEntity; configs: BrokerConfig[] }> = [];
  for (const one of entities) {
    const configs = await configsOf(connection, one);
    described.push({ entity: one, configs: configs.filter((config) => all || isDynamic(config)) });
  }
  const label = (one: BrokerEntity) => (one === 'default' ? '<default>' : String(one.brokerId));
  if (output === 'kafka') {
    for (const { entity: one, configs } of described) {
      const title =
        one === 'default'
          ? 'Default configs for brokers in the cluster are:'
          : `${all ? 'All' : 'Dynamic'} configs for broker ${one.brokerId} are:`;
      io.stdout.write(kafkaEntityConfigDescription(title, configs));
    }
    return;
  }
  const rows = described.flatMap(({ entity: one, configs }) =>
    configs.map((config) => ({
      broker: label(one),
      name: config.name,
      value: config.is_sensitive ? null : (config.value ?? null),
      source: config.source,
      is_read_only: config.is_read_only,
    })),
  );
  if (output === 'json') return writeJson(io, rows);
  io.stdout.write(
    formatTable(
      ['BROKER', 'CONFIG', 'VALUE', 'SOURCE'],
      rows.map((row) => [row.broker, row.name, row.value, row.source]),
    ),
  );
}

export async function alterBrokerConfigs(
  connection: Connection,
  entity: BrokerEntity,
  set: ConfigEntry[],
  reset: string[],
  output: OutputFormat,
  io: CliIo,
): Promise<void> {
  const body = {
    data: [
      ...set.map((entry) => ({ ...entry, operation: 'SET' as const })),
      ...reset.map((name) => ({ name, operation: 'DELETE' as const })),
    ],
  };
  const { api, clusterId } = connection;
  if (entity === 'default') {
    unwrap(
      await api.POST('/v3/clusters/{cluster_id}/broker-configs:alter', {
        params: { path: { cluster_id: clusterId } },
        body,
      }),
    );
  } else {
    unwrap(
      await api.POST('/v3/clusters/{cluster_id}/brokers/{broker_id}/configs:alter', {
        params: { path: { cluster_id: clusterId, broker_id: entity.brokerId } },
        body,
      }),
    );
  }
  const name = entity === 'default' ? 'default broker' : `broker ${entity.brokerId}`;
  if (output === 'json') writeJson(io, { broker: entity === 'default' ? '<default>' : entity.brokerId, set, reset });
  else io.stdout.write(`Completed updating config for ${name}.\n`);
}
