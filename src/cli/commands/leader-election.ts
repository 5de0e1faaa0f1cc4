// `brook leader-election`: kafka-leader-election.sh against Brook's leader-election route. --election-type
// PREFERRED (the first replica leads again, when live and in sync) or UNCLEAN (a partition without a leader gets
// one, even an out-of-sync replica), for one partition (--topic --partition), every partition
// (--all-topic-partitions) or those of a JSON file (--path-to-json-file: {"partitions":[{"topic","partition"}]}).
// Prints Kafka's lines; exits 1 when an election failed (a partition that needed none is not a failure).
import { Option, type Command } from 'commander';
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
import { integerAtLeast } from '../options.js';
import { parseElectionJson, type TopicPartition } from '../reassignment-plan.js';

interface ElectionOptions extends CommonOptions {
  electionType: string;
  topic?: string;
  partition?: number;
  allTopicPartitions?: boolean;
  pathToJsonFile?: string;
}

export function registerLeaderElectionCommand(program: Command, io: CliIo): void {
  const command = program
    .command('leader-election')
    .description(
      'elect partition leaders now: preferred replicas, or unclean when none is left (kafka-leader-election)',
    )
    .addOption(
      new Option('--election-type <type>', 'PREFERRED or UNCLEAN')
        .argParser((value) => value.toUpperCase())
        .makeOptionMandatory(),
    )
    .option('--topic <name>', 'the topic of the partition (with --partition)')
    .option('--partition <id>', 'the partition (with --topic)', integerAtLeast(0))
    .option('--all-topic-partitions', 'every partition of every topic')
    .option('--path-to-json-file <file>', 'the partitions: {"partitions":[{"topic":"t","partition":0}]}');
  addCommonOptions(command);
  withExamples(command, [
    'brook leader-election --election-type PREFERRED --all-topic-partitions',
    'brook leader-election --election-type PREFERRED --topic orders --partition 0',
    'brook leader-election --election-type UNCLEAN --path-to-json-file partitions.json --output json',
  ]);
  command.action(async (options: ElectionOptions) => {
    if (options.electionType !== 'PREFERRED' && options.electionType !== 'UNCLEAN') {
      throw new UsageError(`--election-type must be PREFERRED or UNCLEAN, got '${options.electionType}'`);
    }
    const partitions = await chosenPartitions(options);
    const connection = await connectFrom(options, io.signal);
    await elect(connection, options, partitions, io);
  });
}

/** null: every partition. Exactly one of the three ways to name partitions. */
async function chosenPartitions(options: ElectionOptions): Promise<TopicPartition[] | null> {
  const ways = [
    options.topic !== undefined || options.partition !== undefined,
    options.allTopicPartitions === true,
    options.pathToJsonFile !== undefined,
  ].filter(Boolean).length;
  if (ways !== 1) {
    throw new UsageError(
      'name the partitions one way: --topic with --partition, --all-topic-partitions or --path-to-json-file',
    );
  }
  if (options.allTopicPartitions === true) return null;
  if (options.pathToJsonFile !== undefined) {
    let text: string;
    try {
      text = await readFile(options.pathToJsonFile, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read ${options.pathToJsonFile}: ${(error as NodeJS.ErrnoException).code ?? ''}`);
    }
    return parseElectionJson(text, options.pathToJsonFile);
  }
  if (options.topic === undefined || options.partition === undefined) {
    throw new UsageError('--topic and --partition go together');
  }
  return [{ topic: options.topic, partition: options.partition }];
}

async function elect(
  { api, clusterId }: Connection,
  options: ElectionOptions,
  partitions: TopicPartition[] | null,
  io: CliIo,
): Promise<void> {
  const type = options.electionType as 'PREFERRED' | 'UNCLEAN';
  const answer = unwrap(
    await api.POST('/v3/clusters/{cluster_id}/topics/-/partitions/-/leader-election', {
      params: { path: { cluster_id: clusterId } },
      body: {
        election_type: type,
        partitions:
          partitions === null
            ? null
            : partitions.map(({ topic, partition }) => ({ topic_name: topic, partition_id: partition })),
      },
    }),
  );
  const results = answer.data;
  const failed = results.filter((result) => result.error !== null && result.error !== 'ELECTION_NOT_NEEDED');
  if (options.output === 'json') writeJson(io, results);
  else {
    const name = (result: (typeof results)[number]) => `${result.topic_name}-${result.partition_id}`;
    const elected = results.filter((result) => result.error === null).map(name);
    const notNeeded = results.filter((result) => result.error === 'ELECTION_NOT_NEEDED').map(name);
    if (elected.length > 0) {
      io.stdout.write(`Successfully completed leader election (${type}) for partitions ${elected.join(', ')}\n`);
    }
    if (notNeeded.length > 0) io.stdout.write(`Valid replica already elected for partitions ${notNeeded.join(', ')}\n`);
    for (const result of failed) {
      io.stdout.write(
        `Error completing leader election (${type}) for partition: ${name(result)}: ${result.error}: ${result.message ?? ''}\n`,
      );
    }
  }
  if (failed.length > 0) {
    throw new CliError(`leader election failed for ${failed.length} partition(s)`, EXIT.brokerError);
  }
}
