// `brook topics`: kafka-topics.sh against Brook's v3 admin routes. Exactly one action: --create, --list,
// --describe, --alter (more partitions, or topic configs as old Kafka's `--alter --config`) or --delete.
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
import { collect, exactlyOneAction, integerAtLeast, parseConfigEntries, required } from '../options.js';
import { kafkaTopicDescription, kafkaTopicList } from '../kafka-output.js';
import { formatTable } from '../table.js';
import { describeTopic, listTopicNames, listTopics, topicExists, type TopicDescription } from '../topic-api.js';

const ACTIONS = ['create', 'list', 'describe', 'alter', 'delete'] as const;

interface TopicsOptions extends CommonOptions {
  create?: boolean;
  list?: boolean;
  describe?: boolean;
  alter?: boolean;
  delete?: boolean;
  topic?: string;
  partitions?: number;
  replicationFactor?: number;
  config?: string[];
  ifNotExists?: boolean;
  ifExists?: boolean;
  excludeInternal?: boolean;
}

export function registerTopicsCommand(program: Command, io: CliIo): void {
  const command = program
    .command('topics')
    .description('create, list, describe, alter and delete topics (kafka-topics)')
    .option('--create', 'create a topic')
    .option('--list', 'list the topics')
    .option('--describe', 'describe a topic (all topics without --topic): partitions, leaders, replicas, ISR, configs')
    .option('--alter', 'add partitions (--partitions) or set topic configs (--config)')
    .option('--delete', 'delete a topic')
    .option('--topic <name>', 'the topic')
    .option('--partitions <count>', 'partition count (create; alter: the new, larger count)', integerAtLeast(1))
    .option('--replication-factor <count>', 'replicas per partition (create)', integerAtLeast(1))
    .option('--config <name=value>', 'a topic config, repeatable (create, alter)', collect)
    .option('--if-not-exists', 'create: do nothing when the topic already exists')
    .option('--if-exists', 'alter, describe, delete: do nothing when the topic does not exist')
    .option('--exclude-internal', 'list, describe: leave out internal topics such as __consumer_offsets');
  addCommonOptions(command);
  withExamples(command, [
    'brook topics --create --topic test --partitions 1 --replication-factor 1',
    'brook topics --list',
    'brook topics --describe --topic test',
    'brook topics --alter --topic test --partitions 3',
    'brook topics --delete --topic test',
    'brook topics --describe --output json --bootstrap-server localhost:8082',
  ]);
  command.action(async (options: TopicsOptions) => {
    const action = exactlyOneAction(options, ACTIONS);
    if (action !== 'list' && action !== 'describe') required(options.topic, '--topic', `--${action}`);
    if (action === 'alter' && options.partitions === undefined && options.config === undefined) {
      throw new UsageError('--alter needs --partitions or --config');
    }
    parseConfigEntries(options.config ?? []);
    const connection = await connectFrom(options, io.signal);
    await ACTION_HANDLERS[action](connection, options, io);
  });
}

const ACTION_HANDLERS: Record<(typeof ACTIONS)[number], (c: Connection, o: TopicsOptions, io: CliIo) => Promise<void>> =
  {
    create: createTopic,
    list: printTopicList,
    describe: describeTopics,
    alter: alterTopic,
    delete: deleteTopic,
  };

async function createTopic(connection: Connection, options: TopicsOptions, io: CliIo): Promise<void> {
  const topic = options.topic as string;
  if (options.ifNotExists === true && (await topicExists(connection, topic))) return;
  const created = unwrap(
    await connection.api.POST('/v3/clusters/{cluster_id}/topics', {
      params: { path: { cluster_id: connection.clusterId } },
      body: {
        topic_name: topic,
        partitions_count: options.partitions,
        replication_factor: options.replicationFactor,
        configs: parseConfigEntries(options.config ?? []),
      },
    }),
  );
  if (options.output === 'json') writeJson(io, created);
  else io.stdout.write(`Created topic ${created.topic_name}.\n`);
}

