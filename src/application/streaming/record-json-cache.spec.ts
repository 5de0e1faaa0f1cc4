import { describe, expect, it, vi } from 'vitest';
import { encodeBatch } from '../../partition-log/record-batch.js';
import { ManualClock } from '../../common/clock.js';
import { RecordJsonCache, SCRATCH_BYTES_MAX } from './record-json-cache.js';

/** A stored-like batch of `count` records starting at `baseOffset`. */
function batchAt(baseOffset: number, values: string[]): Buffer {
  const batch = encodeBatch(values.map((value) => ({ key: null, value: Buffer.from(value), timestamp: 1000 })));
  batch.writeBigInt64BE(BigInt(baseOffset), 0);
  return batch;
}

describe('RecordJsonCache', () => {
  it('serialises records in the API shape with topic, from an offset, up to a count', () => {
    const cache = new RecordJsonCache();
    const batches = Buffer.concat([batchAt(0, ['a', 'b', 'c']), batchAt(3, ['d', 'e'])]);
    const { run, nextOffset } = cache.encode(batches, 't', 4, 'string', 1, 3);
    const records = run.records;
    expect(records.map((record) => record.offset)).toEqual([1, 2, 3]);
    expect(nextOffset).toBe(4);
    expect(JSON.parse(records[0].json)).toEqual({
      topic: 't',
      partition: 4,
      offset: 1,
      timestamp: 1000,
      key: null,
      value: 'b',
      headers: [],
    });
    expect(cache.encode(batches, 't', 4, 'string', 0, 10).nextOffset).toBeNull();
  });

  it('shares the text between readers of the same batch and format, not across formats', () => {
    const cache = new RecordJsonCache();
    const batches = batchAt(0, ['a', 'b']);
    const first = cache.encode(batches, 't', 0, 'string', 0, 10).run;
    // The same read buffer and request: the same run, joined once.
    expect(cache.encode(batches, 't', 0, 'string', 0, 10).run).toBe(first);
    expect(first.joinedJson.toString()).toBe(first.records.map((record) => record.json).join(','));
    expect(first.joinedJson).toBe(first.joinedJson);
    // Another read of the same batch: a new run over the same cached text (a view of the same bytes, not a copy).
    const second = cache.encode(Buffer.from(batches), 't', 0, 'string', 0, 10).run;
    expect(second).not.toBe(first);
    expect(second.joinedJson.buffer).toBe(first.joinedJson.buffer);
    expect(second.joinedJson.byteOffset).toBe(first.joinedJson.byteOffset);
    expect(second.records).toEqual(first.records);
    expect(cache.hits).toBe(1);
    const binary = cache.encode(batches, 't', 0, 'binary', 0, 10).run.records;
    expect(JSON.parse(binary[0].json).value).toBe(Buffer.from('a').toString('base64'));
    expect(cache.misses).toBe(2);
  });

  it('joins runs across batches with commas, and counts the records and the last offset of a run', () => {
    const cache = new RecordJsonCache();
    const batches = Buffer.concat([batchAt(10, ['a', 'é"b']), batchAt(12, ['c', 'd', 'e'])]);
    const { run, nextOffset } = cache.encode(batches, 't', 0, 'string', 11, 3);
    expect(nextOffset).toBe(14);
    expect(run.count).toBe(3);
    expect(run.lastOffset).toBe(13);
    const texts = run.records.map((record) => record.json);
    expect(run.joinedJson.toString('utf8')).toBe(texts.join(','));
    expect(JSON.parse(`[${run.joinedJson.toString('utf8')}]`).map((record: { value: string }) => record.value)).toEqual(
      ['é"b', 'c', 'd'],
    );
    // within one batch, from its middle to its end: a view of the cached batch
    const tail = cache.encode(batches, 't', 0, 'string', 13, 10).run;
    expect(tail.joinedJson.toString('utf8')).toBe(tail.records.map((record) => record.json).join(','));
    expect(
      JSON.parse(`[${tail.joinedJson.toString('utf8')}]`).map((record: { offset: number }) => record.offset),
    ).toEqual([13, 14]);
    const empty = cache.encode(batches, 't', 0, 'string', 15, 10);
    expect(empty.run.count).toBe(0);
    expect(empty.run.lastOffset).toBe(-1);
    expect(empty.nextOffset).toBeNull();
  });

  it('skips batches entirely below the offset without decoding them', () => {
    const cache = new RecordJsonCache();
    const batches = Buffer.concat([batchAt(0, ['a', 'b']), batchAt(2, ['c'])]);
    expect(cache.encode(batches, 't', 0, 'string', 2, 10).run.records.map((record) => record.offset)).toEqual([2]);
    expect(cache.misses).toBe(1);
  });

  it('writes every batch into one scratch buffer it keeps, and each cached text stays as it was', () => {
    const cache = new RecordJsonCache();
    const bases = Array.from({ length: 10 }, (_, i) => 2 * i);
    const batches = bases.map((base) => batchAt(base, [`v${base}`, 'y'.repeat(base * 100)]));
    const allocations = vi.spyOn(Buffer, 'allocUnsafe');
    try {
      const texts: string[] = [];
      for (const [i, batch] of batches.entries()) {
        texts.push(cache.encode(batch, 't', 0, 'string', bases[i], 10).run.joinedJson.toString());
        for (const [j, earlier] of texts.entries()) expect(JSON.parse(`[${earlier}]`)[0].value).toBe(`v${bases[j]}`);
      }
      // the first batch's buffer and the growth for a larger text; not one a batch
      expect(allocations.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      allocations.mockRestore();
    }
  });

  it('does not keep a scratch buffer past its bound, for a text that outgrew it or a batch too large for it', () => {
    const cache = new RecordJsonCache();
    // within the bound as stored, but its escapes (\u0001) take six times the room
    const escaped = '\u0001'.repeat(SCRATCH_BYTES_MAX / 4);
    const large = 'z'.repeat(SCRATCH_BYTES_MAX);
    const runs = [escaped, large].map((value, i) => cache.encode(batchAt(i, [value]), 't', 0, 'string', i, 10).run);
    expect(cache.scratchBytes).toBeLessThanOrEqual(SCRATCH_BYTES_MAX);
    const small = cache.encode(batchAt(2, ['s']), 't', 0, 'string', 2, 10).run;
    expect([...runs, small].map((run) => JSON.parse(`[${run.joinedJson.toString()}]`)[0].value)).toEqual([
      escaped,
      large,
      's',
    ]);
  });

  it('drops a batch no stream asked for in its idle time, and keeps one that streams keep asking for', () => {
    const clock = new ManualClock();
    const cache = new RecordJsonCache(undefined, null, clock, 100);
    const stored = batchAt(0, ['a', 'b']);
    // each encode below is another read of the same batch (a new Buffer), so only the cached text can answer it
    const ask = () => cache.encode(Buffer.from(stored), 't', 0, 'string', 0, 10).run.records.length;
    expect(ask()).toBe(2);
    expect(cache.misses).toBe(1);
    for (let i = 0; i < 3; i++) {
      clock.advance(99);
      expect(ask()).toBe(2);
    }
    expect(cache.hits).toBe(3);
    const heldBytes = cache.sizeBytes;
    expect(heldBytes).toBeGreaterThan(0);
    clock.advance(100);
    // another batch's encode drops it (and holds only its own text)
    cache.encode(batchAt(2, ['c']), 't', 0, 'string', 2, 10);
    expect(cache.misses).toBe(2);
    expect(cache.sizeBytes).toBeLessThan(heldBytes);
    expect(ask()).toBe(2);
    expect(cache.misses).toBe(3);
    expect(cache.hits).toBe(3);
  });

  it('stays within its byte bound, evicting the least recently used batches', () => {
    const cache = new RecordJsonCache(20_000);
    const big = 'x'.repeat(1000);
    for (let base = 0; base < 100; base += 2) {
      cache.encode(batchAt(base, [big, big]), 't', 0, 'string', base, 10);
      expect(cache.sizeBytes).toBeLessThanOrEqual(20_000);
    }
    expect(cache.sizeBytes).toBeGreaterThan(10_000);
    const recent = batchAt(98, [big, big]);
    const hitsBefore = cache.hits;
    cache.encode(recent, 't', 0, 'string', 98, 10);
    expect(cache.hits).toBe(hitsBefore + 1);
    cache.encode(batchAt(0, [big, big]), 't', 0, 'string', 0, 10);
    expect(cache.hits).toBe(hitsBefore + 1);
  });
});
