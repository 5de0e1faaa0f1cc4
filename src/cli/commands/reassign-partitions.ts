// `brook reassign-partitions`: kafka-reassign-partitions.sh against Brook's reassignment routes. Exactly one
// action: --generate (propose an assignment of --topics-to-move-json-file over --broker-list), --execute (start the
// reassignment of --reassignment-json-file, printing the current assignment first, for a rollback), --verify
// (per partition: completed, still in progress, or neither), --cancel (the partitions of the file still in
// progress go back to their original replicas) or --list (every reassignment in progress).
//
// --verify exits 0 when every partition is at its target, 5 while any is still in progress (Kafka's tool prints
// the same lines and exits 0; a script can loop on Brook's code), and 1 when a partition has neither its target nor
// a reassignment in progress (it was cancelled, or another reassignment replaced it).
import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { unwrap, type Connection } from '../client.js';
import {
  addCommonOptions,
  connectFrom,
  withExamples,
  writeJson,
  type CliIo,
  type CommonOptions,
} from '../command-context.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import { exactlyOneAction, required } from '../options.js';
import {
  formatReassignmentJson,
  parseBrokerList,
  parseReassignmentJson,
  parseTopicsToMoveJson,
  proposeAssignment,
  verify,
  verifyLine,
  type PartitionAssignment,
} from '../reassignment-plan.js';
import { kafkaCancelled, kafkaReassignmentList } from '../kafka-output.js';
import { formatTable } from '../table.js';
import { describeTopic } from '../topic-api.js';

const ACTIONS = ['generate', 'execute', 'verify', 'cancel', 'list'] as const;

interface ReassignOptions extends CommonOptions {
  generate?: boolean;
  execute?: boolean;
  verify?: boolean;
  cancel?: boolean;
  list?: boolean;
  reassignmentJsonFile?: string;
  topicsToMoveJsonFile?: string;
  brokerList?: string;
}

export function registerReassignPartitionsCommand(program: Command, io: CliIo): void {
  const command = program
    .command('reassign-partitions')
    .description('move partition replicas between brokers (kafka-reassign-partitions)')
    .option('--generate', 'propose an assignment of the topics of --topics-to-move-json-file over --broker-list')
    .option('--execute', 'start the reassignment of --reassignment-json-file')
    .option('--verify', 'show, per partition of --reassignment-json-file, whether its reassignment is complete')
    .option('--cancel', 'cancel the reassignments of --reassignment-json-file still in progress')
    .option('--list', 'list the reassignments in progress')
    .option('--reassignment-json-file <file>', "the reassignment, in Kafka's format (execute, verify, cancel)")
    .option(
      '--topics-to-move-json-file <file>',
      'the topics to move: {"version":1,"topics":[{"topic":"t"}]} (generate)',
    )
    .option('--broker-list <ids>', 'the brokers to move them to, such as 1,2,3 (generate)');
  addCommonOptions(command);
  withExamples(command, [
    'brook reassign-partitions --generate --topics-to-move-json-file topics.json --broker-list 2,3,4',
    'brook reassign-partitions --execute --reassignment-json-file plan.json',
    'brook reassign-partitions --verify --reassignment-json-file plan.json',
    'brook reassign-partitions --cancel --reassignment-json-file plan.json',
    'brook reassign-partitions --list --output json',
  ]);
  command.addHelpText(
    'after',
    'plan.json: {"version":1,"partitions":[{"topic":"orders","partition":0,"replicas":[2,3,4]}]}\n' +
      '--verify exits 0 when every partition is at its target, 5 while one is still in progress, 1 when one has\n' +
      'neither its target nor a reassignment running.\n',
  );
  command.action(async (options: ReassignOptions) => {
    const action = exactlyOneAction(options, ACTIONS);
    if (action === 'generate') {
      required(options.topicsToMoveJsonFile, '--topics-to-move-json-file', '--generate');
      required(options.brokerList, '--broker-list', '--generate');
    } else if (action !== 'list') {
      required(options.reassignmentJsonFile, '--reassignment-json-file', `--${action}`);
    }
    const plan =
      options.reassignmentJsonFile === undefined || action === 'list' || action === 'generate'
        ? []
        : parseReassignmentJson(await readJsonFile(options.reassignmentJsonFile), options.reassignmentJsonFile);
    const connection = await connectFrom(options, io.signal);
    await ACTION_HANDLERS[action](connection, options, plan, io);
  });
}

type Handler = (c: Connection, o: ReassignOptions, plan: PartitionAssignment[], io: CliIo) => Promise<void>;

const ACTION_HANDLERS: Record<(typeof ACTIONS)[number], Handler> = {
  generate: generate,
  execute: execute,
  verify: verifyPlan,
  cancel: cancel,
  list: list,
};

async function readJsonFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** The current replicas of every partition of the given topics (404 from the broker for an unknown topic). */
async function currentAssignment(connection: Connection, topics: Iterable<string>): Promise<PartitionAssignment[]> {
  const current: PartitionAssignment[] = [];
  for (const topic of new Set(topics)) {
    const description = await describeTopic(connection, topic);
    for (const partition of description.partitions) {
      current.push({ topic, partition: partition.partition_id, replicas: partition.replicas });
    }
  }
  return current;
}

