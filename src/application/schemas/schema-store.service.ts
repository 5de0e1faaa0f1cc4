// Every broker's copy of the schema registry: the replay of `_schemas` partition 0 (registry-records.ts), kept up
// to date by reading the topic as a consumer does, from its leader (here or forwarded), in a long-polling loop.
// Only records below the high watermark are read, so the copy never shows a write that could still be lost.
//   - waitFor(offset): resolves once the copy has applied every record before `offset` (read-your-writes: a write
//     answers with the offset after its records, and the broker that forwarded it waits for that offset first).
//   - sync(): the read barrier; asks the leader for its high watermark and waits for the copy to reach it, so a
//     read on any broker sees every write acknowledged before the read began. Bounded and best effort: with no
//     leader to ask, or no progress within SYNC_WAIT_MS, the copy answers as it is.
//   - parsedById(id): the parsed schema of an id (parsing is the costly part: at most PARSED_SCHEMAS_MAX are kept,
//     least recently used dropped).
// The highest schema id this broker has seen is kept in its data dir (schema-registry.json), like the highest
// controller epoch: the id allocator never hands out an id at or below it, even after the coordination store
// came back empty and compaction removed the records that held the highest ids.
import { Inject, Injectable, Logger, OnApplicationShutdown, Optional } from '@nestjs/common';
import { join } from 'node:path';
import { BrookError, errors } from '../../common/brook-error.js';
import { readFileIfPresent, writeFileAtomic } from '../../common/atomic-file.js';
import { type CancelTimer, type Clock, CLOCK, sleep, systemClock } from '../../common/clock.js';
import { outsideRequest } from '../../common/request-context.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { batchesIn, decodeRecords } from '../../partition-log/record-batch.js';
import { PartitionRouter } from '../../replication/partition-router.service.js';
import { MetadataCache } from '../../topic/metadata-cache.service.js';
import { SCHEMAS_TOPIC_NAME } from '../../topic/topic-name.js';
import type { ParsedSchema } from './parsed-schema.js';
import { parseSchema } from './parse-schema.js';
import { decodeRegistryRecord, RegistryRecordFormatError } from './registry-records.js';
import { RegistryState } from './registry-state.js';
import { errorText } from './schema-errors.js';
import type { SchemaInput, SchemaReferenceResolver } from './schema-types.js';

/** Bytes read from `_schemas` per step of the loop. */
const READ_BYTES_MAX = 4 * 1024 * 1024;
/** How long one read of the loop waits at the leader for new records. */
const TAIL_WAIT_MS = 5_000;
/** The pause after a failed read, and the period at which a missing topic is looked for. */
const RETRY_MS = 500;
/** The most a read barrier waits for the copy to catch up. */
export const SYNC_WAIT_MS = 5_000;
/** Callers waiting for the copy to reach an offset, at most. */
const WAITERS_MAX = 10_000;
/** Parsed schemas kept by id. */
export const PARSED_SCHEMAS_MAX = 1_000;
const STATE_FILE = 'schema-registry.json';

interface Waiter {
  offset: number;
  resolve: (reached: boolean) => void;
  cancelTimer: CancelTimer;
}

@Injectable()
export class SchemaStore implements OnApplicationShutdown {
  private readonly logger = new Logger('SchemaRegistry');
  private current = new RegistryState();
  private nextOffset = 0;
  private waiters: Waiter[] = [];
  private readonly parsed = new Map<number, ParsedSchema>();
  private readonly stopping = new AbortController();
  private loop: Promise<void> | null = null;
  private persistedHighestId = 0;
  private persisting: Promise<void> | null = null;
  private lastWarning = '';

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly metadata: MetadataCache,
    private readonly router: PartitionRouter,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {}

  /** Loads the highest id seen and starts following `_schemas`. */
  async start(): Promise<void> {
    this.persistedHighestId = await readHighestId(join(this.config.dataDir, STATE_FILE));
    this.loop = outsideRequest(() => this.follow());
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    for (const waiter of this.waiters) {
      waiter.cancelTimer();
      waiter.resolve(false);
    }
    this.waiters = [];
    await this.loop;
    await this.persisting;
  }

  /** The registry as replayed so far. */
  get state(): RegistryState {
    return this.current;
  }

  /** The offset of `_schemas` up to which the copy has applied every record. */
  appliedOffset(): number {
    return this.nextOffset;
  }

  /** No schema id up to this may be handed out again. */
  floorId(): number {
    return Math.max(this.current.highestId(), this.persistedHighestId);
  }

