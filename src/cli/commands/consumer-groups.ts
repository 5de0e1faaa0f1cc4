// `brook consumer-groups`: kafka-consumer-groups.sh against the v3 consumer-group routes: --list, --describe
// (lag per partition), --reset-offsets (Brook's `offsets:reset`, a dry run unless --execute) and --delete.
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
import {
  formatLagTable,
  formatResetTable,
  resetRequest,
  type ResetFlags,
  type ResetRequest,
} from '../consumer-group-plan.js';
import {
  kafkaGroupDescription,
  kafkaGroupList,
  kafkaGroupState,
  kafkaGroupStates,
  KAFKA_GROUP_STATES,
  kafkaResetPlan,
} from '../kafka-output.js';
import { UsageError } from '../errors.js';
import { collect, exactlyOneAction, integerAtLeast, required } from '../options.js';
import { formatTable } from '../table.js';

const ACTIONS = ['list', 'describe', 'resetOffsets', 'delete'] as const;

interface ConsumerGroupsOptions extends CommonOptions, ResetFlags {
  list?: boolean;
  /** --list --state [states]: true without a value. */
  state?: string | boolean;
  describe?: boolean;
  resetOffsets?: boolean;
  delete?: boolean;
  group?: string;
}

export function registerConsumerGroupsCommand(program: Command, io: CliIo): void {
  const command = program
    .command('consumer-groups')
    .description('list, describe (with lag), reset offsets of and delete consumer groups (kafka-consumer-groups)')
    .option('--list', 'list the consumer groups')
    .option('--state [states]', "list: show each group's state; only groups in these states (Stable,Empty,...)")
    .option('--describe', "a group's state, and per partition its committed offset, log-end offset, lag and owner")
    .option('--reset-offsets', "move a group's committed offsets (the group must have no members)")
    .option('--delete', 'delete a consumer group (it must have no members)')
    .option('--group <id>', 'the consumer group')
    .option('--topic <topic[:partitions]>', 'reset: the topic, optionally some partitions (t:0,1); repeatable', collect)
    .option('--all-topics', 'reset: every topic the group has offsets for')
    .option('--to-earliest', 'reset to the earliest offset')
    .option('--to-latest', 'reset to the latest offset')
    .option('--to-offset <offset>', 'reset to this offset', integerAtLeast(0))
    .option('--to-datetime <iso-8601>', 'reset to the first offset at or after this time (YYYY-MM-DDTHH:mm:SS.sss)')
    .option('--dry-run', 'reset: only show the new offsets (the default)')
    .option('--execute', 'reset: apply the new offsets');
  addCommonOptions(command);
  withExamples(command, [
    'brook consumer-groups --list',
    'brook consumer-groups --list --state stable,empty',
    'brook consumer-groups --describe --group my-group',
    'brook consumer-groups --reset-offsets --group my-group --topic test --to-earliest --dry-run',
    'brook consumer-groups --reset-offsets --group my-group --topic test:0 --to-offset 10 --execute',
    'brook consumer-groups --reset-offsets --group my-group --all-topics --to-datetime 2026-11-29T12:00:00.000 --execute',
    'brook consumer-groups --delete --group my-group',
  ]);
  command.action(async (options: ConsumerGroupsOptions) => {
    const action = exactlyOneAction(options, ACTIONS);
    if (options.state !== undefined && action !== 'list') throw new UsageError('--state is for --list');
    if (action === 'list') return listGroups(await connectFrom(options, io.signal), options, io);
    const group = required(options.group, '--group', action === 'resetOffsets' ? '--reset-offsets' : `--${action}`);
    if (action === 'describe') return describeGroup(await connectFrom(options, io.signal), group, options, io);
    if (action === 'delete') return deleteGroup(await connectFrom(options, io.signal), group, options, io);
    const { request, dryRunByDefault } = resetRequest(options);
    const connection = await connectFrom(options, io.signal);
    if (dryRunByDefault) {
      io.stderr.write('WARN: No action will be performed as the --execute option is missing. Showing the plan only.\n');
    }
    await resetOffsets(connection, group, request, options, io);
  });
}

function groupPath({ clusterId }: Connection, group: string) {
  return { cluster_id: clusterId, consumer_group_id: group };
}

