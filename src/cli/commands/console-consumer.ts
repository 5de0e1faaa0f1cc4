// `brook console-consumer`: kafka-console-consumer.sh. Prints records as they arrive, a line each, formatted
// as Kafka's DefaultMessageFormatter (record-printer.ts). Without --group it reads partitions directly through
// Brook's stateless read route (from the end unless --from-beginning or --offset); with --group it joins the
// group as a v2 consumer instance and commits what it printed on exit. Ctrl-C, --max-messages and --timeout-ms
// are normal ends (exit 0): the group's offsets are committed first. `--format avro|jsonschema|protobuf` reads
// records in Confluent's wire format decoded by the broker with the registry's schemas and prints keys and values
// as JSON (`print.schema.ids=true` adds their schema ids); a record that cannot be decoded is reported on stderr
// with the broker's reason and skipped.
import type { Command } from 'commander';
import { InvalidArgumentError, Option } from 'commander';
import { unwrap, type Connection } from '../client.js';
import { addCommonOptions, connectFrom, withExamples, type CliIo, type CommonOptions } from '../command-context.js';
import { UsageError } from '../errors.js';
import { openGroupSource } from '../group-source.js';
import { booleanProperty, collect, integerAtLeast, parseProperties } from '../options.js';
import { DEFAULT_PRINT_OPTIONS, formatRecord, type PrintOptions } from '../record-printer.js';
import { PartitionReader, type ConsumeFormat, type RecordSource, type StartPosition } from '../record-source.js';
import { requireTopic } from '../topic-api.js';

const PROPERTIES = [
  'print.key',
  'print.value',
  'print.timestamp',
  'print.partition',
  'print.offset',
  'print.headers',
  'print.schema.ids',
  'key.separator',
  'line.separator',
] as const;

interface ConsumerOptions extends CommonOptions {
  topic: string;
  group?: string;
  fromBeginning?: boolean;
  partition?: number;
  offset?: number | 'earliest' | 'latest';
  maxMessages?: number;
  timeoutMs?: number;
  property?: string[];
  format: ConsumeFormat;
}

export function registerConsoleConsumerCommand(program: Command, io: CliIo): void {
  const command = program
    .command('console-consumer')
    .description('print the records of a topic as they arrive (kafka-console-consumer)')
    .requiredOption('--topic <name>', 'the topic to consume')
    .option('--group <id>', 'consume as a member of this consumer group and commit what was printed')
    .option('--from-beginning', 'start at the earliest offset (with --group: when the group has no committed offset)')
    .option('--partition <id>', 'read only this partition', integerAtLeast(0))
    .option('--offset <offset>', 'with --partition: a number, earliest or latest', parseOffset)
    .option('--max-messages <count>', 'exit after printing this many records', integerAtLeast(1))
    .option('--timeout-ms <ms>', 'exit when no record arrives for this long', integerAtLeast(1))
    .option('--property <name=value>', `output format: ${PROPERTIES.join(', ')} (repeatable)`, collect)
    .addOption(
      new Option('--format <format>', "binary (the bytes as stored), or decoded with the registry's schemas")
        .choices(['binary', 'avro', 'jsonschema', 'protobuf'])
        .default('binary'),
    );
  addCommonOptions(command, { output: false });
  withExamples(command, [
    'brook console-consumer --topic test --from-beginning',
    'brook console-consumer --topic test --from-beginning --max-messages 2',
    'brook console-consumer --topic test --group my-group --property print.key=true --property print.timestamp=true',
    'brook console-consumer --topic test --partition 0 --offset 42 --timeout-ms 5000',
    'brook console-consumer --topic orders --from-beginning --format avro --property print.schema.ids=true',
  ]);
  command.action(async (options: ConsumerOptions) => {
    const print = printOptions(options.property ?? []);
    validate(options);
    const connection = await connectFrom(options, undefined);
    await requireTopic(connection, options.topic);
    if (print.printTimestamp) print.timestampType = await timestampType(connection, options.topic);
    const source =
      options.group === undefined
        ? await partitionReader(connection, options)
        : await openGroupSource(
            connection,
            options.group,
            options.topic,
            options.fromBeginning === true,
            options.format,
          );
    const printed = await consume(source, print, options, io);
    io.stderr.write(`Processed a total of ${printed} messages\n`);
  });
}

function parseOffset(value: string): number | 'earliest' | 'latest' {
  if (value === 'earliest' || value === 'latest') return value;
  try {
    return integerAtLeast(0)(value);
  } catch {
    throw new InvalidArgumentError(`'${value}' is not an offset (a number, earliest or latest).`);
  }
}