  /** Resolves true once every record before `offset` is applied, false after timeoutMs (or on shutdown). */
  waitFor(offset: number, timeoutMs: number): Promise<boolean> {
    if (this.nextOffset >= offset) return Promise.resolve(true);
    if (this.stopping.signal.aborted || timeoutMs <= 0) return Promise.resolve(false);
    if (this.waiters.length >= WAITERS_MAX) {
      throw errors.tooManyRequests(`${WAITERS_MAX} requests already wait for the schema registry to catch up.`);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        offset,
        resolve,
        cancelTimer: this.clock.setTimer(timeoutMs, () => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(false);
        }),
      };
      this.waiters.push(waiter);
    });
  }

  /** The read barrier (see the header): waits until the copy has what the leader had committed when called. */
  async sync(): Promise<void> {
    if (this.metadata.topic(SCHEMAS_TOPIC_NAME) === undefined) return;
    let highWatermark: number;
    try {
      highWatermark = (await this.router.offsets(SCHEMAS_TOPIC_NAME, 0)).latest;
    } catch (error) {
      this.warn(`read barrier: the leader of ${SCHEMAS_TOPIC_NAME} did not answer (${errorText(error)})`);
      return;
    }
    if (!(await this.waitFor(highWatermark, SYNC_WAIT_MS))) {
      this.warn(`read barrier: the copy did not reach offset ${highWatermark} within ${SYNC_WAIT_MS} ms`);
    }
  }

  /** References resolved against the registry's subjects and versions. */
  readonly resolver: SchemaReferenceResolver = {
    resolve: (subject, version) => this.current.resolve(subject, version),
  };

  /** Parses a schema as given (its references resolved here); throws InvalidSchemaError. */
  parse(input: SchemaInput): ParsedSchema {
    return parseSchema(input, this.resolver);
  }

  /** The parsed schema of an id; undefined for an unknown id; a 50001 error when the stored text does not parse. */
  parsedById(id: number): ParsedSchema | undefined {
    const cached = this.parsed.get(id);
    if (cached !== undefined) {
      this.parsed.delete(id);
      this.parsed.set(id, cached);
      return cached;
    }
    const stored = this.current.schemaById(id);
    if (stored === undefined) return undefined;
    let schema: ParsedSchema;
    try {
      schema = this.parse(stored);
    } catch (error) {
      throw new BrookError(
        500,
        50001,
        `Error in the backend data store: schema ${id} does not parse: ${errorText(error)}`,
      );
    }
    this.parsed.set(id, schema);
    if (this.parsed.size > PARSED_SCHEMAS_MAX) this.parsed.delete(this.parsed.keys().next().value as number);
    return schema;
  }

  // ---- following the topic ----

  private async follow(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      if (this.metadata.topic(SCHEMAS_TOPIC_NAME) === undefined) {
        await sleep(this.clock, RETRY_MS, signal);
        continue;
      }
      try {
        const read = await this.router.read(SCHEMAS_TOPIC_NAME, 0, this.nextOffset, {
          maxBytes: READ_BYTES_MAX,
          waitMs: TAIL_WAIT_MS,
          signal,
        });
        this.applyBatches(read.batches, read.nextOffset);
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof BrookError && error.errorCode === 40002) this.replayFromStart(error);
        else this.warn(`reading ${SCHEMAS_TOPIC_NAME}: ${errorText(error)}`);
        await sleep(this.clock, RETRY_MS, signal);
      }
    }
  }

  /** The leader no longer has the offset the copy reached (an unclean election truncated it): replay it all. */
  private replayFromStart(error: BrookError): void {
    this.logger.warn(`${SCHEMAS_TOPIC_NAME} does not hold offset ${this.nextOffset} (${error.message}); replaying it`);
    this.current = new RegistryState();
    this.parsed.clear();
    this.nextOffset = 0;
  }

  private applyBatches(batches: Buffer, nextOffset: number): void {
    let reached = this.nextOffset;
    for (const { header, position } of batchesIn(batches)) {
      for (const record of decodeRecords(batches.subarray(position, position + header.sizeBytes))) {
        if (record.offset < this.nextOffset || record.key === null) continue;
        try {
          this.current.apply(decodeRegistryRecord(record.key, record.value));
        } catch (error) {
          if (!(error instanceof RegistryRecordFormatError)) throw error;
          this.logger.warn(`skipping ${SCHEMAS_TOPIC_NAME}@${record.offset}: ${error.message}`);
        }
      }
      reached = Math.max(reached, header.baseOffset + header.lastOffsetDelta + 1);
    }
    this.nextOffset = Math.max(this.nextOffset, reached, nextOffset);
    this.wakeWaiters();
    if (this.current.highestId() > this.persistedHighestId) this.persistHighestId();
  }

  private wakeWaiters(): void {
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.offset <= this.nextOffset) {
        waiter.cancelTimer();
        waiter.resolve(true);
      } else still.push(waiter);
    }
    this.waiters = still;
  }

  /** Saves the highest id seen (one write at a time; a newer id is saved by the next). */
  private persistHighestId(): void {
    if (this.persisting !== null) return;
    const id = this.current.highestId();
    this.persisting = writeFileAtomic(join(this.config.dataDir, STATE_FILE), JSON.stringify({ highestSchemaId: id }))
      .then(
        () => {
          this.persistedHighestId = Math.max(this.persistedHighestId, id);
        },
        (error: unknown) => this.warn(`saving the highest schema id: ${errorText(error)}`),
      )
      .finally(() => {
        this.persisting = null;
        if (this.current.highestId() > this.persistedHighestId && !this.stopping.signal.aborted) {
          this.persistHighestId();
        }
      });
  }

  /** Logs a warning, but not the same one twice in a row (a leader away for a while repeats it every retry). */
  private warn(message: string): void {
    if (message === this.lastWarning) return;
    this.lastWarning = message;
    this.logger.warn(message);
  }
}

async function readHighestId(path: string): Promise<number> {
  const text = await readFileIfPresent(path);
  if (text === null) return 0;
  const id = (JSON.parse(text) as { highestSchemaId?: unknown }).highestSchemaId;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) {
    throw new Error(`${path} holds no valid highestSchemaId`);
  }
  return id;
}
