import { describe, expect, it } from 'vitest';
import {
  BATCHES_RETAINED_PER_PRODUCER,
  checkAppend,
  entryAfter,
  incrementSequence,
  KEY_PRODUCER_ID_BASE,
  ProducerStateTable,
  SEQUENCE_MAX,
  type ProducerBatch,
  type ProducerEntry,
} from './producer-state.js';

const STRICT = { sequenceGaps: false };
const GAPS = { sequenceGaps: true };
const KEY = KEY_PRODUCER_ID_BASE + 12345;

let nextOffset = 0;

/** A batch of `count` records of producer `id` from sequence `first`, at the next free offsets. */
function batch(id: number, epoch: number, first: number, count = 1): ProducerBatch {
  const firstOffset = nextOffset;
  nextOffset += count;
  return {
    producerId: id,
    epoch,
    firstSequence: first,
    lastSequence: incrementSequence(first, count - 1),
    firstOffset,
    lastOffset: firstOffset + count - 1,
    maxTimestampMs: 1000 + firstOffset,
    baseTimestampMs: 1000 + firstOffset,
  };
}

/** The entry after appending `batches` in order (each accepted). */
function entryOf(...batches: ProducerBatch[]): ProducerEntry {
  let entry: ProducerEntry | undefined;
  for (const next of batches) entry = entryAfter(entry, next, 0);
  return entry!;
}

