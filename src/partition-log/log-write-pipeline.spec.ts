// Writes in flight (log-write-pipeline.ts), on real files: the segment writes are held by a gate standing in for
// segment-append-write.ts and land (the real check-and-write job) in an order the test picks. Checked against a
// model: at most WRITES_IN_FLIGHT_MAX in flight; answers in offset order, dense, only below the log end; the log
// reading back whole, equal to the good batches in the order they came, after every completion; a batch with a bad
// CRC refused, even with writes behind it in flight that landed above the hole it leaves, and the good batches of
// its write and of those behind it renumbered; at the end the file holds exactly the answered batches.
import fc from 'fast-check';
import { stat } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchOfValues, harness, makeTempDir, readAll, removeDir } from '../../test/support/log-fixtures.js';
import { collectGarbage } from '../../test/support/retained-bytes.js';
import type { AppendInfo } from './append-queue.js';
import { WRITES_IN_FLIGHT_MAX } from './log-write-pipeline.js';
import type { PartitionLog } from './partition-log.js';
import { encodeBatch } from './record-batch.js';
import type { CheckedWrite } from './segment-append-write.js';
import { logFilePath } from './segment-files.js';

type RealWrite = typeof import('./segment-append-write.js').writeCheckedBatches;

interface HeldWrite {
  position: number;
  bytes: number;
  land: () => Promise<CheckedWrite>;
  resolve: (write: CheckedWrite) => void;
}

const gate = { holding: false, held: [] as HeldWrite[], maxInFlight: 0 };

vi.mock('./segment-append-write.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./segment-append-write.js')>();
  const writeCheckedBatches: RealWrite = (handle, path, buffers, position, unchecked, inline) => {
    const land = (): Promise<CheckedWrite> =>
      real.writeCheckedBatches(handle, path, buffers, position, unchecked, inline);
    if (!gate.holding) return land();
    const bytes = buffers.reduce((sum, buffer) => sum + buffer.length, 0);
    return new Promise<CheckedWrite>((resolve) => {
      gate.held.push({ position, bytes, land, resolve });
      gate.maxInFlight = Math.max(gate.maxInFlight, gate.held.length);
    });
  };
  return { ...real, writeCheckedBatches };
});

