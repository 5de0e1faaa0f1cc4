// The controller's admin operations (Kafka's KafkaController topic paths): create a topic (placement, assignment,
// initial partition states, configs), add partitions, change configs, delete a topic. Every write is
// compare-and-set in the coordination store and stamped with the controller epoch, so the same code runs when the
// store is Redis and several brokers compete.
import { Injectable } from '@nestjs/common';
import { randomInt, randomUUID } from 'node:crypto';
import { BrookError, errors } from '../common/brook-error.js';
import { CoordinationStore } from '../coordination/coordination-store.js';
import { partitionStateKey, topicConfigKey, topicKey } from '../coordination/cluster-keys.js';
import type { PartitionState, TopicAssignment } from '../topic/cluster-metadata.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import { findCollidingTopic, isInternalTopic, topicCollisionMessage, validateTopicName } from '../topic/topic-name.js';
import { validateTopicConfigs } from '../topic/topic-config.js';
import { ControllerElection } from './controller-election.service.js';
import { assignReplicas } from './replica-placement.js';

/** Kafka has no hard cap; Brook bounds partitions per topic so one request cannot create millions of folders. */
export const PARTITIONS_PER_TOPIC_MAX = 10_000;

export interface CreateTopicRequest {
  name: string;
  partitions: number;
  replicationFactor: number;
  configs: Array<{ name: string; value: string | null }>;
  validateOnly?: boolean;
  /** Set only by the broker itself when it creates an internal topic such as __consumer_offsets. */
  internal?: boolean;
}

@Injectable()
export class ControllerService {
  constructor(
    private readonly store: CoordinationStore,
    private readonly election: ControllerElection,
    private readonly metadata: MetadataCache,
  ) {}

  async createTopic(request: CreateTopicRequest): Promise<TopicAssignment> {
    const nameError = validateTopicName(request.name);
    if (nameError !== null) throw errors.invalidRequest(nameError);
    if (isInternalTopic(request.name) && request.internal !== true) throw internalTopicError(request.name);
    checkPartitionCount(request.partitions);
    const configs = validateTopicConfigs(request.configs);
    if (!configs.ok) throw errors.invalidConfig(configs.message);
    if (this.metadata.topic(request.name)) throw errors.topicExists(request.name);
    const colliding = findCollidingTopic(request.name, this.metadata.allTopics().keys());
    if (colliding !== null) throw errors.invalidRequest(topicCollisionMessage(request.name, colliding));
    const brokers = await this.election.liveBrokerIds();
    const replicas = assignReplicas({
      brokerIds: brokers,
      partitions: request.partitions,
      replicationFactor: request.replicationFactor,
      startIndex: randomInt(brokers.length),
      replicaShift: randomInt(brokers.length),
    });
    const assignment: TopicAssignment = { topicId: randomUUID(), name: request.name, replicas };
    if (request.validateOnly) return assignment;
    const epoch = this.election.assertController();
    // Configs and partition states first, the assignment last: a topic is visible only once it is complete.
    await this.store.put(topicConfigKey(request.name), JSON.stringify(configs.configs));
    await this.writeInitialStates(request.name, replicas, 0, epoch);
    const created = await this.store.put(topicKey(request.name), JSON.stringify(assignment), { expectedVersion: 0 });
    if (!created.ok) throw errors.topicExists(request.name);
    await this.metadata.reload();
    return assignment;
  }

  async addPartitions(topic: string, partitionsCount: number): Promise<TopicAssignment> {
    const current = this.requireTopic(topic);
    if (isInternalTopic(topic)) throw internalTopicError(topic);
    checkPartitionCount(partitionsCount);
    const existing = current.assignment.replicas.length;
    if (partitionsCount < existing) {
      throw errors.invalidPartitions(
        `Topic currently has ${existing} partitions, which is higher than the requested ${partitionsCount}.`,
      );
    }
    if (partitionsCount === existing) {
      throw errors.invalidPartitions(`Topic already has ${existing} partitions.`);
    }
    const brokers = await this.election.liveBrokerIds();
    const added = assignReplicas({
      brokerIds: brokers,
      partitions: partitionsCount - existing,
      replicationFactor: current.assignment.replicas[0].length,
      startIndex: randomInt(brokers.length),
      replicaShift: randomInt(brokers.length),
      firstPartitionId: existing,
    });
    const epoch = this.election.assertController();
    const assignment: TopicAssignment = { ...current.assignment, replicas: [...current.assignment.replicas, ...added] };
    await this.writeInitialStates(topic, added, existing, epoch);
    const version = (await this.store.get(topicKey(topic)))?.version ?? 0;
    const written = await this.store.put(topicKey(topic), JSON.stringify(assignment), { expectedVersion: version });
    if (!written.ok) throw errors.retriable(`Topic ${topic} changed concurrently; retry.`);
    await this.metadata.reload();
    return assignment;
  }

  /** Applies SET/DELETE changes to a topic's overrides; the result is validated as a whole before it is stored. */
  async alterConfigs(
    topic: string,
    changes: Array<{ name: string; value: string | null; operation: 'SET' | 'DELETE' }>,
  ): Promise<void> {
    const current = this.requireTopic(topic);
    const next: Record<string, string> = { ...current.configs };
    for (const change of changes) {
      if (change.operation === 'DELETE') delete next[change.name];
      else if (change.value === null) throw errors.invalidConfig(`Config ${change.name} needs a value.`);
      else next[change.name] = change.value;
    }
    const validated = validateTopicConfigs(Object.entries(next).map(([name, value]) => ({ name, value })));
    if (!validated.ok) throw errors.invalidConfig(validated.message);
    this.election.assertController();
    await this.store.put(topicConfigKey(topic), JSON.stringify(validated.configs));
    await this.metadata.reload();
  }

  async deleteTopic(topic: string): Promise<void> {
    const current = this.requireTopic(topic);
    if (isInternalTopic(topic)) throw internalTopicError(topic);
    this.election.assertController();
    await this.store.delete(topicKey(topic));
    for (let partition = 0; partition < current.assignment.replicas.length; partition++) {
      await this.store.delete(partitionStateKey(topic, partition));
    }
    await this.store.delete(topicConfigKey(topic));
    await this.metadata.reload();
  }

  private async writeInitialStates(
    topic: string,
    replicas: number[][],
    firstPartition: number,
    controllerEpoch: number,
  ): Promise<void> {
    for (let i = 0; i < replicas.length; i++) {
      const state: PartitionState = { leader: replicas[i][0], leaderEpoch: 0, isr: [...replicas[i]], controllerEpoch };
      await this.store.put(partitionStateKey(topic, firstPartition + i), JSON.stringify(state));
    }
  }

  private requireTopic(topic: string) {
    const metadata = this.metadata.topic(topic);
    if (metadata === undefined) throw errors.topicNotFound(topic);
    return metadata;
  }
}

function checkPartitionCount(partitions: number): void {
  if (!Number.isInteger(partitions) || partitions < 1 || partitions > PARTITIONS_PER_TOPIC_MAX) {
    throw new BrookError(400, 40002, `Number of partitions must be an integer from 1 to ${PARTITIONS_PER_TOPIC_MAX}.`);
  }
}

function internalTopicError(topic: string): BrookError {
  return errors.invalidRequest(`Topic ${topic} is internal to the broker; it cannot be created, altered or deleted.`);
}