async function listGroups(connection: Connection, options: ConsumerGroupsOptions, io: CliIo): Promise<void> {
  const groups = unwrap(
    await connection.api.GET('/v3/clusters/{cluster_id}/consumer-groups', {
      params: { path: { cluster_id: connection.clusterId } },
    }),
  );
  const states = stateFilter(options.state);
  const rows = groups.data
    .filter((group) => states === null || states.has(kafkaGroupState(group.state).toLowerCase()))
    .map((group) => ({
      consumer_group_id: group.consumer_group_id,
      state: group.state,
      partition_assignor: group.partition_assignor,
    }));
  if (options.output === 'json') return writeJson(io, rows);
  if (options.output === 'kafka') {
    return void io.stdout.write(
      options.state === undefined
        ? kafkaGroupList(rows.map((row) => row.consumer_group_id))
        : kafkaGroupStates(rows.map((row) => ({ group: row.consumer_group_id, state: row.state }))),
    );
  }
  io.stdout.write(
    formatTable(
      ['GROUP', 'STATE', 'ASSIGNOR'],
      rows.map((row) => [row.consumer_group_id, row.state, row.partition_assignor]),
    ),
  );
}

async function describeGroup(
  connection: Connection,
  group: string,
  options: ConsumerGroupsOptions,
  io: CliIo,
): Promise<void> {
  const path = groupPath(connection, group);
  const described = unwrap(
    await connection.api.GET('/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}', { params: { path } }),
  );
  const lags = unwrap(
    await connection.api.GET('/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/lags', {
      params: { path },
    }),
  );
  if (options.output === 'json') {
    return writeJson(io, { consumer_group_id: group, state: described.state, lags: lags.data });
  }
  if (options.output === 'kafka') {
    const { stdout, stderr } = kafkaGroupDescription(group, described.state, lags.data);
    io.stderr.write(stderr);
    return void io.stdout.write(stdout);
  }
  if (described.state === 'EMPTY') io.stdout.write(`Consumer group '${group}' has no active members.\n\n`);
  else io.stdout.write(`Consumer group '${group}' is ${described.state}.\n\n`);
  io.stdout.write(formatLagTable(lags.data));
}

async function resetOffsets(
  connection: Connection,
  group: string,
  request: ResetRequest,
  options: ConsumerGroupsOptions,
  io: CliIo,
): Promise<void> {
  const plan = unwrap(
    await connection.api.POST('/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}/offsets:reset', {
      params: { path: groupPath(connection, group) },
      body: request,
    }),
  );
  const rows = plan.data.map((row) => ({ ...row, current_offset: row.current_offset < 0 ? null : row.current_offset }));
  if (options.output === 'json')
    return writeJson(io, { consumer_group_id: group, dry_run: request.dry_run, data: rows });
  if (options.output === 'kafka') return void io.stdout.write(kafkaResetPlan(group, rows));
  io.stdout.write(formatResetTable(group, rows));
}

async function deleteGroup(
  connection: Connection,
  group: string,
  options: ConsumerGroupsOptions,
  io: CliIo,
): Promise<void> {
  unwrap(
    await connection.api.DELETE('/v3/clusters/{cluster_id}/consumer-groups/{consumer_group_id}', {
      params: { path: groupPath(connection, group) },
    }),
  );
  if (options.output === 'json') writeJson(io, { deleted: group });
  else io.stdout.write(`Deletion of requested consumer groups ('${group}') was successful.\n`);
}

/** `--state stable,empty`: the states asked for, lower case (null: every state); Kafka's names, any case. */
function stateFilter(value: string | boolean | undefined): Set<string> | null {
  if (typeof value !== 'string') return null;
  const known = Object.values(KAFKA_GROUP_STATES).map((state) => state.toLowerCase());
  const states = value.split(',').map((state) => state.trim().toLowerCase());
  const unknown = states.find((state) => !known.includes(state));
  if (unknown !== undefined) {
    throw new UsageError(
      `--state ${unknown} is not a group state: one of ${Object.values(KAFKA_GROUP_STATES).join(', ')}`,
    );
  }
  return new Set(states);
}
