// Partition reassignments as the controller follows them: each pass lists the persisted commands and applies the
// next step of each (reassignment.ts decides it from the stored state alone, so a new controller resumes where the
// old one stopped). Writes are fenced by the controller epoch; partition states are written compare-and-set on
// their version and assignments on the topic's version, so a leader's concurrent ISR write wins and the step is
// decided again on the next pass. A command whose topic is gone (deleted, or deleted and created again) is dropped;
// a partition whose state still has reassignment markers but no command (the store lost it and a restore brought
// back only the partition states) gets its command back from them.
import type { Logger } from '@nestjs/common';
import { REASSIGNMENTS_PREFIX, partitionStateKey, reassignmentKey, topicKey } from '../coordination/cluster-keys.js';
import type { CoordinationStore, KeyedVersionedValue } from '../coordination/coordination-store.js';
import type { PartitionState, TopicAssignment, TopicMetadata } from '../topic/cluster-metadata.js';
import type { LiveIncarnations } from '../topic/replica-incarnations.js';
import type { MetadataCache } from '../topic/metadata-cache.service.js';
import { epochFence } from './epoch-fence.js';
import { nextReassignmentStep, type ReassignmentCommand, type ReassignmentStep } from './reassignment.js';

export class ReassignmentDriver {
  /** Whether the last pass saw reassignments in progress (then ISR changes should wake the controller). */
  inProgress = false;
  /**
   * The topics map of the last recovery scan that found no partition with reassignment markers (null otherwise): the
   * next scan of the same map (the metadata cache makes a new one whenever anything changed) would find none either,
   * so it is skipped. An idle controller scanned its 10,000 partitions every pass (2 s), making ~1 MB of garbage.
   */
  private unmarkedTopics: ReadonlyMap<string, TopicMetadata> | null = null;

  constructor(
    private readonly store: CoordinationStore,
    private readonly metadata: MetadataCache,
    private readonly logger: Logger,
    private readonly stillController: (epoch: number) => boolean,
  ) {}

  /** Takes each persisted reassignment one step; true when something was written (then another pass follows). */
  async step(epoch: number, live: LiveIncarnations): Promise<boolean> {
    let entries = await this.store.list(REASSIGNMENTS_PREFIX);
    if (await this.recoverReassignments(epoch, entries)) entries = await this.store.list(REASSIGNMENTS_PREFIX);
    this.inProgress = entries.length > 0;
    let wrote = false;
    for (const entry of entries) {
      if (!this.stillController(epoch)) return false;
      const command = JSON.parse(entry.value) as ReassignmentCommand;
      const topic = this.metadata.topic(command.topic);
      const state = topic?.states[command.partition];
      const replicas = topic?.assignment.replicas[command.partition];
      if (topic === undefined || topic.assignment.topicId !== command.topicId || !state || !replicas) {
        await this.store.delete(entry.key, { fence: epochFence(epoch), expectedVersion: entry.version });
        this.logger.warn(`dropped the reassignment of ${command.topic}-${command.partition}: the topic is gone`);
        continue;
      }
      const step = nextReassignmentStep({ command, replicas, state, liveBrokers: live, controllerEpoch: epoch });
      if (await this.applyReassignmentStep(epoch, entry, command, topic, step)) wrote = true;
    }
    return wrote;
  }

  /**
   * A partition whose state still marks a reassignment that has no command (the coordination store lost it, and a
   * restore brought back only the partition states) gets its command back from the markers, as Kafka keeps a
   * reassignment in the partition's own znode: target = replicas without the removing ones, original = replicas
   * without the adding ones. Returns true when it wrote any.
   */
  private async recoverReassignments(epoch: number, entries: KeyedVersionedValue[]): Promise<boolean> {
    const topics = this.metadata.allTopics();
    if (topics === this.unmarkedTopics) return false;
    const marked = markedPartitions(topics);
    // no marker anywhere: nothing to recover until the metadata changes (the cache then hands out a new map)
    this.unmarkedTopics = marked.length === 0 ? topics : null;
    if (marked.length === 0) return false;
    const known = new Set(entries.map((entry) => entry.key));
    let recovered = false;
    for (const { topic, partition, state, replicas } of marked) {
      const adding = state.addingReplicas ?? [];
      const removing = state.removingReplicas ?? [];
      const name = topic.assignment.name;
      if (known.has(reassignmentKey(name, partition))) continue;
      const command: ReassignmentCommand = {
        topic: name,
        partition,
        topicId: topic.assignment.topicId,
        target: replicas.filter((broker) => !removing.includes(broker)),
        original: replicas.filter((broker) => !adding.includes(broker)),
      };
      const written = await this.store.put(reassignmentKey(name, partition), JSON.stringify(command), {
        fence: epochFence(epoch),
        expectedVersion: 0,
      });
      if (!written.ok) continue;
      recovered = true;
      this.logger.warn(`resumed the reassignment of ${name}-${partition} from its partition state`);
    }
    return recovered;
  }

  private async applyReassignmentStep(
    epoch: number,
    entry: KeyedVersionedValue,
    command: ReassignmentCommand,
    topic: TopicMetadata,
    step: ReassignmentStep,
  ): Promise<boolean> {
    const name = `${command.topic}-${command.partition}`;
    const fence = epochFence(epoch);
    switch (step.kind) {
      case 'wait':
        return false;
      case 'complete':
        await this.store.delete(entry.key, { fence, expectedVersion: entry.version });
        this.logger.log(`reassignment of ${name} to [${command.target.join(',')}] is complete`);
        return true;
      case 'extend-replicas':
      case 'shrink-replicas': {
        const stored = await this.store.get(topicKey(command.topic));
        if (stored === null) return false;
        const assignment = JSON.parse(stored.value) as TopicAssignment;
        if (assignment.topicId !== command.topicId) return false;
        assignment.replicas[command.partition] = step.replicas;
        const written = await this.store.put(topicKey(command.topic), JSON.stringify(assignment), {
          fence,
          expectedVersion: stored.version,
        });
        if (written.ok) this.logger.log(`reassignment of ${name}: replicas [${step.replicas.join(',')}]`);
        return written.ok;
      }
      default: {
        const written = await this.store.put(
          partitionStateKey(command.topic, command.partition),
          JSON.stringify(step.state),
          {
            fence,
            expectedVersion: topic.stateVersions[command.partition] ?? 0,
          },
        );
        if (written.ok) {
          const { leader, leaderEpoch, isr } = step.state;
          this.logger.log(
            `reassignment of ${name}: ${step.kind}, leader ${leader} (epoch ${leaderEpoch}), ISR [${isr.join(',')}]`,
          );
        }
        return written.ok;
      }
    }
  }
}

interface MarkedPartition {
  topic: TopicMetadata;
  partition: number;
  state: PartitionState;
  replicas: readonly number[];
}

const NONE_MARKED: readonly MarkedPartition[] = [];

/** The partitions whose state marks a reassignment (adding or removing replicas) and that have an assignment. */
function markedPartitions(topics: ReadonlyMap<string, TopicMetadata>): readonly MarkedPartition[] {
  let marked: MarkedPartition[] | null = null;
  topics.forEach((topic) => {
    const { states } = topic;
    for (let partition = 0; partition < states.length; partition++) {
      const state = states[partition];
      if (state === undefined) continue;
      const replicas = topic.assignment.replicas[partition];
      if (replicas === undefined) continue;
      if ((state.addingReplicas?.length ?? 0) === 0 && (state.removingReplicas?.length ?? 0) === 0) continue;
      (marked ??= []).push({ topic, partition, state, replicas });
    }
  });
  return marked ?? NONE_MARKED;
}