async function inProgress({ api, clusterId }: Connection) {
  const listed = unwrap(
    await api.GET('/v3/clusters/{cluster_id}/topics/-/partitions/-/reassignment', {
      params: { path: { cluster_id: clusterId } },
    }),
  );
  return listed.data;
}

async function generate(connection: Connection, options: ReassignOptions, _: PartitionAssignment[], io: CliIo) {
  const file = options.topicsToMoveJsonFile as string;
  const topics = parseTopicsToMoveJson(await readJsonFile(file), file);
  const brokers = parseBrokerList(options.brokerList as string);
  const current = await currentAssignment(connection, topics);
  const proposed = proposeAssignment(current, brokers);
  if (options.output === 'json') return writeJson(io, { current: toKafka(current), proposed: toKafka(proposed) });
  io.stdout.write(
    `Current partition replica assignment\n${formatReassignmentJson(current)}\n\n` +
      `Proposed partition reassignment configuration\n${formatReassignmentJson(proposed)}\n`,
  );
}

async function execute(connection: Connection, options: ReassignOptions, plan: PartitionAssignment[], io: CliIo) {
  const wanted = new Set(plan.map((entry) => `${entry.topic}-${entry.partition}`));
  const current = (
    await currentAssignment(
      connection,
      plan.map((entry) => entry.topic),
    )
  ).filter((entry) => wanted.has(`${entry.topic}-${entry.partition}`));
  const started = unwrap(
    await connection.api.POST('/v3/clusters/{cluster_id}/topics/-/partitions/-/reassignment', {
      params: { path: { cluster_id: connection.clusterId } },
      body: {
        partitions: plan.map((entry) => ({
          topic_name: entry.topic,
          partition_id: entry.partition,
          replicas: entry.replicas,
        })),
      },
    }),
  );
  if (options.output === 'json') return writeJson(io, { current: toKafka(current), started: started.data });
  io.stdout.write(
    `Current partition replica assignment\n\n${formatReassignmentJson(current)}\n\n` +
      'Save this to use as the --reassignment-json-file option during rollback\n' +
      `Successfully started partition reassignments for ${[...wanted].join(',')}\n`,
  );
}

async function verifyPlan(connection: Connection, options: ReassignOptions, plan: PartitionAssignment[], io: CliIo) {
  const running = new Set((await inProgress(connection)).map((r) => `${r.topic_name}-${r.partition_id}`));
  const current = await currentAssignment(
    connection,
    plan.map((entry) => entry.topic),
  );
  const replicasOf = (topic: string, partition: number) =>
    current.find((entry) => entry.topic === topic && entry.partition === partition)?.replicas ?? [];
  const results = verify(plan, running, replicasOf);
  if (options.output === 'json') writeJson(io, results);
  else io.stdout.write(`Status of partition reassignment:\n${results.map(verifyLine).join('\n')}\n`);
  if (results.some((result) => result.status === 'mismatch')) {
    throw new CliError(
      'some partitions have neither their target replicas nor a reassignment in progress',
      EXIT.brokerError,
    );
  }
  if (results.some((result) => result.status === 'in_progress')) {
    throw new CliError('some reassignments are still in progress', EXIT.inProgress);
  }
}

async function cancel(connection: Connection, options: ReassignOptions, plan: PartitionAssignment[], io: CliIo) {
  const running = new Set((await inProgress(connection)).map((r) => `${r.topic_name}-${r.partition_id}`));
  const active = plan.filter((entry) => running.has(`${entry.topic}-${entry.partition}`));
  if (active.length > 0) {
    unwrap(
      await connection.api.POST('/v3/clusters/{cluster_id}/topics/-/partitions/-/reassignment', {
        params: { path: { cluster_id: connection.clusterId } },
        body: {
          partitions: active.map((entry) => ({
            topic_name: entry.topic,
            partition_id: entry.partition,
            replicas: null,
          })),
        },
      }),
    );
  }
  const names = active.map((entry) => `${entry.topic}-${entry.partition}`);
  if (options.output === 'json') return writeJson(io, { cancelled: names });
  io.stdout.write(kafkaCancelled(names));
}

async function list(connection: Connection, options: ReassignOptions, _: PartitionAssignment[], io: CliIo) {
  const running = await inProgress(connection);
  const rows = running.map((r) => ({
    topic: r.topic_name,
    partition: r.partition_id,
    target_replicas: r.target_replicas ?? [],
    adding_replicas: r.adding_replicas,
    removing_replicas: r.removing_replicas,
  }));
  if (options.output === 'json') return writeJson(io, rows);
  if (options.output === 'kafka' || rows.length === 0) {
    const listed = rows.map(({ topic, partition, target_replicas, adding_replicas, removing_replicas }) => ({
      topic,
      partition,
      target: target_replicas,
      adding: adding_replicas,
      removing: removing_replicas,
    }));
    return void io.stdout.write(kafkaReassignmentList(listed));
  }
  io.stdout.write(
    formatTable(
      ['TOPIC', 'PARTITION', 'TARGET', 'ADDING', 'REMOVING'],
      rows.map((row) => [
        row.topic,
        row.partition,
        row.target_replicas.join(','),
        row.adding_replicas.join(','),
        row.removing_replicas.join(','),
      ]),
    ),
  );
}

function toKafka(partitions: readonly PartitionAssignment[]) {
  return JSON.parse(formatReassignmentJson(partitions)) as unknown;
}
