// Model-based property test of the producer state inside a real PartitionLog on disk: random idempotent appends
// (the next sequence, duplicates of retained and of forgotten batches, gaps, older and newer epochs, idempotency
// keys reused with another body, several in one tick), plain appends, truncations, retention, clean and crash
// reopens and rolls (small segments, so snapshots are written and read). A plain model keeps every batch of the
// log and derives each producer's state from them the simplest way; after every command the log's decisions, the
// offsets of duplicates and its whole producer state must match it. BROOK_SOAK=1 runs many more sequences.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, T0 } from '../../test/support/log-fixtures.js';
import { ManualClock } from '../common/clock.js';
import { FileHandlePool } from './file-handle-pool.js';
import { logConfig, type LogConfig } from './log-config.js';
import { ProducerStateError } from './log-errors.js';
import { PartitionLog, type AppendInfo } from './partition-log.js';
import {
  BATCHES_RETAINED_PER_PRODUCER,
  incrementSequence,
  inSequence,
  isKeyProducer,
  KEY_PRODUCER_ID_BASE,
  producerKeyOf,
  type ProducerKey,
} from './producer-state.js';
import { encodeBatch } from './record-batch.js';

const NUM_RUNS = process.env.BROOK_SOAK === '1' ? 500 : 40;
const MAX_COMMANDS = 40;
const PROPERTY_TIMEOUT_MS = 240_000;
const KEY_ID = KEY_PRODUCER_ID_BASE + 99;

// ---- the model ----

interface ModelBatch {
  key: ProducerKey | null; // null: a batch without a producer id
  producerId: number;
  epoch: number;
  firstSequence: number;
  lastSequence: number;
  firstOffset: number;
  lastOffset: number;
}

interface Model {
  batches: ModelBatch[];
  logStart: number;
  logEnd: number;
  /** A producer's batches below this offset were forgotten (retention deleted its last batch). */
  forgottenBefore: Map<ProducerKey, number>;
}

interface ModelEntry {
  epoch: number;
  batches: ModelBatch[];
}

/** A producer's state as the rules define it: its last epoch, and the last five batches of its last epoch run. */
function modelEntry(model: Model, key: ProducerKey): ModelEntry | undefined {
  const from = model.forgottenBefore.get(key) ?? 0;
  const mine = model.batches.filter((batch) => batch.key === key && batch.firstOffset >= from);
  if (mine.length === 0) return undefined;
  const epoch = mine[mine.length - 1].epoch;
  let start = mine.length - 1;
  while (start > 0 && mine[start - 1].epoch === epoch) start--;
  return { epoch, batches: mine.slice(start).slice(-BATCHES_RETAINED_PER_PRODUCER) };
}

/** Kafka's truncateHead: producers whose last batch lies below the log start are forgotten (retention, truncation, load). */
function forgetBelowStart(model: Model): void {
  const keys = new Set(model.batches.flatMap((batch) => (batch.key === null ? [] : [batch.key])));
  for (const key of keys) {
    const entry = modelEntry(model, key);
    if (entry !== undefined && entry.batches[entry.batches.length - 1].lastOffset < model.logStart) {
      model.forgottenBefore.set(key, model.logStart);
    }
  }
}

type Expected = { outcome: 'append' } | { outcome: 'duplicate'; of: ModelBatch } | { outcome: string };

function expectedOutcome(model: Model, batch: ModelBatch, sequenceGaps: boolean): Expected {
  const entry = modelEntry(model, batch.key!);
  if (entry === undefined) return { outcome: 'append' };
  const same = entry.batches.find(
    (kept) => kept.firstSequence === batch.firstSequence && kept.lastSequence === batch.lastSequence,
  );
  if (entry.epoch === batch.epoch && same !== undefined) return { outcome: 'duplicate', of: same };
  if (isKeyProducer(batch.producerId)) return { outcome: 'IDEMPOTENCY_KEY_REUSED' };
  if (batch.epoch < entry.epoch) return { outcome: 'INVALID_PRODUCER_EPOCH' };
  const last = entry.batches[entry.batches.length - 1].lastSequence;
  if (batch.epoch > entry.epoch) {
    return batch.firstSequence === 0 || sequenceGaps
      ? { outcome: 'append' }
      : { outcome: 'OUT_OF_ORDER_SEQUENCE_NUMBER' };
  }
  if (inSequence(last, batch.firstSequence) || (sequenceGaps && batch.firstSequence > last)) {
    return { outcome: 'append' };
  }
  return { outcome: 'OUT_OF_ORDER_SEQUENCE_NUMBER' };
}

