// Model-based property test of PartitionLog: random command sequences (appends, reads, truncations, clean and
// crash reopens, retention) run against the real log on disk and against a plain in-memory model, and after every
// command the two must agree. fast-check prints the seed and path of a failure; replay it with
// `fc.assert(..., { seed, path })`. BROOK_SOAK=1 runs many more sequences.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.js';
import { makeTempDir, readAll, removeDir, T0, batchesOf } from '../../test/support/log-fixtures.js';
import { FileHandlePool } from './file-handle-pool.js';
import { logConfig, type LogConfig } from './log-config.js';
import { OffsetOutOfRangeError } from './log-errors.js';
import { PartitionLog, type AppendInfo } from './partition-log.js';
import { encodeBatch, lastOffsetOf, type LogRecord, type RecordInput } from './record-batch.js';

const NUM_RUNS = process.env.BROOK_SOAK === '1' ? 1000 : 100;
const MAX_COMMANDS = 50;
/** 100 runs take ~15 s on an idle 2-core machine; allow for a machine shared with other work. */
const PROPERTY_TIMEOUT_MS = 240_000;

// ---- the model ----

interface ModelRecord {
  offset: number;
  batchBase: number;
  batchLast: number;
  input: RecordInput;
}

interface Model {
  records: ModelRecord[];
  logStart: number;
  logEnd: number;
  epochs: Array<{ epoch: number; startOffset: number }>;
  epoch: number;
}

interface Real {
  dir: string;
  config: LogConfig;
  clock: ManualClock;
  pool: FileHandlePool;
  log: PartitionLog;
}

function comparable(record: { offset: number; timestamp: number } & Pick<LogRecord, 'key' | 'value' | 'headers'>) {
  return {
    offset: record.offset,
    timestamp: record.timestamp,
    key: record.key === null ? null : Buffer.from(record.key).toString('hex'),
    value: record.value === null ? null : Buffer.from(record.value).toString('hex'),
    headers: (record.headers ?? []).map((header) => ({
      key: header.key,
      value: header.value === null ? null : Buffer.from(header.value).toString('hex'),
    })),
  };
}

function modelComparable(record: ModelRecord) {
  return comparable({
    offset: record.offset,
    timestamp: record.input.timestamp,
    key: record.input.key,
    value: record.input.value,
    headers: record.input.headers ?? [],
  });
}

function batchOfOffset(model: Model, offset: number): ModelRecord | undefined {
  return model.records.find((record) => record.batchBase <= offset && offset <= record.batchLast);
}

/** The checks after every command: offsets, the records a full read returns, the epochs. */
async function checkAgreement(model: Model, real: Real): Promise<void> {
  const { log } = real;
  expect(log.logEndOffset).toBe(model.logEnd);
  expect(log.logStartOffset).toBe(model.logStart);
  expect(log.epochs.all()).toEqual(model.epochs);
  const records = await readAll(log);
  expect(records.map(comparable)).toEqual(model.records.map(modelComparable));
  const summaries = log.segmentSummaries();
  expect(summaries.at(-1)?.endOffset).toBe(model.logEnd);
  for (let i = 1; i < summaries.length; i++)
    expect(summaries[i].baseOffset).toBeGreaterThan(summaries[i - 1].baseOffset);
}

// ---- commands ----

const recordArbitrary: fc.Arbitrary<RecordInput> = fc.record({
  key: fc.option(
    fc.uint8Array({ maxLength: 8 }).map((bytes) => Buffer.from(bytes)),
    { nil: null },
  ),
  value: fc.option(
    fc.uint8Array({ maxLength: 120 }).map((bytes) => Buffer.from(bytes)),
    { nil: null, freq: 10 },
  ),
  timestamp: fc.integer({ min: T0 - 1_000_000, max: T0 + 1_000_000 }),
  headers: fc.array(
    fc.record({
      key: fc.string({ maxLength: 6 }),
      value: fc.option(
        fc.uint8Array({ maxLength: 6 }).map((bytes) => Buffer.from(bytes)),
        { nil: null },
      ),
    }),
    { maxLength: 2 },
  ),
});