/** Lets the promise chains and the serial queue run (a few turns of the event loop). */
async function settle(): Promise<void> {
  for (let i = 0; i < 8; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Waits (real time: the log's file I/O runs in the thread pool) until `done` holds; fails after 5 s. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited++) {
    if (waited > 5000) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

async function landAll(): Promise<void> {
  gate.holding = false;
  for (const held of gate.held.splice(0)) held.resolve(await held.land());
}

/** A batch of `count` records whose last byte (inside the CRC's range) is flipped when `corrupt`. */
function batch(prefix: string, count: number, corrupt = false): Buffer {
  const bytes = batchOfValues(prefix, count);
  if (corrupt) bytes[bytes.length - 1] ^= 0x5a;
  return bytes;
}

let dir: string;
let log: PartitionLog | null = null;
beforeEach(async () => {
  dir = await makeTempDir();
  gate.holding = false;
  gate.held = [];
  gate.maxInFlight = 0;
});
afterEach(async () => {
  await landAll();
  await log?.close().catch(() => undefined);
  log = null;
  await removeDir(dir);
});

/** A fresh log with one batch ('first-0'): the first append starts the epoch and the segment on the serial queue. */
async function freshLog(): Promise<PartitionLog> {
  await landAll();
  await log?.close();
  await removeDir(dir);
  dir = await makeTempDir();
  gate.maxInFlight = 0;
  log = await harness(dir).open();
  await log.appendAsLeader(batch('first', 1), 0);
  return log;
}

interface Sent {
  prefix: string;
  count: number;
  corrupt: boolean;
  bytes: number;
  answer: AppendInfo | null;
  refusal: Error | null;
}

const valuesOfSent = (sent: Sent[]): string[] =>
  sent.flatMap((s) => (s.corrupt ? [] : Array.from({ length: s.count }, (_, i) => `${s.prefix}-${i}`)));

describe('LogWritePipeline: writes in flight with the CRC checked in each job', () => {
  it('completions in any order, refusals with writes behind them: answers in order below the log end, no hole answered, the log whole, good batches renumbered', async () => {
    let refusedWithLaterLanded = 0;
    let refusedWithLaterInFlight = 0;
    await fc.assert(
      fc.asyncProperty(
        // appends arriving tick by tick: how many records each, and whether its CRC is bad (about one in four)
        fc.array(
          fc.array(fc.record({ count: fc.integer({ min: 1, max: 4 }), corrupt: fc.nat({ max: 3 }) }), {
            minLength: 1,
            maxLength: 3,
          }),
          { minLength: 2, maxLength: 6 },
        ),
        // which held write lands next (an index into them, modulo their count)
        fc.array(fc.nat({ max: 7 }), { minLength: 20, maxLength: 20 }),
        async (ticks, picks) => {
          const real = await freshLog();
          const firstBytes = (await stat(logFilePath(dir, 0))).size;
          gate.holding = true;
          const sent: Sent[] = [];
          const answered: AppendInfo[] = [];
          let n = 0;
          for (const tick of ticks) {
            for (const { count, corrupt } of tick) {
              const bytes = batch(`r${n++}`, count, corrupt === 0);
              const entry: Sent = {
                prefix: `r${n - 1}`,
                count,
                corrupt: corrupt === 0,
                bytes: bytes.length,
                answer: null,
                refusal: null,
              };
              sent.push(entry);
              void real.appendAsLeader(bytes, 0).then(
                (info) => {
                  entry.answer = info;
                  answered.push(info);
                },
                (error: Error) => (entry.refusal = error),
              );
            }
            await settle();
          }
          const landedEnds: number[] = [];
          let pick = 0;
          const open = (): boolean => sent.some((s) => s.answer === null && s.refusal === null);
          while (open()) {
            await until(() => gate.held.length > 0 || !open());
            if (!open()) break;
            const [held] = gate.held.splice(picks[pick++ % picks.length] % gate.held.length, 1);
            const outcome = await held.land();
            if (outcome.corrupt.length > 0 && gate.held.some((later) => later.position > held.position)) {
              refusedWithLaterInFlight++;
            }
            if (outcome.corrupt.length > 0 && landedEnds.some((end) => end > held.position)) refusedWithLaterLanded++;
            if (outcome.corrupt.length === 0) landedEnds.push(held.position + held.bytes);
            held.resolve(outcome);
            await settle();
            // answers in offset order, dense from 1, each below the log end
            let next = 1;
            for (const info of answered) {
              expect(info.firstOffset).toBe(next);
              next = info.lastOffset + 1;
            }
            expect(real.logEndOffset).toBeGreaterThanOrEqual(next);
            // the log reads back whole up to its end (a hole would throw), and is the good batches in order
            const values = (await readAll(real)).map((record) => record.value?.toString());
            expect(values).toEqual(['first-0', ...valuesOfSent(sent)].slice(0, real.logEndOffset));
          }
          expect(gate.maxInFlight).toBeLessThanOrEqual(WRITES_IN_FLIGHT_MAX);
          for (const s of sent) {
            if (s.corrupt) expect(String(s.refusal)).toMatch(/CRC mismatch/);
            else expect(s.answer, `${s.prefix}: ${String(s.refusal)}`).not.toBeNull();
          }
          const kept = sent.filter((s) => !s.corrupt);
          const keptRecords = kept.reduce((sum, s) => sum + s.count, 0);
          expect(real.logEndOffset).toBe(1 + keptRecords);
          expect((await readAll(real)).map((record) => record.value?.toString())).toEqual([
            'first-0',
            ...valuesOfSent(sent),
          ]);
          // nothing left past the end: the bytes a later write put above a refused one were cut off
          const keptBytes = kept.reduce((sum, s) => sum + s.bytes, firstBytes);
          expect((await stat(logFilePath(dir, 0))).size).toBe(keptBytes);
        },
      ),
      { numRuns: 40 },
    );
    // the cases this is about happened: a write refused while a write behind it was in flight, or had landed
    expect(refusedWithLaterInFlight).toBeGreaterThan(0);
    expect(refusedWithLaterLanded).toBeGreaterThan(0);
  }, 180_000);

  it('keeps nothing of a write once it is answered: an idle log holds no batch, nor the buffer it was cut from', async () => {
    const real = await freshLog();
    // a batch cut out of a larger buffer (as a request's are), the only reference to that buffer dropped
    const written = (): { buffer: WeakRef<ArrayBuffer>; answered: Promise<AppendInfo> } => {
      const bytes = batch('idle', 3);
      const request = Buffer.alloc(64 * 1024 + bytes.length);
      bytes.copy(request, 64 * 1024);
      return {
        buffer: new WeakRef(request.buffer),
        answered: real.appendAsLeader(request.subarray(64 * 1024), 0),
      };
    };
    const { buffer, answered } = written();
    expect(await answered).toMatchObject({ firstOffset: 1, lastOffset: 3 });
    await settle();
    collectGarbage();
    expect(buffer.deref()).toBeUndefined();
    expect((await readAll(real)).map((record) => record.value?.toString())).toEqual([
      'first-0',
      'idle-0',
      'idle-1',
      'idle-2',
    ]);
  });

  it('a refused write in the middle: the write behind it landed above the hole, is cut off, and written again renumbered', async () => {
    const real = await freshLog();
    const path = logFilePath(dir, 0);
    const firstBytes = (await stat(path)).size;
    gate.holding = true;
    const x = batch('x', 2);
    const y = batch('y', 3, true);
    const z = batch('z', 1);
    const z2 = batch('zz', 1);
    const answers: Record<string, AppendInfo | Error> = {};
    const track = (name: string, appended: Promise<AppendInfo>): void =>
      void appended.then(
        (info) => (answers[name] = info),
        (error: Error) => (answers[name] = error),
      );
    track('x', real.appendAsLeader(x, 0));
    track('y', real.appendAsLeader(y, 0));
    await settle(); // x and y: one write
    track('z', real.appendAsLeader(z, 0));
    track('z2', real.appendAsLeader(z2, 0));
    await settle(); // z and z2: a second write, behind the first
    expect(gate.held.map((held) => held.position)).toEqual([firstBytes, firstBytes + x.length + y.length]);
    const [first, second] = gate.held.splice(0, 2);
    second.resolve(await second.land()); // z and z2 land above the bytes the first write will never write
    await settle();
    expect((await stat(path)).size).toBe(firstBytes + x.length + y.length + z.length + z2.length);
    expect(answers).toEqual({});
    expect(real.logEndOffset).toBe(1);
    const refused = await first.land(); // the check fails: nothing of x and y written
    expect(refused.corrupt).toEqual([1]);
    first.resolve(refused);
    await until(() => gate.held.length > 0);
    // the bytes of z and z2 are cut off, y refused, x, z and z2 written again as one write at the refused one's position
    expect(String(answers.y)).toMatch(/CRC mismatch/);
    expect(answers.x).toBeUndefined();
    expect(answers.z).toBeUndefined();
    expect(real.logEndOffset).toBe(1);
    expect((await stat(path)).size).toBe(firstBytes);
    expect(gate.held.map((held) => [held.position, held.bytes])).toEqual([
      [firstBytes, x.length + z.length + z2.length],
    ]);
    await landAll();
    await until(() => answers.z2 !== undefined);
    expect(answers.x).toMatchObject({ firstOffset: 1, lastOffset: 2 });
    expect(answers.z).toMatchObject({ firstOffset: 3, lastOffset: 3 });
    expect(answers.z2).toMatchObject({ firstOffset: 4, lastOffset: 4 });
    expect(real.logEndOffset).toBe(5);
    expect((await readAll(real)).map((r) => [r.offset, r.value?.toString()])).toEqual([
      [0, 'first-0'],
      [1, 'x-0'],
      [2, 'x-1'],
      [3, 'z-0'],
      [4, 'zz-0'],
    ]);
    expect((await stat(path)).size).toBe(firstBytes + x.length + z.length + z2.length);
    // and the next append continues there
    expect((await real.appendAsLeader(batch('w', 1), 0)).firstOffset).toBe(5);
  });

  it("an idempotent producer's batch written behind a refused one is renumbered, and its sequence still checked at its new offsets", async () => {
    const idempotent = (sequence: number, value: string): Buffer =>
      encodeBatch([{ key: null, value: Buffer.from(value), timestamp: 1 }], {
        producerId: 7,
        producerEpoch: 0,
        baseSequence: sequence,
      });
    const real = await freshLog();
    gate.holding = true;
    const x = real.appendAsLeader(batch('x', 1), 0);
    const y = real.appendAsLeader(batch('y', 2, true), 0).catch((error: Error) => error);
    await settle();
    const i0 = real.appendAsLeader(idempotent(0, 'i0'), 0);
    const c = real.appendAsLeader(batch('c', 1), 0); // with i0, a group for a write behind the first
    await settle();
    expect(gate.held).toHaveLength(2);
    const [first, second] = gate.held.splice(0, 2);
    second.resolve(await second.land()); // the idempotent batch lands at offset 4, above the hole
    await settle();
    first.resolve(await first.land()); // refused: y
    await until(() => gate.held.length > 0);
    await landAll();
    expect(String(await y)).toMatch(/CRC mismatch/);
    expect(await x).toMatchObject({ firstOffset: 1 });
    expect(await i0).toMatchObject({ firstOffset: 2, lastOffset: 2 });
    expect(await c).toMatchObject({ firstOffset: 3, lastOffset: 3 });
    // a retry is a duplicate of the batch at its new offset; the next sequence follows; a gap is refused
    expect(await real.appendAsLeader(idempotent(0, 'i0'), 0)).toMatchObject({ firstOffset: 2, duplicate: true });
    expect(await real.appendAsLeader(idempotent(1, 'i1'), 0)).toMatchObject({ firstOffset: 4 });
    await expect(async () => real.appendAsLeader(idempotent(5, 'i5'), 0)).rejects.toMatchObject({
      kind: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
    });
    expect((await readAll(real)).map((r) => r.value?.toString())).toEqual(['first-0', 'x-0', 'i0', 'c-0', 'i1']);
  });

  it('a lone append behind a write in flight waits for a second append or for that write, then goes in one write', async () => {
    const real = await freshLog();
    const firstBytes = (await stat(logFilePath(dir, 0))).size;
    gate.holding = true;
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((prefix) => batch(prefix, 1));
    const answers: Record<string, AppendInfo> = {};
    const track = (name: string, bytes: Buffer): void =>
      void real.appendAsLeader(bytes, 0).then((info) => (answers[name] = info));
    track('a', a);
    await settle();
    track('b', b);
    await settle();
    // b alone does not start a write behind a's
    expect(gate.held.map((held) => [held.position, held.bytes])).toEqual([[firstBytes, a.length]]);
    track('c', c);
    await settle();
    // with c it does: b and c in one write behind a's
    expect(gate.held.map((held) => [held.position, held.bytes])).toEqual([
      [firstBytes, a.length],
      [firstBytes + a.length, b.length + c.length],
    ]);
    await landAll();
    await until(() => answers.c !== undefined);
    gate.holding = true;
    track('d', d);
    await settle();
    track('e', e);
    await settle();
    const atD = firstBytes + a.length + b.length + c.length;
    expect(gate.held.map((held) => [held.position, held.bytes])).toEqual([[atD, d.length]]);
    // d's write returns: e, still alone, goes in a write of its own
    const [held] = gate.held.splice(0, 1);
    held.resolve(await held.land());
    await until(() => gate.held.length > 0);
    expect(gate.held.map((next) => [next.position, next.bytes])).toEqual([[atD + d.length, e.length]]);
    await landAll();
    await until(() => answers.e !== undefined);
    expect(Object.entries(answers).map(([name, info]) => [name, info.firstOffset])).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
      ['e', 5],
    ]);
    expect((await readAll(real)).map((r) => r.value?.toString())).toEqual([
      'first-0',
      'a-0',
      'b-0',
      'c-0',
      'd-0',
      'e-0',
    ]);
    expect(gate.maxInFlight).toBe(2);
  });
});
