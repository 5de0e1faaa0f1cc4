// Pure parts of `brook reassign-partitions` and `brook leader-election`: Kafka's JSON files (read and written as
// kafka-reassign-partitions.sh and kafka-leader-election.sh do), the proposal of --generate, and the verdict of
// --verify. Errors in a file are usage errors naming the file's problem.
//
// Reassignment file:      {"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,2,3],"log_dirs":[...]}]}
//                         (log_dirs is accepted and ignored: a Brook broker has one data dir)
// Topics-to-move file:    {"version":1,"topics":[{"topic":"t"}]}
// Election file:          {"partitions":[{"topic":"t","partition":0}]}
import { assignReplicas } from '../controller-election/replica-placement.js';
import { UsageError } from './errors.js';

export interface PartitionAssignment {
  topic: string;
  partition: number;
  replicas: number[];
}

export interface TopicPartition {
  topic: string;
  partition: number;
}

export type VerifyStatus = 'complete' | 'in_progress' | 'mismatch';

export interface VerifyResult extends PartitionAssignment {
  status: VerifyStatus;
  current: number[];
}

export function parseReassignmentJson(text: string, file: string): PartitionAssignment[] {
  const partitions = arrayField(parseObject(text, file), 'partitions', file);
  const seen = new Set<string>();
  return partitions.map((entry, i) => {
    const where = `${file}: partitions[${i}]`;
    const { topic, partition } = topicPartition(entry, where);
    const replicas = (entry as Record<string, unknown>).replicas;
    if (!Array.isArray(replicas) || replicas.length === 0 || !replicas.every(isBrokerId)) {
      throw new UsageError(`${where}.replicas must be a non-empty list of broker ids`);
    }
    const name = `${topic}-${partition}`;
    if (seen.has(name)) throw new UsageError(`${file}: partition ${name} appears more than once`);
    seen.add(name);
    return { topic, partition, replicas: replicas as number[] };
  });
}

export function parseTopicsToMoveJson(text: string, file: string): string[] {
  const topics = arrayField(parseObject(text, file), 'topics', file);
  return [
    ...new Set(
      topics.map((entry, i) => {
        const topic = (entry as Record<string, unknown> | null)?.topic;
        if (typeof topic !== 'string' || topic === '') throw new UsageError(`${file}: topics[${i}].topic is missing`);
        return topic;
      }),
    ),
  ];
}

export function parseElectionJson(text: string, file: string): TopicPartition[] {
  return arrayField(parseObject(text, file), 'partitions', file).map((entry, i) =>
    topicPartition(entry, `${file}: partitions[${i}]`),
  );
}

/** `--broker-list 1,2,3`: distinct broker ids. */
export function parseBrokerList(value: string): number[] {
  const ids = value.split(',').map((part) => part.trim());
  if (ids.some((id) => !/^\d+$/.test(id)))
    throw new UsageError(`--broker-list must be broker ids like 1,2,3, got '${value}'`);
  const brokers = ids.map(Number);
  if (new Set(brokers).size !== brokers.length) throw new UsageError(`--broker-list lists a broker twice: '${value}'`);
  return brokers;
}

/**
 * Kafka's --generate: a new assignment of the given partitions over `brokers`, keeping each topic's replication
 * factor, placed as topic creation places replicas (rack-unaware, from a random start: `random` gives [0, 1)).
 */
export function proposeAssignment(
  current: readonly PartitionAssignment[],
  brokers: readonly number[],
  random: () => number = Math.random,
): PartitionAssignment[] {
  const byTopic = new Map<string, PartitionAssignment[]>();
  for (const entry of current) byTopic.set(entry.topic, [...(byTopic.get(entry.topic) ?? []), entry]);
  const proposed: PartitionAssignment[] = [];
  for (const [topic, partitions] of byTopic) {
    const sorted = [...partitions].sort((a, b) => a.partition - b.partition);
    const replicationFactor = sorted[0].replicas.length;
    if (replicationFactor > brokers.length) {
      throw new UsageError(
        `topic ${topic} has replication factor ${replicationFactor}, more than the ${brokers.length} broker(s) of --broker-list`,
      );
    }
    const placement = assignReplicas({
      brokerIds: [...brokers],
      partitions: sorted[sorted.length - 1].partition + 1,
      replicationFactor,
      startIndex: Math.floor(random() * brokers.length),
      replicaShift: Math.floor(random() * brokers.length),
    });
    for (const { partition } of sorted) proposed.push({ topic, partition, replicas: placement[partition] });
  }
  return proposed;
}

/** --verify: complete when the partition has its target and no reassignment runs; mismatch when it has neither. */
export function verify(
  wanted: readonly PartitionAssignment[],
  inProgress: ReadonlySet<string>,
  currentReplicas: (topic: string, partition: number) => number[],
): VerifyResult[] {
  return wanted.map((entry) => {
    const current = currentReplicas(entry.topic, entry.partition);
    const status: VerifyStatus = inProgress.has(`${entry.topic}-${entry.partition}`)
      ? 'in_progress'
      : current.join(',') === entry.replicas.join(',')
        ? 'complete'
        : 'mismatch';
    return { ...entry, status, current };
  });
}

export function verifyLine(result: VerifyResult): string {
  const name = `${result.topic}-${result.partition}`;
  if (result.status === 'complete') return `Reassignment of partition ${name} is completed.`;
  if (result.status === 'in_progress') return `Reassignment of partition ${name} is still in progress.`;
  return (
    `There is no active reassignment of partition ${name}, but replica set is ` +
    `${result.current.join(',')} rather than ${result.replicas.join(',')}.`
  );
}

/** Kafka's one-line JSON, with `log_dirs` of "any" as kafka-reassign-partitions.sh writes it. */
export function formatReassignmentJson(partitions: readonly PartitionAssignment[]): string {
  return JSON.stringify({
    version: 1,
    partitions: partitions.map(({ topic, partition, replicas }) => ({
      topic,
      partition,
      replicas,
      log_dirs: replicas.map(() => 'any'),
    })),
  });
}

function parseObject(text: string, file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`${file} must hold a JSON object`);
  }
  const version = (parsed as Record<string, unknown>).version;
  if (version !== undefined && version !== 1) throw new UsageError(`${file}: unsupported version ${String(version)}`);
  return parsed as Record<string, unknown>;
}

function arrayField(object: Record<string, unknown>, field: string, file: string): unknown[] {
  const value = object[field];
  if (!Array.isArray(value) || value.length === 0)
    throw new UsageError(`${file} must have a non-empty "${field}" list`);
  return value;
}

function topicPartition(entry: unknown, where: string): TopicPartition {
  const object = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
  if (typeof object.topic !== 'string' || object.topic === '') throw new UsageError(`${where}.topic is missing`);
  if (!isBrokerId(object.partition)) throw new UsageError(`${where}.partition must be a non-negative integer`);
  return { topic: object.topic, partition: object.partition as number };
}

function isBrokerId(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