class AppendCommand implements fc.AsyncCommand<Model, Real> {
  /**
   * More than one batch: appended in the same tick (one drain, one write per segment). A batch marked corrupt has
   * one byte of its CRC-covered range flipped: it must be refused and take no offset, and the batches queued with
   * it must still get dense offsets (the log checks CRCs while it writes, then renumbers what follows).
   */
  constructor(
    readonly batches: RecordInput[][],
    readonly newEpoch: boolean,
    readonly corrupt: boolean[],
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    if (this.newEpoch) model.epoch++;
    const epoch = model.epoch;
    const outcomes = await Promise.allSettled(
      this.batches.map((records, i) => {
        const batch = encodeBatch(records);
        if (this.corrupt[i]) batch[batch.length - 1] ^= 0x5a;
        return real.log.appendAsLeader(batch, epoch);
      }),
    );
    for (let i = 0; i < this.batches.length; i++) {
      const outcome = outcomes[i];
      if (this.corrupt[i]) {
        expect(outcome.status).toBe('rejected');
        expect(String((outcome as PromiseRejectedResult).reason)).toMatch(/CRC/);
        continue;
      }
      expect(outcome.status).toBe('fulfilled');
      const info = (outcome as PromiseFulfilledResult<AppendInfo>).value;
      const records = this.batches[i];
      const base = model.logEnd;
      expect(info.firstOffset).toBe(base); // never an offset already used, even after truncation
      expect(info.lastOffset).toBe(base + records.length - 1);
      const latest = model.epochs.at(-1);
      if (latest === undefined || epoch > latest.epoch) {
        model.epochs = model.epochs.filter((entry) => entry.startOffset < base);
        model.epochs.push({ epoch, startOffset: base });
      }
      records.forEach((input, j) =>
        model.records.push({ offset: base + j, batchBase: base, batchLast: base + records.length - 1, input }),
      );
      model.logEnd = base + records.length;
    }
    await checkAgreement(model, real);
  }
  toString = () =>
    `append(${this.batches.map((batch, i) => `${batch.length}${this.corrupt[i] ? ' corrupt' : ''}`).join('+')}${this.newEpoch ? ', new epoch' : ''})`;
}

class ReadCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly at: number,
    readonly maxBytes: number,
    readonly minOneBatch: boolean,
    readonly bound: number | null,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const span = model.logEnd - model.logStart;
    const offset = model.logStart + Math.round(this.at * span);
    const limit = this.bound === null ? model.logEnd : model.logStart + Math.round(this.bound * span);
    const { batches, nextOffset } = await real.log.read(offset, {
      maxBytes: this.maxBytes,
      minOneBatch: this.minOneBatch,
      maxOffsetExclusive: limit,
    });
    const read = batchesOf(batches); // whole batches only, or it throws
    const first = batchOfOffset(model, offset);
    if (read.length === 0) {
      expect(nextOffset).toBe(offset);
      const blocked = offset >= model.logEnd || first === undefined || first.batchLast >= limit || !this.minOneBatch;
      expect(blocked).toBe(true);
      return;
    }
    expect(first).toBeDefined();
    expect(read[0].header.baseOffset).toBe(first!.batchBase);
    if (read.length > 1 || !this.minOneBatch) expect(batches.length).toBeLessThanOrEqual(this.maxBytes);
    const records = read.flatMap((batch) => batch.records);
    const startIndex = model.records.findIndex((record) => record.offset === first!.batchBase);
    expect(records.map(comparable)).toEqual(
      model.records.slice(startIndex, startIndex + records.length).map(modelComparable),
    );
    for (const batch of read) expect(lastOffsetOf(batch.header)).toBeLessThan(limit);
    expect(nextOffset).toBe(lastOffsetOf(read.at(-1)!.header) + 1);
  }
  toString = () =>
    `read(${this.at.toFixed(3)}, ${this.maxBytes}, ${this.minOneBatch}, ${this.bound?.toFixed(3) ?? 'end'})`;
}

class ReadBelowStartCommand implements fc.AsyncCommand<Model, Real> {
  check = (model: Readonly<Model>) => model.logStart > 0;
  async run(model: Model, real: Real): Promise<void> {
    await expect(real.log.read(model.logStart - 1, { maxBytes: 1000 })).rejects.toBeInstanceOf(OffsetOutOfRangeError);
    await expect(real.log.read(model.logEnd + 1, { maxBytes: 1000 })).rejects.toBeInstanceOf(OffsetOutOfRangeError);
  }
  toString = () => 'readOutOfRange';
}

class TruncateCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly at: number) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    // Mostly near the end (as a follower truncates), sometimes deep, sometimes past the end.
    const offset = Math.floor((1 - this.at * this.at) * (model.logEnd + 3));
    await real.log.truncateTo(offset);
    if (offset >= model.logEnd) {
      // nothing to remove
    } else if (offset <= model.logStart) {
      model.records = [];
      model.logStart = offset;
      model.logEnd = offset;
      model.epochs = [];
    } else {
      const cut = model.records.find((record) => record.batchLast >= offset)!;
      model.logEnd = cut.batchBase;
      model.records = model.records.filter((record) => record.offset < model.logEnd);
      model.epochs = model.epochs.filter((entry) => entry.startOffset < model.logEnd);
    }
    await checkAgreement(model, real);
  }
  toString = () => `truncateTo(${this.at.toFixed(3)})`;
}

