// The registry's writes from any broker: each command goes to the broker leading `_schemas` partition 0, which
// runs it (schema-writer.ts); the others forward it over the internal route and, before answering, wait until
// their own copy has applied the write (read-your-writes on the broker the client talks to; the read barrier of
// schema-store.service.ts gives it on the others). `_schemas` is created on the first write, with the offsets
// topic's replication factor (offsets.topic.replication.factor): until enough brokers are alive for it, writes
// answer 50003, and until it has a leader they wait up to TOPIC_READY_WAIT_MS.
import { Inject, Injectable } from '@nestjs/common';
import { PEER_REQUEST_TIMEOUT_MS, PeerClient, PeerUnreachableError } from '../../cluster/peer-client.js';
import type { PeerAnswer } from '../../cluster/peer-http-request.js';
import { BrookError, errors } from '../../common/brook-error.js';
import { sleep, systemClock, type Clock } from '../../common/clock.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { ControllerService } from '../../controller-election/controller.service.js';
import { NO_LEADER } from '../../topic/cluster-metadata.js';
import { MetadataCache } from '../../topic/metadata-cache.service.js';
import { SCHEMAS_TOPIC_NAME } from '../../topic/topic-name.js';
import type { JsonValue } from './parsed-schema.js';
import type { RegistryCommand } from './registry-commands.js';
import { registryErrors } from './registry-errors.js';
import { SchemaStore } from './schema-store.service.js';
import { SchemaWriter, type CommandResult } from './schema-writer.js';

/** The internal route a command is forwarded to (internal/schema-registry.internal.controller.ts). */
export const SCHEMA_COMMANDS_PATH = '/schema-registry/commands';
/** How long a write waits for `_schemas` to have a leader. */
const TOPIC_READY_WAIT_MS = 10_000;
const TOPIC_READY_POLL_MS = 100;
/** Tries of a command whose leader turned out not to lead (a leadership change under way). */
const ROUTING_ATTEMPTS_MAX = 5;
const ROUTING_BACKOFF_MS = 200;
/** How long the forwarding broker waits for its copy to apply the write before answering. */
const APPLY_WAIT_MS = 10_000;
/** Answers meaning "nothing was written, ask the leader again": not the leader (yet), fenced, closing. */
const STALE_ROUTE_CODES = new Set([40404, 40905, 503]);

@Injectable()
export class SchemaRegistry {
  private creating: Promise<void> | null = null;
  private readonly clock: Clock = systemClock;

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly store: SchemaStore,
    private readonly writer: SchemaWriter,
    private readonly metadata: MetadataCache,
    private readonly controller: ControllerService,
    private readonly peers: PeerClient,
  ) {}

  /** Runs a write, wherever `_schemas` is led, and answers once this broker's copy has it. */
  async execute(command: RegistryCommand): Promise<JsonValue> {
    await this.ensureTopic();
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.route(command);
        if (!(await this.store.waitFor(result.offset, APPLY_WAIT_MS))) {
          throw registryErrors.timeout(
            `The write was made, but this broker's copy of the registry did not apply it within ${APPLY_WAIT_MS} ms.`,
          );
        }
        return result.response;
      } catch (error) {
        const stale = error instanceof BrookError && STALE_ROUTE_CODES.has(error.errorCode);
        if (!stale || attempt >= ROUTING_ATTEMPTS_MAX) throw error;
        await sleep(this.clock, ROUTING_BACKOFF_MS);
        await this.metadata.reload();
      }
    }
  }

  /** Runs a command forwarded by another broker: here, as the leader, or refused (40404) when this broker is not. */
  executeAsLeader(command: RegistryCommand): Promise<CommandResult> {
    return this.writer.execute(command);
  }

  private async route(command: RegistryCommand): Promise<CommandResult> {
    const leader = this.leader();
    if (leader === this.config.brokerId) return this.writer.execute(command);
    const url = await this.peers.brokerUrl(leader);
    if (url === null)
      throw errors.retriable(`The leader of ${SCHEMAS_TOPIC_NAME}, broker ${leader}, is not available.`);
    let response: PeerAnswer;
    try {
      response = await this.peers.call(url, {
        method: 'POST',
        path: SCHEMA_COMMANDS_PATH,
        json: command,
        timeoutMs: PEER_REQUEST_TIMEOUT_MS + APPLY_WAIT_MS * 2,
      });
    } catch (error) {
      if (!(error instanceof PeerUnreachableError)) throw error;
      throw errors.retriable(`Error while forwarding the request to the registry's leader: ${error.message}`);
    }
    return (await response.json()) as CommandResult;
  }

  /** The broker leading `_schemas` partition 0, once it has one (waits up to TOPIC_READY_WAIT_MS). */
  private leader(): number {
    const state = this.metadata.topic(SCHEMAS_TOPIC_NAME)?.states[0];
    if (state === undefined || state.leader === NO_LEADER) {
      throw errors.retriable(`${SCHEMAS_TOPIC_NAME} has no leader now; retry.`);
    }
    return state.leader;
  }

  /** Creates `_schemas` when it does not exist yet, and waits until it has a leader. */
  private async ensureTopic(): Promise<void> {
    if (this.metadata.topic(SCHEMAS_TOPIC_NAME) === undefined) {
      this.creating ??= this.create().finally(() => (this.creating = null));
      await this.creating;
    }
    const deadline = this.clock.monotonicMs() + TOPIC_READY_WAIT_MS;
    for (;;) {
      const state = this.metadata.topic(SCHEMAS_TOPIC_NAME)?.states[0];
      if (state !== undefined && state.leader !== NO_LEADER) return;
      if (this.clock.monotonicMs() >= deadline) {
        throw errors.retriable(`${SCHEMAS_TOPIC_NAME} has no leader yet (waited ${TOPIC_READY_WAIT_MS} ms); retry.`);
      }
      await sleep(this.clock, TOPIC_READY_POLL_MS);
      await this.metadata.reload();
    }
  }

  private async create(): Promise<void> {
    const replicationFactor = this.config.groups.offsetsTopicReplicationFactor;
    try {
      await this.controller.createTopic({
        name: SCHEMAS_TOPIC_NAME,
        partitions: 1,
        replicationFactor,
        configs: [{ name: 'cleanup.policy', value: 'compact' }],
        internal: true,
      });
    } catch (error) {
      if (!(error instanceof BrookError && error.errorCode === 40002)) throw error;
      if (this.metadata.topic(SCHEMAS_TOPIC_NAME) !== undefined) return; // created meanwhile
      throw errors.retriable(
        `${SCHEMAS_TOPIC_NAME} cannot be created yet (offsets.topic.replication.factor is ${replicationFactor}): ${error.message}`,
      );
    }
  }
}
