// Pure parts of `brook consumer-groups`: the --reset-offsets flags turned into the body of Brook's
// `offsets:reset` route (Kafka's flag spellings: --topic t or t:0,2, --all-topics, --to-earliest, --to-latest,
// --to-offset N, --to-datetime ISO-8601, --dry-run or --execute), and the tables Kafka's tool prints.
import { UsageError } from './errors.js';
import { formatTable } from './table.js';

export interface ResetFlags {
  topic?: string[];
  allTopics?: boolean;
  toEarliest?: boolean;
  toLatest?: boolean;
  toOffset?: number;
  toDatetime?: string;
  dryRun?: boolean;
  execute?: boolean;
}

export interface ResetTopic {
  topic_name: string;
  partitions?: number[];
}

export interface ResetRequest {
  to: 'earliest' | 'latest' | 'offset' | 'timestamp';
  offset?: number;
  timestamp?: number;
  topics?: ResetTopic[];
  dry_run: boolean;
}

/** Kafka's `--topic t` or `--topic t:0,1,2` (repeatable) into topics with optional partition lists. */
export function parseResetTopics(values: readonly string[]): ResetTopic[] {
  return values.map((value) => {
    const colon = value.lastIndexOf(':');
    if (colon === -1) return { topic_name: value };
    const topic = value.slice(0, colon);
    const partitions = value
      .slice(colon + 1)
      .split(',')
      .map((partition) => partition.trim());
    if (topic === '' || partitions.some((partition) => !/^\d+$/.test(partition))) {
      throw new UsageError(`--topic '${value}' is not of the form topic or topic:partition[,partition...]`);
    }
    return { topic_name: topic, partitions: partitions.map(Number) };
  });
}

/** An ISO-8601 date-time (Kafka's --to-datetime `YYYY-MM-DDTHH:mm:SS.sss`, a zone optional) to epoch ms. */
export function parseDatetime(value: string): number {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value)) {
    throw new UsageError(`--to-datetime '${value}' is not an ISO-8601 date-time such as 2026-11-29T12:00:00.000`);
  }
  const milliseconds = Date.parse(value);
  if (Number.isNaN(milliseconds)) throw new UsageError(`--to-datetime '${value}' is not a valid date`);
  return milliseconds;
}

/** The request body; `dryRunByDefault` is true when neither --dry-run nor --execute was given (as in Kafka). */
export function resetRequest(flags: ResetFlags): { request: ResetRequest; dryRunByDefault: boolean } {
  const targets = [
    flags.toEarliest === true,
    flags.toLatest === true,
    flags.toOffset !== undefined,
    flags.toDatetime !== undefined,
  ];
  if (targets.filter(Boolean).length !== 1) {
    throw new UsageError('--reset-offsets needs exactly one of --to-earliest, --to-latest, --to-offset, --to-datetime');
  }
  if (flags.dryRun === true && flags.execute === true) throw new UsageError('give --dry-run or --execute, not both');
  const hasTopics = flags.topic !== undefined && flags.topic.length > 0;
  if (hasTopics === (flags.allTopics === true)) {
    throw new UsageError('--reset-offsets needs --topic <topic[:partitions]> or --all-topics (one of them)');
  }
  const request: ResetRequest = {
    to: flags.toEarliest
      ? 'earliest'
      : flags.toLatest
        ? 'latest'
        : flags.toOffset !== undefined
          ? 'offset'
          : 'timestamp',
    dry_run: flags.execute !== true,
  };
  if (flags.toOffset !== undefined) request.offset = flags.toOffset;
  if (flags.toDatetime !== undefined) request.timestamp = parseDatetime(flags.toDatetime);
  if (hasTopics) request.topics = parseResetTopics(flags.topic ?? []);
  return { request, dryRunByDefault: flags.dryRun !== true && flags.execute !== true };
}

export interface LagRow {
  consumer_group_id: string;
  topic_name: string;
  partition_id: number;
  current_offset: number;
  log_end_offset: number;
  lag: number;
  consumer_id: string;
  instance_id?: string | null;
  client_id: string;
}

/** kafka-consumer-groups --describe: one row per partition, sorted by topic then partition. */
export function formatLagTable(rows: readonly LagRow[]): string {
  const sorted = [...rows].sort((a, b) => a.topic_name.localeCompare(b.topic_name) || a.partition_id - b.partition_id);
  return formatTable(
    ['GROUP', 'TOPIC', 'PARTITION', 'CURRENT-OFFSET', 'LOG-END-OFFSET', 'LAG', 'CONSUMER-ID', 'CLIENT-ID'],
    sorted.map((row) => [
      row.consumer_group_id,
      row.topic_name,
      row.partition_id,
      row.current_offset,
      row.log_end_offset,
      row.lag,
      row.consumer_id === '' ? null : row.consumer_id,
      row.client_id === '' ? null : row.client_id,
    ]),
  );
}

export interface ResetRow {
  topic_name: string;
  partition_id: number;
  current_offset: number | null;
  new_offset: number;
}

/** kafka-consumer-groups --reset-offsets: the new offset of each partition (and the one it replaces). */
export function formatResetTable(group: string, rows: readonly ResetRow[]): string {
  const sorted = [...rows].sort((a, b) => a.topic_name.localeCompare(b.topic_name) || a.partition_id - b.partition_id);
  return formatTable(
    ['GROUP', 'TOPIC', 'PARTITION', 'CURRENT-OFFSET', 'NEW-OFFSET'],
    sorted.map((row) => [group, row.topic_name, row.partition_id, row.current_offset, row.new_offset]),
  );
}
