// `brook configs`: kafka-configs.sh for topics, for broker configs (--entity-type brokers, broker-configs.ts) and
// for users' client quotas (--entity-type users, user-quotas.ts). --describe shows a topic's overrides (every config with --all);
// --alter takes --add-config k=v[,k=v] and --delete-config k[,k] (reset to the default) in one atomic change.
import type { Command } from 'commander';
import { unwrap, type Connection } from '../client.js';
import {
  addCommonOptions,
  connectFrom,
  withExamples,
  writeJson,
  type CliIo,
  type CommonOptions,
} from '../command-context.js';
import { UsageError } from '../errors.js';
import {
  collect,
  exactlyOneAction,
  parseConfigEntries,
  parseConfigNames,
  required,
  type ConfigEntry,
} from '../options.js';
import { kafkaConfigDescription } from '../kafka-output.js';
import { formatTable } from '../table.js';
import { alterBrokerConfigs, brokerEntity, describeBrokerConfigs } from './broker-configs.js';
import { alterQuotas, describeQuotas, mergeQuotas, quotaEntity } from './user-quotas.js';
import { isOverride, listTopicConfigs, listTopicNames } from '../topic-api.js';

const ACTIONS = ['describe', 'alter'] as const;

interface ConfigsOptions extends CommonOptions {
  describe?: boolean;
  alter?: boolean;
  entityType?: string;
  entityName?: string;
  entityDefault?: boolean;
  topic?: string;
  all?: boolean;
  addConfig?: string[];
  deleteConfig?: string[];
}

export function registerConfigsCommand(program: Command, io: CliIo): void {
  const command = program
    .command('configs')
    .description('describe and alter topic configs, broker configs and user quotas (kafka-configs)')
    .option('--describe', "show the entity's config overrides (every config with --all)")
    .option('--alter', 'change configs with --add-config and --delete-config')
    .option('--entity-type <type>', 'what to configure: topics, brokers, or users (client quotas)')
    .option('--entity-name <name>', 'the topic, the broker id, or the user (describe: all when omitted)')
    .option('--entity-default', 'brokers: the cluster-wide configs; users: the default quotas')
    .option('--topic <name>', 'shorthand for --entity-type topics --entity-name <name>')
    .option('--all', 'describe: every config with its value and source, not only overrides')
    .option('--add-config <k=v,...>', "configs to set: k1=v1,k2=[a,b] (Kafka's syntax), repeatable", collect)
    .option('--delete-config <k,...>', 'configs to reset to their defaults, repeatable', collect);
  addCommonOptions(command);
  withExamples(command, [
    'brook configs --entity-type topics --entity-name test --alter --add-config retention.ms=1000',
    'brook configs --entity-type topics --entity-name test --describe',
    'brook configs --entity-type topics --entity-name test --alter --delete-config retention.ms',
    'brook configs --topic test --describe --all --output json',
    'brook configs --entity-type users --entity-name alice --alter --add-config producer_byte_rate=1048576',
    'brook configs --entity-type users --entity-default --alter --add-config consumer_byte_rate=2097152',
    'brook configs --entity-type users --describe',
    'brook configs --entity-type brokers --entity-default --alter --add-config num.partitions=3',
    'brook configs --entity-type brokers --entity-name 1 --describe --all',
  ]);
  command.action(async (options: ConfigsOptions) => {
    const action = exactlyOneAction(options, ACTIONS);
    if (options.entityType === 'users' || options.entityType === 'user') return userQuotas(action, options, io);
    if (options.entityType === 'brokers' || options.entityType === 'broker') return brokers(action, options, io);
    if (options.entityDefault === true) throw new UsageError('--entity-default is for --entity-type brokers or users');
    const topic = entityName(options);
    if (action === 'describe') return describeConfigs(await connectFrom(options, io.signal), topic, options, io);
    const changes = configChanges(required(topic, '--entity-name', '--alter'), options);
    await alterConfigs(await connectFrom(options, io.signal), changes, options, io);
  });
}

