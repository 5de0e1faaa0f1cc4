// `brook consumer-groups`: kafka-consumer-groups.sh against the v3 consumer-group routes: --list, --describe
// (lag per partition), --reset-offsets (Brook's `offsets:reset`, a dry run unless --execute) and --delete.
import type { Command } from 'commander';
import { addCommonOptions, withExamples, type CliIo, type CommonOptions } from '../command-context.js';
import { resetRequest, type ResetFlags } from '../consumer-group-plan.js';
import { UsageError } from '../errors.js';
import { collect, exactlyOneAction, integerAtLeast, required } from '../options.js';

const ACTIONS = ['list', 'describe', 'resetOffsets', 'delete'] as const;

interface ConsumerGroupsOptions extends CommonOptions, ResetFlags {
  list?: boolean;
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
    .option('--describe', "a group's committed offset, log-end offset and lag per partition, and its members")
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
    'brook consumer-groups --describe --group my-group',
    'brook consumer-groups --reset-offsets --group my-group --topic test --to-earliest --dry-run',
    'brook consumer-groups --reset-offsets --group my-group --topic test:0 --to-offset 10 --execute',
    'brook consumer-groups --reset-offsets --group my-group --all-topics --to-datetime 2026-11-29T12:00:00.000 --execute',
    'brook consumer-groups --delete --group my-group',
  ]);
  command.action(async (options: ConsumerGroupsOptions) => {
    const action = exactlyOneAction(options, ACTIONS);
    if (action !== 'list')
      required(options.group, '--group', action === 'resetOffsets' ? '--reset-offsets' : `--${action}`);
    if (action === 'resetOffsets') resetRequest(options);
    void io;
    throw new UsageError('consumer groups are not in this broker build yet');
  });
}
