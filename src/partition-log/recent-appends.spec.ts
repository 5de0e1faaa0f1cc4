import { describe, expect, it } from 'vitest';
import { READ_INTEREST_MS, RecentAppends, RecentAppendsBudget } from './recent-appends.js';

/** A stand-in batch: its own ArrayBuffer of `bytes` bytes, filled with `tag`. */
const batch = (tag: number, bytes = 100) => Buffer.from(new Uint8Array(bytes).fill(tag).buffer);

/** A log's recent appends with batches of 10 offsets each: [0-9], [10-19], [20-29], read lately. */
function threeBatches(budget = new RecentAppendsBudget()) {
  const recent = new RecentAppends(budget, 4, 1_000);
  recent.noteRead(0);
  expect(recent.wanted(0)).toBe(true);
  for (let i = 0; i < 3; i++) recent.add(batch(i + 1), i * 10, i * 10 + 9, 0);
  return recent;
}

describe('RecentAppends', () => {
  it('answers from the batch holding the offset to the end, as one buffer', () => {
    const recent = threeBatches();
    const read = recent.read(0, 15, 1 << 20, 30, true)!;
    expect(read.length).toBe(200);
    expect([read[0], read[100]]).toEqual([2, 3]);
    expect(recent.read(0, 29, 1 << 20, 30, true)![0]).toBe(3);
  });

  it('stops at maxBytes and below maxOffsetExclusive, and gives the first batch alone with minOneBatch', () => {
    const recent = threeBatches();
    expect(recent.read(0, 0, 250, 30, true)!.length).toBe(200);
    expect(recent.read(0, 0, 1 << 20, 20, true)!.length).toBe(200);
    expect(recent.read(0, 0, 50, 30, true)!.length).toBe(100);
    expect(recent.read(0, 0, 50, 30, false)!.length).toBe(0);
    expect(recent.read(0, 0, 1 << 20, 5, true)!.length).toBe(0); // the first batch is not below the HW
  });

  it('cannot answer below the first batch kept or for another segment', () => {
    const recent = threeBatches();
    expect(recent.read(0, 30, 1 << 20, 40, true)).toBeUndefined();
    expect(recent.read(500, 15, 1 << 20, 30, true)).toBeUndefined();
    recent.add(batch(9), 40, 49, 0); // does not continue offset 29: starts over
    expect(recent.size).toBe(1);
    expect(recent.read(0, 15, 1 << 20, 50, true)).toBeUndefined();
    expect(recent.read(0, 40, 1 << 20, 50, true)![0]).toBe(9);
  });

  it('keeps nothing once nobody read the active segment for READ_INTEREST_MS', () => {
    const budget = new RecentAppendsBudget();
    const recent = threeBatches(budget);
    expect(recent.wanted(READ_INTEREST_MS)).toBe(true);
    expect(recent.wanted(READ_INTEREST_MS + 1)).toBe(false);
    expect(recent.size).toBe(0);
    expect(budget.slabs).toBe(0);
  });

  it('reads consecutive batches of one slab as a view of it, and joins a read across slabs', () => {
    const recent = new RecentAppends(new RecentAppendsBudget(), 4, 250);
    recent.noteRead(0);
    for (let i = 0; i < 3; i++) recent.add(batch(i + 1), i * 10, i * 10 + 9, 0); // slabs [1, 2], [3]
    const view = recent.read(0, 0, 200, 30, true)!;
    const again = recent.read(0, 10, 100, 30, true)!;
    expect(again.buffer).toBe(view.buffer);
    const joined = recent.read(0, 0, 1 << 20, 30, true)!;
    expect([joined.length, joined[0], joined[100], joined[200]]).toEqual([300, 1, 2, 3]);
  });

  it('drops its oldest slab past its own bound, and does not keep a batch larger than a slab', () => {
    const budget = new RecentAppendsBudget();
    const recent = new RecentAppends(budget, 2, 200);
    recent.noteRead(0);
    for (let i = 0; i < 5; i++) recent.add(batch(i + 1), i * 10, i * 10 + 9, 0); // [1, 2], [3, 4], [5]: one too many
    expect([recent.size, budget.slabs]).toEqual([3, 2]);
    expect(recent.read(0, 15, 1 << 20, 50, true)).toBeUndefined();
    expect(recent.read(0, 20, 1 << 20, 50, true)![0]).toBe(3);
    recent.add(batch(6, 201), 50, 59, 0);
    expect([recent.size, budget.slabs]).toEqual([0, 0]);
  });

  it('past the shared bound the oldest slab of any log goes first', () => {
    const budget = new RecentAppendsBudget(2);
    const first = new RecentAppends(budget, 4, 100);
    const second = new RecentAppends(budget, 4, 100);
    first.noteRead(0);
    second.noteRead(0);
    first.add(batch(1), 0, 9, 0);
    first.add(batch(2), 10, 19, 0);
    second.add(batch(7), 0, 9, 0);
    expect([first.size, second.size, budget.slabs]).toEqual([1, 1, 2]);
    expect(first.read(0, 10, 1 << 20, 20, true)![0]).toBe(2);
    expect(second.read(0, 0, 1 << 20, 20, true)![0]).toBe(7);
    first.clear();
    expect(budget.slabs).toBe(1);
  });
});
