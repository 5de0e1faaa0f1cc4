// The one place where the registry is written: the broker leading `_schemas` partition 0 runs every command, one
// at a time (registry-commands.ts decides; this file does the I/O around it):
//   1. wait until this broker's copy holds everything its log holds, committed (a new leader may still have
//      records of its predecessor above its high watermark): decisions then see every earlier write;
//   2. decide; a new schema id comes from the coordination store's counter, raised above the highest id this
//      broker knows (SchemaStore.floorId), so ids stay unique and are never handed out twice, even after the store
//      lost its data;
//   3. append the records with acks=all, stamped with the leader epoch of step 1: a broker deposed meanwhile
//      appends nothing (or nothing that commits), so two brokers never decide on one schema;
//   4. wait until the copy has applied them, and answer with the offset after them.
// Two registrations of one schema therefore get one id, whichever brokers they arrive on.
import { Inject, Injectable } from '@nestjs/common';
import { sleep, systemClock, type Clock } from '../../common/clock.js';
import { errors } from '../../common/brook-error.js';
import { CoordinationStore } from '../../coordination/coordination-store.js';
import { SCHEMA_ID_COUNTER_KEY } from '../../coordination/cluster-keys.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { encodeBatch } from '../../partition-log/record-batch.js';
import { ReplicaManager } from '../../replication/replica-manager.service.js';
import { SCHEMAS_TOPIC_NAME } from '../../topic/topic-name.js';
import type { JsonValue } from './parsed-schema.js';
import { decide, type DecisionContext, type Outcome, type RegistryCommand } from './registry-commands.js';
import { registryErrors } from './registry-errors.js';
import { encodeRegistryRecord } from './registry-records.js';
import { SchemaStore } from './schema-store.service.js';

/** Commands waiting for the writer, at most; more are refused with 429. */
const QUEUED_COMMANDS_MAX = 256;
/** How long a command waits for this broker's copy to catch up with its log, before and after writing. */
const CATCH_UP_WAIT_MS = 10_000;
/** The pause between looks at a high watermark still below the log end. */
const CATCH_UP_POLL_MS = 20;
/** Schema ids are Java ints. */
const SCHEMA_ID_MAX = 0x7fff_ffff;

export interface CommandResult {
  readonly response: JsonValue;
  /** The copy has applied `_schemas` up to here (exclusive) once this answer is given. */
  readonly offset: number;
}

@Injectable()
export class SchemaWriter {
  private chain: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private readonly clock: Clock = systemClock;

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly store: SchemaStore,
    private readonly replicas: ReplicaManager,
    private readonly coordination: CoordinationStore,
  ) {}

  /** Runs a command here; refuses (40404, nothing written) when this broker does not lead `_schemas`. */
  async execute(command: RegistryCommand): Promise<CommandResult> {
    if (this.queued >= QUEUED_COMMANDS_MAX) {
      throw errors.tooManyRequests(`${QUEUED_COMMANDS_MAX} schema registry writes are already waiting.`);
    }
    this.queued++;
    const run = this.chain.then(() => this.executeNow(command));
    this.chain = run.catch(() => undefined);
    try {
      return await run;
    } finally {
      this.queued--;
    }
  }

  private async executeNow(command: RegistryCommand): Promise<CommandResult> {
    const leaderEpoch = await this.catchUp();
    const decision = decide(this.store.state, command, this.decisionContext());
    const outcome: Outcome = decision.kind === 'done' ? decision : decision.complete(await this.allocateId());
    if (outcome.records.length === 0) return { response: outcome.response, offset: this.store.appliedOffset() };
    const timestamp = this.clock.nowMs();
    const batch = encodeBatch(outcome.records.map((record) => ({ ...encodeRegistryRecord(record), timestamp })));
    const info = await this.replicas.produce(SCHEMAS_TOPIC_NAME, 0, batch, 'all', { expectedLeaderEpoch: leaderEpoch });
    const offset = info === null ? this.store.appliedOffset() : info.lastOffset + 1;
    if (!(await this.store.waitFor(offset, CATCH_UP_WAIT_MS))) {
      throw registryErrors.timeout(`The write to ${SCHEMAS_TOPIC_NAME} was not applied within ${CATCH_UP_WAIT_MS} ms.`);
    }
    return { response: outcome.response, offset };
  }

  /** Waits until this broker's copy holds its whole log, committed; returns the leader epoch it checked. */
  private async catchUp(): Promise<number> {
    const deadline = this.clock.monotonicMs() + CATCH_UP_WAIT_MS;
    for (;;) {
      const { log, leaderEpoch } = this.replicas.leaderLog(SCHEMAS_TOPIC_NAME, 0);
      const end = log.logEndOffset;
      if (this.replicas.highWatermarkAtLogEnd(SCHEMAS_TOPIC_NAME, 0) && this.store.appliedOffset() >= end) {
        return leaderEpoch;
      }
      const remaining = deadline - this.clock.monotonicMs();
      if (remaining <= 0) {
        throw registryErrors.timeout(
          `This broker's copy of ${SCHEMAS_TOPIC_NAME} did not catch up with its log within ${CATCH_UP_WAIT_MS} ms.`,
        );
      }
      const pause = Math.min(remaining, CATCH_UP_POLL_MS);
      // the copy waits for the high watermark too, so it is behind or it is the high watermark that is
      if (this.store.appliedOffset() < end) await this.store.waitFor(end, pause);
      else await sleep(this.clock, pause);
    }
  }

  private async allocateId(): Promise<number> {
    const id = await this.coordination.raiseCounterAbove(SCHEMA_ID_COUNTER_KEY, this.store.floorId());
    if (id > SCHEMA_ID_MAX) throw registryErrors.operationNotPermitted('Every schema id up to 2^31-1 is taken.');
    return id;
  }

  private decisionContext(): DecisionContext {
    const { store } = this;
    return {
      parse: (input) => store.parse(input),
      parsedVersion: (value) => {
        const parsed = store.parsedById(value.id);
        if (parsed === undefined) throw errors.kafkaError(`Schema ${value.id} is missing from the registry.`);
        return parsed;
      },
      schemaBytesMax: this.config.schemaRegistry.schemaBytesMax,
      versionsMax: this.config.schemaRegistry.versionsMax,
    };
  }
}