describe('checkAppend (allocated producer ids, Kafka rules)', () => {
  const first = batch(1, 0, 0, 3); // sequences 0..2
  const entry = entryOf(first);

  it.each([
    ['an unknown producer, any sequence', undefined, batch(1, 4, 77), 'append'],
    ['the next sequence', entry, batch(1, 0, 3), 'append'],
    ['a duplicate of a retained batch', entry, { ...first }, 'duplicate'],
    ['a gap', entry, batch(1, 0, 5), 'OUT_OF_ORDER_SEQUENCE_NUMBER'],
    ['a sequence already passed that is no retained batch', entry, batch(1, 0, 1, 2), 'OUT_OF_ORDER_SEQUENCE_NUMBER'],
    ['an older epoch', entryOf(batch(1, 2, 0)), batch(1, 1, 1), 'INVALID_PRODUCER_EPOCH'],
    ['a new epoch from sequence 0 (KIP-360)', entry, batch(1, 1, 0), 'append'],
    ['a new epoch from another sequence', entry, batch(1, 1, 3), 'OUT_OF_ORDER_SEQUENCE_NUMBER'],
  ])('%s', (_name, state, candidate, expected) => {
    const check = checkAppend(state, candidate, STRICT);
    expect(check.outcome === 'refused' ? check.error : check.outcome).toBe(expected);
  });

  it('answers a duplicate with the original offsets and timestamps', () => {
    const check = checkAppend(entry, { ...first, firstOffset: 999, lastOffset: 1001, maxTimestampMs: 5 }, STRICT);
    expect(check).toEqual({
      outcome: 'duplicate',
      batch: {
        firstSequence: 0,
        lastSequence: 2,
        firstOffset: first.firstOffset,
        lastOffset: first.lastOffset,
        maxTimestampMs: first.maxTimestampMs,
        baseTimestampMs: first.baseTimestampMs,
      },
    });
  });

  it('remembers the last five batches only: an older duplicate is out of order', () => {
    const batches = Array.from({ length: BATCHES_RETAINED_PER_PRODUCER + 1 }, (_, i) => batch(2, 0, i));
    const state = entryOf(...batches);
    expect(state.batches.map((kept) => kept.firstSequence)).toEqual([1, 2, 3, 4, 5]);
    expect(checkAppend(state, { ...batches[1] }, STRICT).outcome).toBe('duplicate');
    expect(checkAppend(state, { ...batches[0] }, STRICT)).toMatchObject({ error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' });
  });

  it('wraps sequences past 2^31 - 1 to 0', () => {
    const state = entryOf(batch(3, 0, SEQUENCE_MAX - 1, 2));
    expect(state.batches[0].lastSequence).toBe(SEQUENCE_MAX);
    expect(checkAppend(state, batch(3, 0, 0), STRICT).outcome).toBe('append');
    expect(incrementSequence(SEQUENCE_MAX - 1, 3)).toBe(1);
  });

  it('with sequence gaps allowed, accepts a forward gap and a new epoch at any sequence, never a step back', () => {
    expect(checkAppend(entry, batch(1, 0, 9), GAPS).outcome).toBe('append');
    expect(checkAppend(entry, batch(1, 1, 9), GAPS).outcome).toBe('append');
    expect(checkAppend(entry, batch(1, 0, 2), GAPS)).toMatchObject({ error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' });
    expect(checkAppend(entryOf(batch(1, 2, 0)), batch(1, 1, 9), GAPS)).toMatchObject({
      error: 'INVALID_PRODUCER_EPOCH',
    });
  });

  it('a new epoch starts a new window', () => {
    const state = entryOf(batch(4, 0, 0), batch(4, 0, 1), batch(4, 1, 0));
    expect(state.epoch).toBe(1);
    expect(state.batches).toHaveLength(1);
  });
});

describe('checkAppend (idempotency keys)', () => {
  const original = batch(KEY, 7, 123_456, 4);
  const entry = entryOf(original);

  it('appends a key it does not know, dedupes the same batch, refuses another body', () => {
    expect(checkAppend(undefined, original, STRICT).outcome).toBe('append');
    expect(checkAppend(entry, { ...original }, STRICT)).toMatchObject({
      outcome: 'duplicate',
      batch: { firstOffset: original.firstOffset },
    });
    expect(checkAppend(entry, batch(KEY, 7, 999), STRICT)).toMatchObject({ error: 'IDEMPOTENCY_KEY_REUSED' });
    expect(checkAppend(entry, batch(KEY, 7, 123_456, 3), STRICT)).toMatchObject({ error: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('keeps one entry per (id, epoch): two keys whose ids collide do not meet', () => {
    const table = new ProducerStateTable(10);
    table.apply(original, 0);
    table.apply(batch(KEY, 8, 5), 0);
    expect(table.size).toBe(2);
    expect(table.check({ ...original }, STRICT).outcome).toBe('duplicate');
  });
});

describe('ProducerStateTable', () => {
  it('forgets the entry changed longest ago beyond its bound', () => {
    const table = new ProducerStateTable(2);
    table.apply(batch(10, 0, 0), 1);
    table.apply(batch(11, 0, 0), 2);
    table.apply(batch(10, 0, 1), 3); // 10 changed after 11
    expect(table.apply(batch(12, 0, 0), 4)).toBe(1);
    expect([...table.all()].map((entry) => entry.producerId)).toEqual([10, 12]);
  });

  it('keeps the entries changed last through many evictions, moves, removals and clears (a list as the model)', () => {
    const bound = 7;
    const table = new ProducerStateTable(bound);
    // the model: producer, its last sequence and offset, when it changed; the one changed longest ago first
    let model: Array<{ id: number; last: number; lastOffset: number; changedMs: number }> = [];
    let evictions = 0;
    let seed = 17;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return Math.floor((seed / 2 ** 32) * n);
    };
    for (let step = 0; step < 2000; step++) {
      const choice = random(1000);
      if (choice < 960) {
        const id = random(12);
        const kept = model.find((entry) => entry.id === id);
        const written = batch(id, 0, kept === undefined ? 0 : kept.last + 1);
        evictions += table.apply(written, step);
        model = [
          ...model.filter((entry) => entry.id !== id),
          { id, last: written.lastSequence, lastOffset: written.lastOffset, changedMs: step },
        ];
        model = model.slice(-bound);
      } else if (choice < 975) {
        const below = nextOffset - 20 - random(20);
        table.removeBelow(below);
        model = model.filter((entry) => entry.lastOffset >= below);
      } else if (choice < 995) {
        table.removeExpired(step, { producerIdExpirationMs: 30, idempotencyRetentionMs: 30 });
        model = model.filter((entry) => step - entry.changedMs < 30);
      } else {
        table.clear();
        model = [];
      }
      expect([...table.all()].map((entry) => entry.producerId)).toEqual(model.map((entry) => entry.id));
    }
    expect(evictions).toBeGreaterThan(500);
  });

  it('expires allocated ids after producer.id.expiration.ms and keys after the idempotency retention', () => {
    const table = new ProducerStateTable(10);
    table.apply(batch(20, 0, 0), 0);
    table.apply(batch(KEY, 0, 0), 0);
    table.apply(batch(21, 0, 0), 50);
    const policy = { producerIdExpirationMs: 100, idempotencyRetentionMs: 200 };
    expect(table.removeExpired(99, policy)).toHaveLength(0);
    expect(table.removeExpired(100, policy)).toHaveLength(1);
    expect(table.get(20, 0)).toBeUndefined();
    expect(table.get(KEY, 0)).toBeDefined();
    expect(table.removeExpired(200, policy)).toHaveLength(2);
    expect(table.size).toBe(0);
  });

  it('forgets producers whose last batch retention deleted', () => {
    const table = new ProducerStateTable(10);
    nextOffset = 0;
    table.apply(batch(30, 0, 0), 0); // offset 0
    table.apply(batch(31, 0, 0), 0); // offset 1
    table.apply(batch(30, 0, 1), 0); // offset 2
    expect(table.removeBelow(2)).toHaveLength(1);
    expect(table.get(30, 0)?.batches).toHaveLength(2);
    expect(table.get(31, 0)).toBeUndefined();
  });
});
