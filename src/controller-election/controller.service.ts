// The controller's admin operations (Kafka's KafkaController topic paths): create a topic (placement, assignment,
// initial partition states, configs), add partitions, change configs, delete a topic; start or cancel partition
// reassignments and elect leaders on demand (replica-admin.ts). Every write is fenced by the
// controller epoch in the coordination store (and compare-and-set where it replaces a value), so a deposed
// controller's late write changes nothing; a refused write makes this broker resign.
//
// Any broker takes these requests: on a broker that is not the controller, they are forwarded to the controller's
// internal route (internal.controller.ts) and the answer is awaited; then the local metadata is reloaded so that
// the caller reads its own write.
import { Injectable } from '@nestjs/common';
import { randomInt, randomUUID } from 'node:crypto';
import { PeerClient, PeerUnreachableError } from '../cluster/peer-client.js';
import type { PeerAnswer } from '../cluster/peer-http-request.js';
import { BrookError, errors } from '../common/brook-error.js';
import { CoordinationFencedError } from '../coordination/coordination-errors.js';
import { CoordinationStore } from '../coordination/coordination-store.js';
import { partitionStateKey, REASSIGNMENTS_PREFIX, topicConfigKey, topicKey } from '../coordination/cluster-keys.js';
import type { PartitionState, TopicAssignment } from '../topic/cluster-metadata.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import { type LiveIncarnations, membersAsLive } from '../topic/replica-incarnations.js';
import { findCollidingTopic, isInternalTopic, topicCollisionMessage, validateTopicName } from '../topic/topic-name.js';
import { validateTopicConfigs } from '../config/topic-config.js';
import { executePlan } from './admin-plans.js';
import type { ReassignmentCommand } from './reassignment.js';
import {
  alterReassignments,
  electLeaders,
  type ElectionRequest,
  type ElectionResult,
  type ReassignmentRequest,
} from './replica-admin.js';
import { ClusterController } from './cluster-controller.service.js';
import { ControllerElection } from './controller-election.service.js';
import { epochFence } from './epoch-fence.js';
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

export interface ConfigChange {
  name: string;
  value: string | null;
  operation: 'SET' | 'DELETE';
}

/** The operations a broker forwards to the controller, as they travel on the internal route. */
export type ControllerCommand =
  | { op: 'create-topic'; request: CreateTopicRequest }
  | { op: 'add-partitions'; topic: string; partitionsCount: number }
  | { op: 'alter-configs'; topic: string; changes: ConfigChange[] }
  | { op: 'delete-topic'; topic: string }
  | { op: 'controlled-shutdown'; brokerId: number; brokerEpoch: number }
  | { op: 'alter-reassignments'; partitions: ReassignmentRequest[] }
  | { op: 'elect-leaders'; request: ElectionRequest };

/** How long a command waits for a just-elected controller to finish loading before answering 503. */
export const CONTROLLER_READY_WAIT_MS = 5_000;