/** --entity-type users: client quotas (user-quotas.ts). */
async function userQuotas(action: (typeof ACTIONS)[number], options: ConfigsOptions, io: CliIo): Promise<void> {
  if (options.topic !== undefined) throw new UsageError('--topic is for --entity-type topics');
  const entity = quotaEntity(options.entityName, options.entityDefault === true);
  if (action === 'describe') return describeQuotas(await connectFrom(options, io.signal), entity, options.output, io);
  const target = required(entity, '--entity-name or --entity-default', '--alter');
  const set = parseConfigEntries(options.addConfig ?? []);
  const reset = parseConfigNames(options.deleteConfig ?? []);
  if (set.length === 0 && reset.length === 0) throw new UsageError('--alter needs --add-config or --delete-config');
  mergeQuotas({ producer_byte_rate: null, consumer_byte_rate: null, request_rate: null }, set, reset); // usage first
  await alterQuotas(await connectFrom(options, io.signal), target, set, reset, options.output, io);
}

/** --entity-type brokers: broker configs (broker-configs.ts). */
async function brokers(action: (typeof ACTIONS)[number], options: ConfigsOptions, io: CliIo): Promise<void> {
  if (options.topic !== undefined) throw new UsageError('--topic is for --entity-type topics');
  const entity = brokerEntity(options.entityName, options.entityDefault === true);
  if (action === 'describe') {
    const connection = await connectFrom(options, io.signal);
    return describeBrokerConfigs(connection, entity, options.all === true, options.output, io);
  }
  const target = required(entity, '--entity-name or --entity-default', '--alter');
  const { set, reset } = configChanges('', options);
  await alterBrokerConfigs(await connectFrom(options, io.signal), target, set, reset, options.output, io);
}

function entityName(options: ConfigsOptions): string | undefined {
  if (options.topic !== undefined) {
    if (options.entityName !== undefined) throw new UsageError('give --topic or --entity-name, not both');
    return options.topic;
  }
  const type = required(options.entityType, '--entity-type topics', 'configs');
  if (type !== 'topics' && type !== 'topic') {
    throw new UsageError(
      `--entity-type ${type} is not supported: use --entity-type topics, brokers or users (client quotas)`,
    );
  }
  return options.entityName;
}

async function describeConfigs(
  connection: Connection,
  topic: string | undefined,
  options: ConfigsOptions,
  io: CliIo,
): Promise<void> {
  const topics = topic === undefined ? await listTopicNames(connection) : [topic];
  if (options.output === 'kafka') {
    for (const name of topics) {
      const configs = (await listTopicConfigs(connection, name)).filter((c) => options.all === true || isOverride(c));
      io.stdout.write(kafkaConfigDescription(name, options.all === true, configs));
    }
    return;
  }
  const rows: Array<{ topic_name: string; name: string; value: string | null; source: string; is_default: boolean }> =
    [];
  for (const name of topics) {
    for (const config of await listTopicConfigs(connection, name)) {
      if (options.all !== true && !isOverride(config)) continue;
      rows.push({
        topic_name: name,
        name: config.name,
        value: config.is_sensitive ? null : (config.value ?? null),
        source: config.source,
        is_default: config.is_default,
      });
    }
  }
  if (options.output === 'json') return writeJson(io, rows);
  io.stdout.write(
    formatTable(
      ['TOPIC', 'CONFIG', 'VALUE', 'SOURCE'],
      rows.map((row) => [row.topic_name, row.name, row.value, row.source]),
    ),
  );
}

interface ConfigChanges {
  topic: string;
  set: ConfigEntry[];
  reset: string[];
}

function configChanges(topic: string, options: ConfigsOptions): ConfigChanges {
  const set = parseConfigEntries(options.addConfig ?? []);
  const reset = parseConfigNames(options.deleteConfig ?? []);
  if (set.length === 0 && reset.length === 0) throw new UsageError('--alter needs --add-config or --delete-config');
  const both = set.find((entry) => reset.includes(entry.name));
  if (both !== undefined) throw new UsageError(`config ${both.name} is both added and deleted`);
  return { topic, set, reset };
}

async function alterConfigs(
  connection: Connection,
  { topic, set, reset }: ConfigChanges,
  options: ConfigsOptions,
  io: CliIo,
): Promise<void> {
  unwrap(
    await connection.api.POST('/v3/clusters/{cluster_id}/topics/{topic_name}/configs:alter', {
      params: { path: { cluster_id: connection.clusterId, topic_name: topic } },
      body: {
        data: [
          ...set.map((entry) => ({ ...entry, operation: 'SET' as const })),
          ...reset.map((name) => ({ name, operation: 'DELETE' as const })),
        ],
      },
    }),
  );
  if (options.output === 'json') writeJson(io, { topic_name: topic, set, reset });
  else io.stdout.write(`Completed updating config for topic ${topic}.\n`);
}