function validate(options: ConsumerOptions): void {
  if (options.offset !== undefined && options.partition === undefined) {
    throw new UsageError('--offset needs --partition');
  }
  if (options.group !== undefined && options.partition !== undefined) {
    throw new UsageError('--group cannot be used with --partition (the group assigns partitions)');
  }
  if (options.offset !== undefined && options.fromBeginning === true) {
    throw new UsageError('give --from-beginning or --offset, not both');
  }
}

export function printOptions(properties: readonly string[]): PrintOptions {
  const parsed = parseProperties(properties, PROPERTIES);
  return {
    ...DEFAULT_PRINT_OPTIONS,
    printKey: booleanProperty(parsed, 'print.key', DEFAULT_PRINT_OPTIONS.printKey),
    printValue: booleanProperty(parsed, 'print.value', DEFAULT_PRINT_OPTIONS.printValue),
    printTimestamp: booleanProperty(parsed, 'print.timestamp', DEFAULT_PRINT_OPTIONS.printTimestamp),
    printPartition: booleanProperty(parsed, 'print.partition', DEFAULT_PRINT_OPTIONS.printPartition),
    printOffset: booleanProperty(parsed, 'print.offset', DEFAULT_PRINT_OPTIONS.printOffset),
    printHeaders: booleanProperty(parsed, 'print.headers', DEFAULT_PRINT_OPTIONS.printHeaders),
    printSchemaIds: booleanProperty(parsed, 'print.schema.ids', DEFAULT_PRINT_OPTIONS.printSchemaIds),
    keySeparator: parsed.get('key.separator') ?? DEFAULT_PRINT_OPTIONS.keySeparator,
    lineSeparator: parsed.get('line.separator') ?? DEFAULT_PRINT_OPTIONS.lineSeparator,
  };
}

async function timestampType({ api, clusterId }: Connection, topic: string): Promise<'CreateTime' | 'LogAppendTime'> {
  const config = unwrap(
    await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}/configs/{name}', {
      params: { path: { cluster_id: clusterId, topic_name: topic, name: 'message.timestamp.type' } },
    }),
  );
  return config.value === 'LogAppendTime' ? 'LogAppendTime' : 'CreateTime';
}

async function partitionReader(connection: Connection, options: ConsumerOptions): Promise<PartitionReader> {
  const { api, clusterId } = connection;
  const path = { cluster_id: clusterId, topic_name: options.topic };
  const listPartitions = async (): Promise<number[]> => {
    const listed = unwrap(
      await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}/partitions', { params: { path } }),
    );
    return listed.data.map((partition) => partition.partition_id).sort((a, b) => a - b);
  };
  const start: StartPosition =
    typeof options.offset === 'number'
      ? { offset: options.offset }
      : { from: options.offset ?? (options.fromBeginning === true ? 'earliest' : 'latest') };
  if (options.partition === undefined) {
    return new PartitionReader(
      connection,
      options.topic,
      await listPartitions(),
      start,
      listPartitions,
      options.format,
    );
  }
  unwrap(
    await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}', {
      params: { path: { ...path, partition_id: options.partition } },
    }),
  );
  return new PartitionReader(connection, options.topic, [options.partition], start, null, options.format);
}

/** Prints records until --max-messages, --timeout-ms or Ctrl-C; closes the source in every case. */
async function consume(
  source: RecordSource,
  print: PrintOptions,
  options: ConsumerOptions,
  io: CliIo,
): Promise<number> {
  let printed = 0;
  let lastRecordAt = Date.now();
  const stop = new AbortController();
  const onInterrupt = (): void => stop.abort();
  io.signal.addEventListener('abort', onInterrupt, { once: true });
  try {
    while (!stop.signal.aborted && (options.maxMessages === undefined || printed < options.maxMessages)) {
      if (options.timeoutMs !== undefined && Date.now() - lastRecordAt >= options.timeoutMs) break;
      const records = await source.poll(stop.signal);
      if (records.length > 0) lastRecordAt = Date.now();
      for (const record of records) {
        if (options.maxMessages !== undefined && printed >= options.maxMessages) break;
        if (record.errors === undefined) {
          io.stdout.write(formatRecord(record, print));
          printed++;
        } else {
          io.stderr.write(
            `brook: skipped partition ${record.partition} offset ${record.offset}: ${record.errors.join('; ')}\n`,
          );
        }
        source.processed(record);
      }
    }
  } finally {
    io.signal.removeEventListener('abort', onInterrupt);
    await source.close();
  }
  return printed;
}