@Injectable()
export class ControllerService {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: CoordinationStore,
    private readonly election: ControllerElection,
    private readonly metadata: MetadataCache,
    private readonly peers: PeerClient,
    private readonly cluster: ClusterController,
  ) {}

  async createTopic(request: CreateTopicRequest): Promise<TopicAssignment> {
    return (await this.submit({ op: 'create-topic', request })) as TopicAssignment;
  }

  async addPartitions(topic: string, partitionsCount: number): Promise<TopicAssignment> {
    return (await this.submit({ op: 'add-partitions', topic, partitionsCount })) as TopicAssignment;
  }

  async alterConfigs(topic: string, changes: ConfigChange[]): Promise<void> {
    await this.submit({ op: 'alter-configs', topic, changes });
  }

  async deleteTopic(topic: string): Promise<void> {
    await this.submit({ op: 'delete-topic', topic });
  }

  /** Starts, replaces or cancels partition reassignments; answers the persisted commands. */
  async alterReassignments(partitions: ReassignmentRequest[]): Promise<ReassignmentCommand[]> {
    return (await this.submit({ op: 'alter-reassignments', partitions })) as ReassignmentCommand[];
  }

  /** Elects leaders now (PREFERRED or UNCLEAN); answers per partition. */
  async electLeaders(request: ElectionRequest): Promise<ElectionResult[]> {
    return (await this.submit({ op: 'elect-leaders', request })) as ElectionResult[];
  }

  /** Asks the controller to move this broker's leadership and ISR memberships to others before it stops. */
  async controlledShutdown(brokerId: number, brokerEpoch: number): Promise<void> {
    await this.submit({ op: 'controlled-shutdown', brokerId, brokerEpoch });
  }

  /** Runs a command here if this broker is the controller, else on the controller; reloads metadata after. */
  private async submit(command: ControllerCommand): Promise<unknown> {
    if (this.election.isController()) return this.execute(command);
    const controllerId = await this.election.controllerId();
    const url = controllerId === null ? null : await this.peers.brokerUrl(controllerId);
    if (url === null) throw errors.brokerNotAvailable('No controller is elected right now; retry.');
    let response: PeerAnswer;
    try {
      response = await this.peers.call(url, { method: 'POST', path: '/controller/commands', json: command });
    } catch (error) {
      if (error instanceof PeerUnreachableError) throw errors.brokerNotAvailable(`The controller: ${error.message}`);
      throw error;
    }
    const result = (await response.json()) as { result: unknown };
    await this.metadata.reload();
    return result.result;
  }

  /**
   * Runs a command as the controller (the internal route calls this); refuses when not the controller. Commands
   * run one at a time, in arrival order, like Kafka's controller event queue: each one's checks (does the topic
   * exist?) see the effects of the ones before it.
   */
  execute(command: ControllerCommand): Promise<unknown> {
    const run = this.queue.then(() => this.executeNow(command));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async executeNow(command: ControllerCommand): Promise<unknown> {
    const epoch = this.election.assertController();
    if (!(await this.cluster.whenReady(CONTROLLER_READY_WAIT_MS)))
      throw errors.brokerNotAvailable('The controller is still loading the cluster state; retry.');
    try {
      const result = await this.executeAsController(command, epoch);
      if (!(command.op === 'create-topic' && command.request.validateOnly)) await this.cluster.pushMetadata(epoch);
      return result;
    } catch (error) {
      if (error instanceof BrookError) throw error;
      if (error instanceof CoordinationFencedError) {
        this.election.resign(`a write was fenced: ${error.message}`);
        throw errors.brokerNotAvailable('This broker is no longer the controller; retry.');
      }
      // The store failed (Redis unreachable, a command timed out): every command can be retried as a whole.
      throw errors.brokerNotAvailable(`The controller could not write to the coordination store: ${String(error)}`);
    }
  }

  private executeAsController(command: ControllerCommand, epoch: number): Promise<unknown> {
    switch (command.op) {
      case 'create-topic':
        return this.createTopicAsController(command.request, epoch);
      case 'add-partitions':
        return this.addPartitionsAsController(command.topic, command.partitionsCount, epoch);
      case 'alter-configs':
        return this.alterConfigsAsController(command.topic, command.changes, epoch);
      case 'delete-topic':
        return this.deleteTopicAsController(command.topic, epoch);
      case 'controlled-shutdown':
        if (!Number.isSafeInteger(command.brokerId) || !Number.isSafeInteger(command.brokerEpoch)) {
          throw errors.invalidRequest('controlled-shutdown needs integer brokerId and brokerEpoch.');
        }
        return this.cluster.controlledShutdown(command.brokerId, command.brokerEpoch).then(() => null);
      case 'alter-reassignments':
        return this.alterReassignmentsAsController(command.partitions, epoch);
      case 'elect-leaders':
        return this.electLeadersAsController(command.request, epoch);
      default:
        throw errors.invalidRequest('Unknown controller command.');
    }
  }

  private async alterReassignmentsAsController(
    partitions: ReassignmentRequest[],
    epoch: number,
  ): Promise<ReassignmentCommand[]> {
    if (!Array.isArray(partitions)) throw errors.invalidRequest('partitions must be an array.');
    const registered = new Set(await this.election.liveBrokerIds());
    const commands = await alterReassignments(this.store, this.metadata, registered, partitions, epochFence(epoch));
    this.cluster.schedule();
    return commands;
  }

  private async electLeadersAsController(request: ElectionRequest, epoch: number): Promise<ElectionResult[]> {
    const live = () => this.cluster.leadershipCandidates();
    const results = await electLeaders(this.store, this.metadata, live, request, epochFence(epoch));
    await this.metadata.reload();
    return results;
  }

  private async createTopicAsController(request: CreateTopicRequest, epoch: number): Promise<TopicAssignment> {
    const nameError = validateTopicName(request.name);
    if (nameError !== null) throw errors.invalidTopic(nameError);
    if (isInternalTopic(request.name) && request.internal !== true) throw internalTopicError(request.name);
    checkPartitionCount(request.partitions);
    const configs = validateTopicConfigs(request.configs);
    if (!configs.ok) throw errors.invalidConfig(configs.message);
    if (this.metadata.topic(request.name)) throw errors.topicExists(request.name);
    const colliding = findCollidingTopic(request.name, this.metadata.allTopics().keys());
    if (colliding !== null) throw errors.invalidTopic(topicCollisionMessage(request.name, colliding));
    const live = await this.liveIncarnations();
    const brokers = [...live.keys()];
    const replicas = assignReplicas({
      brokerIds: brokers,
      partitions: request.partitions,
      replicationFactor: request.replicationFactor,
      startIndex: randomInt(brokers.length),
      replicaShift: randomInt(brokers.length),
    });
    const assignment: TopicAssignment = { topicId: randomUUID(), name: request.name, replicas };
    if (request.validateOnly) return assignment;
    if ((await this.store.get(topicKey(request.name))) !== null) throw errors.topicExists(request.name);
    await executePlan(
      this.store,
      {
        description: `create topic ${request.name}`,
        writes: [
          { key: topicConfigKey(request.name), value: JSON.stringify(configs.configs) },
          ...initialStates(request.name, replicas, 0, epoch, live),
          { key: topicKey(request.name), value: JSON.stringify(assignment) },
        ],
      },
      epochFence(epoch),
    );
    await this.metadata.reload();
    return assignment;
  }

  private async addPartitionsAsController(
    topic: string,
    partitionsCount: number,
    epoch: number,
  ): Promise<TopicAssignment> {
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
    // As Kafka (REASSIGNMENT_IN_PROGRESS): the assignment written below would race the reassignment's own writes.
    if ((await this.store.list(`${REASSIGNMENTS_PREFIX}${topic}/`)).length > 0) {
      throw new BrookError(
        409,
        40901,
        `A partition reassignment of ${topic} is in progress; add partitions once it has completed.`,
      );
    }
    const live = await this.liveIncarnations();
    const brokers = [...live.keys()];
    const added = assignReplicas({
      brokerIds: brokers,
      partitions: partitionsCount - existing,
      replicationFactor: current.assignment.replicas[0].length,
      startIndex: randomInt(brokers.length),
      replicaShift: randomInt(brokers.length),
      firstPartitionId: existing,
    });
    const stored = await this.store.get(topicKey(topic));
    const storedAssignment = stored === null ? null : (JSON.parse(stored.value) as TopicAssignment);
    if (
      storedAssignment === null ||
      storedAssignment.topicId !== current.assignment.topicId ||
      storedAssignment.replicas.length !== existing
    ) {
      throw errors.retriable(`Topic ${topic} changed concurrently; retry.`);
    }
    // the stored replicas, not the cached ones: never write back an assignment older than the store's
    const assignment: TopicAssignment = { ...storedAssignment, replicas: [...storedAssignment.replicas, ...added] };
    await executePlan(
      this.store,
      {
        description: `add partitions ${existing}..${partitionsCount - 1} to ${topic}`,
        writes: [
          ...initialStates(topic, added, existing, epoch, live),
          { key: topicKey(topic), value: JSON.stringify(assignment) },
        ],
      },
      epochFence(epoch),
    );
    await this.metadata.reload();
    return assignment;
  }

  /** Applies SET/DELETE changes to a topic's overrides; the result is validated as a whole before it is stored. */
  private async alterConfigsAsController(topic: string, changes: ConfigChange[], epoch: number): Promise<null> {
    const current = this.requireTopic(topic);
    // a Map, not an object: a name such as __proto__ is a key like any other (and then an unknown config)
    const next = new Map(Object.entries(current.configs));
    for (const change of changes) {
      if (change.operation === 'DELETE') next.delete(change.name);
      else if (change.value === null) throw errors.invalidConfig(`Config ${change.name} needs a value.`);
      else next.set(change.name, change.value);
    }
    const validated = validateTopicConfigs([...next].map(([name, value]) => ({ name, value })));
    if (!validated.ok) throw errors.invalidConfig(validated.message);
    await this.store.put(topicConfigKey(topic), JSON.stringify(validated.configs), { fence: epochFence(epoch) });
    await this.metadata.reload();
    return null;
  }

  private async deleteTopicAsController(topic: string, epoch: number): Promise<null> {
    const current = this.requireTopic(topic);
    if (isInternalTopic(topic)) throw internalTopicError(topic);
    const states = current.assignment.replicas.map((_, partition) => ({
      key: partitionStateKey(topic, partition),
      value: null,
    }));
    await executePlan(
      this.store,
      {
        description: `delete topic ${topic}`,
        writes: [{ key: topicKey(topic), value: null }, ...states, { key: topicConfigKey(topic), value: null }],
      },
      epochFence(epoch),
    );
    await this.metadata.reload();
    return null;
  }

  /** The registered brokers (those a new partition's replicas are placed on) and their incarnations. */
  private async liveIncarnations(): Promise<LiveIncarnations> {
    return new Map((await this.election.liveBrokers()).map((broker) => [broker.brokerId, broker.brokerEpoch]));
  }

  private requireTopic(topic: string) {
    const metadata = this.metadata.topic(topic);
    if (metadata === undefined) throw errors.topicNotFound(topic);
    return metadata;
  }
}

/**
 * The first state of each new partition. Every replica starts empty, so all are in sync (Kafka: the initial ISR is
 * the live assigned replicas), each as the incarnation it runs now; the first replica, the preferred one, leads.
 */
function initialStates(
  topic: string,
  replicas: number[][],
  firstPartition: number,
  controllerEpoch: number,
  live: LiveIncarnations,
) {
  return replicas.map((partitionReplicas, i) => {
    const state: PartitionState = {
      leader: partitionReplicas[0],
      leaderEpoch: 0,
      isr: [...partitionReplicas],
      isrBrokerEpochs: membersAsLive(partitionReplicas, live),
      controllerEpoch,
    };
    return { key: partitionStateKey(topic, firstPartition + i), value: JSON.stringify(state) };
  });
}

function checkPartitionCount(partitions: number): void {
  if (!Number.isInteger(partitions) || partitions < 1 || partitions > PARTITIONS_PER_TOPIC_MAX) {
    throw errors.invalidPartitions(`Number of partitions must be an integer from 1 to ${PARTITIONS_PER_TOPIC_MAX}.`);
  }
}

function internalTopicError(topic: string): BrookError {
  return errors.invalidRequest(`Topic ${topic} is internal to the broker; it cannot be created, altered or deleted.`);
}