interface Real {
  dir: string;
  config: LogConfig;
  clock: ManualClock;
  pool: FileHandlePool;
  log: PartitionLog;
}

/** The whole producer state of the log must be the model's. */
function checkAgreement(model: Model, real: Real): void {
  expect(real.log.logEndOffset).toBe(model.logEnd);
  const keys = new Set(model.batches.flatMap((batch) => (batch.key === null ? [] : [batch.key])));
  const expected = [...keys]
    .map((key) => ({ key, entry: modelEntry(model, key) }))
    .filter(({ entry }) => entry !== undefined)
    .map(({ key, entry }) => ({
      key: String(key),
      epoch: entry!.epoch,
      batches: entry!.batches.map(({ firstSequence, lastSequence, firstOffset, lastOffset }) => ({
        firstSequence,
        lastSequence,
        firstOffset,
        lastOffset,
      })),
    }));
  const actual = [...real.log.producerState.all()].map((entry) => ({
    key: String(producerKeyOf(entry.producerId, entry.epoch)),
    epoch: entry.epoch,
    batches: entry.batches.map(({ firstSequence, lastSequence, firstOffset, lastOffset }) => ({
      firstSequence,
      lastSequence,
      firstOffset,
      lastOffset,
    })),
  }));
  const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);
  expect(actual.sort(byKey)).toEqual(expected.sort(byKey));
}

// ---- commands ----

/** Which producer, and how its epoch and sequence relate to its state when the command runs. */
interface AppendSpec {
  producer: 'none' | 1 | 2 | 'key-a' | 'key-b';
  epoch: 'same' | 'older' | 'newer' | 'zero';
  sequence: 'next' | 'duplicate' | 'forgotten-duplicate' | 'gap' | 'zero' | 'back';
  count: number;
  sequenceGaps: boolean;
  /** For keys: which body (the base sequence is a digest of it). */
  body: number;
}

/** The producer fields of the batch `spec` describes, and its record count (a duplicate repeats the original's). */
function resolve(model: Model, spec: AppendSpec): Omit<ModelBatch, 'firstOffset' | 'lastOffset'> & { count: number } {
  if (spec.producer === 'none') {
    return { key: null, producerId: -1, epoch: -1, firstSequence: -1, lastSequence: -1, count: spec.count };
  }
  if (spec.producer === 'key-a' || spec.producer === 'key-b') {
    const epoch = spec.producer === 'key-a' ? 3 : 4; // two keys whose ids collide
    const first = 1000 + spec.body;
    return {
      key: producerKeyOf(KEY_ID, epoch),
      producerId: KEY_ID,
      epoch,
      firstSequence: first,
      lastSequence: incrementSequence(first, spec.count - 1),
      count: spec.count,
    };
  }
  const producerId = spec.producer;
  const key = producerKeyOf(producerId, 0);
  const entry = modelEntry(model, key);
  const current = entry?.epoch ?? 0;
  const epoch = { same: current, older: Math.max(0, current - 1), newer: current + 1, zero: 0 }[spec.epoch];
  const last = entry?.batches.at(-1)?.lastSequence ?? -1;
  const all = model.batches.filter((batch) => batch.key === key);
  const pick = (batches: ModelBatch[]) => batches[spec.body % Math.max(1, batches.length)];
  const duplicate = spec.sequence === 'duplicate' ? pick(entry?.batches ?? []) : undefined;
  const forgotten =
    spec.sequence === 'forgotten-duplicate' ? pick(all.slice(0, -BATCHES_RETAINED_PER_PRODUCER)) : undefined;
  const original = duplicate ?? forgotten;
  if (original !== undefined) {
    return {
      key,
      producerId,
      epoch: original.epoch,
      firstSequence: original.firstSequence,
      lastSequence: original.lastSequence,
      count: original.lastOffset - original.firstOffset + 1,
    };
  }
  const first = {
    next: last + 1,
    duplicate: last + 1,
    'forgotten-duplicate': last + 1,
    gap: last + 2 + (spec.body % 3),
    zero: 0,
    back: Math.max(0, last - 1),
  }[spec.sequence];
  return {
    key,
    producerId,
    epoch,
    firstSequence: first,
    lastSequence: incrementSequence(first, spec.count - 1),
    count: spec.count,
  };
}

