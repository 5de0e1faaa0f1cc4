// The controller's replica admin commands (Kafka's AlterPartitionReassignments and ElectLeaders): validating a
// reassignment request and persisting it as a command the controller then follows (reassignment.ts); electing
// leaders on demand (leader-election.ts). Run on the controller only, one command at a time (controller.service.ts).
//
// A reassignment request is all or nothing: every entry is validated (the topic and partition exist; replicas is
// null to cancel, or a non-empty list of distinct, registered broker ids) before anything is written. Like Kafka, a
// reassignment may change a partition's replication factor. A new target for a partition already being reassigned
// replaces the old one and keeps its original replicas; a cancellation sets the target back to them.
import { errors } from '../common/brook-error.js';
import { reassignmentKey, partitionStateKey } from '../coordination/cluster-keys.js';
import type { CoordinationStore, Fence } from '../coordination/coordination-store.js';
import type { MetadataCache } from '../topic/metadata-cache.service.js';
import type { LiveIncarnations } from '../topic/replica-incarnations.js';
import { decideElection, type ElectionError, type ElectionType } from './leader-election.js';
import type { ReassignmentCommand } from './reassignment.js';

/** Entries in one reassignment or election request (Kafka has no cap; one request must stay small). */
export const REPLICA_ADMIN_PARTITIONS_MAX = 10_000;
/** Times an election is decided again when a partition state changed under it (a leader's ISR write). */
const ELECTION_ATTEMPTS_MAX = 3;

export interface ReassignmentRequest {
  topic: string;
  partition: number;
  /** null: cancel the reassignment in progress. */
  replicas: number[] | null;
}

export interface ElectionRequest {
  electionType: ElectionType;
  /** null: every partition of every topic. */
  partitions: Array<{ topic: string; partition: number }> | null;
}

export interface ElectionResult {
  topic: string;
  partition: number;
  leader: number | null;
  error: ElectionError | null;
  message: string | null;
}

export async function alterReassignments(
  store: CoordinationStore,
  metadata: MetadataCache,
  liveBrokers: ReadonlySet<number>,
  requests: ReassignmentRequest[],
  fence: Fence,
): Promise<ReassignmentCommand[]> {
  checkCount(requests.length);
  const seen = new Set<string>();
  const planned: Array<{ command: ReassignmentCommand; expectedVersion: number }> = [];
  for (const request of requests) {
    const name = `${request.topic}-${request.partition}`;
    const topic = metadata.topic(request.topic);
    if (topic === undefined) throw errors.topicNotFound(request.topic);
    const current = topic.assignment.replicas[request.partition];
    if (!Number.isInteger(request.partition) || current === undefined)
      throw errors.partitionNotFound(request.partition);
    if (seen.has(name)) throw errors.invalidRequest(`Partition ${name} appears twice in the request.`);
    seen.add(name);
    const stored = await store.get(reassignmentKey(request.topic, request.partition));
    const existing = stored === null ? null : (JSON.parse(stored.value) as ReassignmentCommand);
    const inProgress = existing !== null && existing.topicId === topic.assignment.topicId ? existing : null;
    if (request.replicas === null) {
      if (inProgress === null) throw errors.notFound(`No reassignment of ${name} is in progress.`);
    } else {
      checkReplicas(name, request.replicas, liveBrokers);
    }
    const original = inProgress?.original ?? [...current];
    planned.push({
      command: {
        topic: request.topic,
        partition: request.partition,
        topicId: topic.assignment.topicId,
        target: request.replicas === null ? [...original] : [...request.replicas],
        original,
      },
      expectedVersion: stored?.version ?? 0,
    });
  }
  for (const { command, expectedVersion } of planned) {
    const key = reassignmentKey(command.topic, command.partition);
    const written = await store.put(key, JSON.stringify(command), { fence, expectedVersion });
    if (!written.ok) {
      throw errors.retriable(`The reassignment of ${command.topic}-${command.partition} changed meanwhile; retry.`);
    }
  }
  return planned.map(({ command }) => command);
}

function checkReplicas(name: string, replicas: number[], liveBrokers: ReadonlySet<number>): void {
  if (replicas.length === 0) throw errors.invalidRequest(`The replicas of ${name} must not be empty.`);
  if (replicas.some((broker) => !Number.isSafeInteger(broker) || broker < 0)) {
    throw errors.invalidRequest(`The replicas of ${name} must be broker ids (non-negative integers).`);
  }
  if (new Set(replicas).size !== replicas.length) {
    throw errors.invalidRequest(`The replicas of ${name} list a broker twice: [${replicas.join(',')}].`);
  }
  const unknown = replicas.filter((broker) => !liveBrokers.has(broker));
  if (unknown.length > 0) {
    throw errors.invalidRequest(
      `The replicas of ${name} name brokers that are not registered (not alive): ${unknown.join(',')}.`,
    );
  }
}

/** The in-progress reassignments (all, one topic's, or one partition's), sorted by topic and partition. */
export async function listReassignments(store: CoordinationStore, prefix: string): Promise<ReassignmentCommand[]> {
  const entries = await store.list(prefix);
  return entries
    .map((entry) => JSON.parse(entry.value) as ReassignmentCommand)
    .sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1));
}

export async function electLeaders(
  store: CoordinationStore,
  metadata: MetadataCache,
  liveBrokers: () => Promise<LiveIncarnations>,
  request: ElectionRequest,
  fence: Fence,
): Promise<ElectionResult[]> {
  const partitions =
    request.partitions ??
    [...metadata.allTopics().values()].flatMap((topic) =>
      topic.assignment.replicas.map((_, partition) => ({ topic: topic.assignment.name, partition })),
    );
  if (request.partitions !== null) checkCount(partitions.length);
  const results: ElectionResult[] = [];
  for (const { topic, partition } of partitions) {
    results.push(await electOne(store, metadata, liveBrokers, request.electionType, topic, partition, fence));
  }
  return results;
}

async function electOne(
  store: CoordinationStore,
  metadata: MetadataCache,
  liveBrokers: () => Promise<LiveIncarnations>,
  type: ElectionType,
  topicName: string,
  partition: number,
  fence: Fence,
): Promise<ElectionResult> {
  for (let attempt = 1; ; attempt++) {
    const topic = metadata.topic(topicName);
    if (topic === undefined) {
      const message = `Topic ${topicName} does not exist.`;
      return { topic: topicName, partition, leader: null, error: 'UNKNOWN_TOPIC_OR_PARTITION', message };
    }
    const decision = decideElection(type, topic, partition, await liveBrokers(), fence.value);
    if (!decision.ok) {
      const leader = topic.states[partition]?.leader ?? -1;
      return {
        topic: topicName,
        partition,
        leader: leader < 0 ? null : leader,
        error: decision.error,
        message: decision.message,
      };
    }
    const { change } = decision;
    const written = await store.put(partitionStateKey(topicName, partition), JSON.stringify(change.state), {
      fence,
      expectedVersion: change.expectedVersion,
    });
    if (written.ok) return { topic: topicName, partition, leader: change.state.leader, error: null, message: null };
    if (attempt >= ELECTION_ATTEMPTS_MAX) {
      throw errors.retriable(`The state of ${topicName}-${partition} kept changing during the election; retry.`);
    }
    await metadata.reload();
  }
}

function checkCount(count: number): void {
  if (count === 0) throw errors.invalidRequest('partitions must not be empty.');
  if (count > REPLICA_ADMIN_PARTITIONS_MAX) {
    throw errors.invalidRequest(`At most ${REPLICA_ADMIN_PARTITIONS_MAX} partitions per request.`);
  }
}