class ReopenCommand implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    await real.log.close();
    real.log = await PartitionLog.open(real.dir, real.config, { clock: real.clock, pool: real.pool });
    await checkAgreement(model, real);
  }
  toString = () => 'reopen';
}

/** The log object is dropped without close, as after kill -9; a fresh pool opens the folder again. */
class CrashReopenCommand implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    await real.log.rolledSegmentFlushed(); // the crash comes after the flush a roll left behind (LocalLog.roll)
    const abandonedPool = real.pool;
    real.pool = new FileHandlePool(8);
    real.log = await PartitionLog.open(real.dir, real.config, { clock: real.clock, pool: real.pool });
    await abandonedPool.closeAll(); // only the descriptors; nothing is written
    await checkAgreement(model, real);
  }
  toString = () => 'crashReopen';
}

class RetentionCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly retentionBytes: number,
    readonly highWatermark: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const span = model.logEnd - model.logStart;
    const highWatermark = model.logStart + Math.round(this.highWatermark * span);
    real.config = { ...real.config, retentionBytes: this.retentionBytes };
    real.log.updateConfig(real.config);
    const decision = await real.log.applyRetention(highWatermark);
    const start = real.log.logStartOffset;
    if (decision.deleteBaseOffsets.length === 0) {
      expect(start).toBe(model.logStart);
    } else {
      // Whole segments below the high watermark: the new start is a batch boundary at or below it.
      expect(start).toBeGreaterThan(model.logStart);
      expect(start).toBeLessThanOrEqual(highWatermark);
      expect(start === model.logEnd || model.records.some((record) => record.batchBase === start)).toBe(true);
      if (decision.reason === 'retention-bytes') expect(real.log.sizeBytes).toBeGreaterThanOrEqual(this.retentionBytes);
      model.records = model.records.filter((record) => record.offset >= start);
      const covering = model.epochs.filter((entry) => entry.startOffset <= start).at(-1);
      if (covering !== undefined) {
        model.epochs = [
          { epoch: covering.epoch, startOffset: start },
          ...model.epochs.filter((entry) => entry.startOffset > start),
        ];
      }
      model.logStart = start;
    }
    await checkAgreement(model, real);
  }
  toString = () => `retention(bytes=${this.retentionBytes}, hw=${this.highWatermark.toFixed(3)})`;
}

/** A position in [0, 1], resolved against the model's offsets when the command runs. */
const fraction = fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000);

/** About one batch in six is corrupt. */
const corruptArbitrary = fc.integer({ min: 0, max: 5 }).map((n) => n === 0);
const appendArbitrary = fc
  .tuple(
    fc.array(fc.tuple(fc.array(recordArbitrary, { minLength: 1, maxLength: 6 }), corruptArbitrary), {
      minLength: 1,
      maxLength: 4,
    }),
    fc.boolean(),
  )
  .map(
    ([batches, newEpoch]) =>
      new AppendCommand(
        batches.map(([records]) => records),
        newEpoch,
        batches.map(([, corrupt]) => corrupt),
      ),
  );

// Appends are listed three times so that logs grow past several segments between truncations.
const commandArbitraries = [
  appendArbitrary,
  appendArbitrary,
  appendArbitrary,
  fc
    .tuple(fraction, fc.integer({ min: 0, max: 2000 }), fc.boolean(), fc.option(fraction, { nil: null }))
    .map(([at, maxBytes, minOneBatch, bound]) => new ReadCommand(at, maxBytes, minOneBatch, bound)),
  fc.constant(new ReadBelowStartCommand()),
  fraction.map((at) => new TruncateCommand(at)),
  fc.constant(new ReopenCommand()),
  fc.constant(new CrashReopenCommand()),
  fc
    .tuple(fc.integer({ min: 0, max: 4000 }), fraction)
    .map(([bytes, highWatermark]) => new RetentionCommand(bytes, highWatermark)),
];

const settingsArbitrary = fc.record({
  segmentBytes: fc.integer({ min: 150, max: 1500 }),
  indexIntervalBytes: fc.integer({ min: 1, max: 400 }),
  segmentIndexBytes: fc.integer({ min: 8, max: 200 }),
});

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeDir));
});

describe('PartitionLog against an in-memory model', () => {
  it(
    'agrees after every command of random sequences',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          settingsArbitrary,
          fc.commands(commandArbitraries, { maxCommands: MAX_COMMANDS, size: 'max' }),
          async (settings, commands) => {
            const dir = await makeTempDir('brook-log-property-');
            dirs.push(dir);
            const clock = new ManualClock(T0);
            const config = logConfig({ ...settings, retentionMs: -1, retentionBytes: -1 });
            const pool = new FileHandlePool(8);
            const real: Real = { dir, config, clock, pool, log: await PartitionLog.open(dir, config, { clock, pool }) };
            const model: Model = { records: [], logStart: 0, logEnd: 0, epochs: [], epoch: 0 };
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