async function printTopicList(connection: Connection, options: TopicsOptions, io: CliIo): Promise<void> {
  const rows = (await listTopics(connection))
    .filter((topic) => options.excludeInternal !== true || !topic.is_internal)
    .sort((a, b) => a.topic_name.localeCompare(b.topic_name))
    .map((topic) => ({
      topic_name: topic.topic_name,
      partitions_count: topic.partitions_count,
      replication_factor: topic.replication_factor,
      is_internal: topic.is_internal,
    }));
  if (options.output === 'json') return writeJson(io, rows);
  if (options.output === 'kafka') return void io.stdout.write(kafkaTopicList(rows.map((row) => row.topic_name)));
  io.stdout.write(
    formatTable(
      ['TOPIC', 'PARTITIONS', 'REPLICATION-FACTOR'],
      rows.map((row) => [row.topic_name, row.partitions_count, row.replication_factor]),
    ),
  );
}

async function describeTopics(connection: Connection, options: TopicsOptions, io: CliIo): Promise<void> {
  if (options.topic !== undefined && options.ifExists === true && !(await topicExists(connection, options.topic))) {
    return;
  }
  const names =
    options.topic === undefined
      ? await listTopicNames(connection, { excludeInternal: options.excludeInternal === true })
      : [options.topic];
  const descriptions: TopicDescription[] = [];
  for (const name of names) descriptions.push(await describeTopic(connection, name));
  if (options.output === 'json') {
    return writeJson(io, options.topic === undefined ? descriptions : descriptions[0]);
  }
  if (options.output === 'kafka') return void io.stdout.write(descriptions.map(kafkaTopicDescription).join(''));
  io.stdout.write(descriptions.map(formatTopicDescription).join('\n'));
}

/** `--output table`: Kafka's summary line (tab-separated `Name: value` fields), then a table of the partitions. */
export function formatTopicDescription(topic: TopicDescription): string {
  const configs = Object.entries(topic.configs)
    .map(([name, value]) => `${name}=${value ?? ''}`)
    .join(',');
  const summary = [
    `Topic: ${topic.topic_name}`,
    `PartitionCount: ${topic.partitions_count}`,
    `ReplicationFactor: ${topic.replication_factor}`,
    `Configs: ${configs}`,
  ].join('\t');
  const table = formatTable(
    ['PARTITION', 'LEADER', 'REPLICAS', 'ISR'],
    topic.partitions.map((p) => [p.partition_id, p.leader ?? 'none', p.replicas.join(','), p.isr.join(',')]),
  );
  return `${summary}\n${table}`;
}

async function alterTopic(connection: Connection, options: TopicsOptions, io: CliIo): Promise<void> {
  const topic = options.topic as string;
  if (options.ifExists === true && !(await topicExists(connection, topic))) return;
  const path = { cluster_id: connection.clusterId, topic_name: topic };
  if (options.config !== undefined) {
    unwrap(
      await connection.api.POST('/v3/clusters/{cluster_id}/topics/{topic_name}/configs:alter', {
        params: { path },
        body: { data: parseConfigEntries(options.config).map((entry) => ({ ...entry, operation: 'SET' as const })) },
      }),
    );
    if (options.output !== 'json') io.stdout.write(`Updated configs of topic ${topic}.\n`);
  }
  if (options.partitions !== undefined) {
    const altered = unwrap(
      await connection.api.PATCH('/v3/clusters/{cluster_id}/topics/{topic_name}', {
        params: { path },
        body: { partitions_count: options.partitions },
      }),
    );
    if (options.output !== 'json') io.stdout.write(`Topic ${topic} now has ${altered.partitions_count} partitions.\n`);
  }
  if (options.output === 'json') writeJson(io, await describeTopic(connection, topic));
}

async function deleteTopic(connection: Connection, options: TopicsOptions, io: CliIo): Promise<void> {
  const topic = options.topic as string;
  if (options.ifExists === true && !(await topicExists(connection, topic))) return;
  unwrap(
    await connection.api.DELETE('/v3/clusters/{cluster_id}/topics/{topic_name}', {
      params: { path: { cluster_id: connection.clusterId, topic_name: topic } },
    }),
  );
  if (options.output === 'json') writeJson(io, { deleted: topic });
  else io.stdout.write(`Deleted topic ${topic}.\n`);
}