/** Several appends in one tick: queued together, checked in queue order. */
class AppendCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly specs: AppendSpec[]) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const planned: Array<{ batch: ModelBatch; expected: Expected; spec: AppendSpec }> = [];
    const calls: Array<Promise<AppendInfo>> = [];
    /** Batches appended by this command: still queued (unanswered) while the later ones of the tick are checked. */
    const queued = new Set<ModelBatch>();
    for (const spec of this.specs) {
      const { count, ...fields } = resolve(model, spec);
      const batch: ModelBatch = { ...fields, firstOffset: model.logEnd, lastOffset: model.logEnd + count - 1 };
      let expected: Expected =
        fields.key === null ? { outcome: 'append' } : expectedOutcome(model, batch, spec.sequenceGaps);
      // An idempotency key's retry while its first request is still queued is refused, not kept waiting (40906).
      const keyed = spec.producer === 'key-a' || spec.producer === 'key-b';
      if (keyed && expected.outcome === 'duplicate' && queued.has((expected as { of: ModelBatch }).of)) {
        expected = { outcome: 'IDEMPOTENCY_KEY_IN_FLIGHT' };
      }
      if (expected.outcome === 'append') {
        queued.add(batch);
        model.batches.push(batch);
        model.logEnd += count;
      }
      planned.push({ batch, expected, spec });
      const records = Array.from({ length: count }, (_, i) => ({
        key: null,
        value: Buffer.from(`v${i}`),
        timestamp: real.clock.nowMs(),
      }));
      const encoded = encodeBatch(
        records,
        fields.key === null
          ? {}
          : { producerId: fields.producerId, producerEpoch: fields.epoch, baseSequence: fields.firstSequence },
      );
      calls.push(
        (async () => real.log.appendAsLeader(encoded, 0, { keyProducers: true, sequenceGaps: spec.sequenceGaps }))(),
      );
    }
    const outcomes = await Promise.allSettled(calls);
    outcomes.forEach((outcome, i) => {
      const { batch, expected } = planned[i];
      if (expected.outcome === 'append' || expected.outcome === 'duplicate') {
        expect(outcome.status).toBe('fulfilled');
        const info = (outcome as PromiseFulfilledResult<AppendInfo>).value;
        const of = expected.outcome === 'duplicate' ? (expected as { of: ModelBatch }).of : batch;
        expect({ first: info.firstOffset, last: info.lastOffset, duplicate: info.duplicate === true }).toEqual({
          first: of.firstOffset,
          last: of.lastOffset,
          duplicate: expected.outcome === 'duplicate',
        });
      } else {
        expect(outcome.status).toBe('rejected');
        const reason = (outcome as PromiseRejectedResult).reason as unknown;
        expect(reason).toBeInstanceOf(ProducerStateError);
        expect((reason as ProducerStateError).kind).toBe(expected.outcome);
      }
    });
    real.clock.advance(1);
    checkAgreement(model, real);
  }
  toString = () => `append(${this.specs.map((spec) => JSON.stringify(spec)).join(', ')})`;
}

class TruncateCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly at: number) {}
  check = (model: Readonly<Model>) => model.batches.length > 0;
  async run(model: Model, real: Real): Promise<void> {
    const boundaries = model.batches.filter((batch) => batch.firstOffset >= model.logStart);
    const cut = boundaries[Math.floor(this.at * boundaries.length)] ?? boundaries[boundaries.length - 1];
    if (cut === undefined) return;
    await real.log.truncateTo(cut.firstOffset);
    if (cut.firstOffset <= model.logStart) {
      // nothing of the log remains: it starts again, empty, at the cut (truncateFullyAndStartAt)
      model.batches = [];
      model.forgottenBefore.clear();
      model.logStart = cut.firstOffset;
    } else {
      model.batches = model.batches.filter((batch) => batch.firstOffset < cut.firstOffset);
      forgetBelowStart(model);
    }
    model.logEnd = cut.firstOffset;
    checkAgreement(model, real);
  }
  toString = () => `truncate(${this.at.toFixed(2)})`;
}

class RetentionCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly keepBytes: number) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    real.config = { ...real.config, retentionBytes: this.keepBytes };
    real.log.updateConfig(real.config);
    await real.log.applyRetention(model.logEnd);
    const start = real.log.logStartOffset;
    if (start > model.logStart) {
      model.logStart = start;
      forgetBelowStart(model);
    }
    real.config = { ...real.config, retentionBytes: -1 };
    real.log.updateConfig(real.config);
    checkAgreement(model, real);
  }
  toString = () => `retention(${this.keepBytes})`;
}

class ReopenCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly crash: boolean) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    if (this.crash) {
      await real.log.rolledSegmentFlushed(); // the crash comes after the flush a roll left behind (LocalLog.roll)
      const abandoned = real.pool;
      real.pool = new FileHandlePool(8);
      real.log = await PartitionLog.open(real.dir, real.config, { clock: real.clock, pool: real.pool });
      await abandoned.closeAll();
    } else {
      await real.log.close();
      real.log = await PartitionLog.open(real.dir, real.config, { clock: real.clock, pool: real.pool });
    }
    checkAgreement(model, real);
  }
  toString = () => (this.crash ? 'crashReopen' : 'reopen');
}

const appendSpec: fc.Arbitrary<AppendSpec> = fc.record({
  producer: fc.constantFrom<AppendSpec['producer']>('none', 1, 1, 2, 'key-a', 'key-b'),
  epoch: fc.constantFrom<AppendSpec['epoch']>('same', 'same', 'same', 'older', 'newer', 'zero'),
  sequence: fc.constantFrom<AppendSpec['sequence']>(
    'next',
    'next',
    'duplicate',
    'forgotten-duplicate',
    'gap',
    'zero',
    'back',
  ),
  count: fc.integer({ min: 1, max: 3 }),
  sequenceGaps: fc.boolean(),
  body: fc.integer({ min: 0, max: 2 }),
});

const commandArbitraries = [
  fc.array(appendSpec, { minLength: 1, maxLength: 4 }).map((specs) => new AppendCommand(specs)),
  fc.array(appendSpec, { minLength: 1, maxLength: 4 }).map((specs) => new AppendCommand(specs)),
  fc.array(appendSpec, { minLength: 1, maxLength: 4 }).map((specs) => new AppendCommand(specs)),
  fc.integer({ min: 0, max: 99 }).map((n) => new TruncateCommand(n / 100)),
  fc.integer({ min: 0, max: 1500 }).map((bytes) => new RetentionCommand(bytes)),
  fc.boolean().map((crash) => new ReopenCommand(crash)),
];

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeDir));
});

describe('the producer state of a PartitionLog against a model', () => {
  it(
    'decides every idempotent append as the rules say and holds the same state, through truncations, retention and restarts',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 200, max: 800 }),
          fc.commands(commandArbitraries, { maxCommands: MAX_COMMANDS, size: 'max' }),
          async (segmentBytes, commands) => {
            const dir = await makeTempDir('brook-producer-state-');
            dirs.push(dir);
            const clock = new ManualClock(T0);
            const config = logConfig({ segmentBytes, retentionMs: -1, retentionBytes: -1 });
            const pool = new FileHandlePool(8);
            const real: Real = { dir, config, clock, pool, log: await PartitionLog.open(dir, config, { clock, pool }) };
            const model: Model = { batches: [], logStart: 0, logEnd: 0, forgottenBefore: new Map() };
            try {
              await fc.asyncModelRun(() => ({ model, real }), commands);
            } finally {
              await real.log.close().catch(() => undefined);
              await real.pool.closeAll();
              await removeDir(dir);
            }
          },
        ),
        { numRuns: NUM_RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
