import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildOffsetMap,
  cleanableRange,
  dirtyRatio,
  legacyDeleteHorizonMs,
  recordRetained,
  shouldClean,
  tombstonesRetained,
  type CleanableRangeParams,
} from './cleaner-policy.js';
import { OffsetMap } from './offset-map.js';
import type { SegmentSummary } from './retention-policy.js';

const NOW = 1_700_000_000_000;

/** Segments of 10 offsets and 100 bytes each from base 0; the last one is active. */
function segments(count: number, maxTimestampMs: (index: number) => number = () => NOW - 1_000_000): SegmentSummary[] {
  return Array.from({ length: count }, (_, i) => ({
    baseOffset: i * 10,
    endOffset: (i + 1) * 10,
    sizeBytes: 100,
    maxTimestampMs: maxTimestampMs(i),
  }));
}

function range(overrides: Partial<CleanableRangeParams>) {
  return cleanableRange({
    segments: segments(5),
    logStartOffset: 0,
    cleanerCheckpoint: 0,
    highWatermark: 50,
    nowMs: NOW,
    minCompactionLagMs: 0,
    ...overrides,
  });
}

const key = (text: string): Buffer => Buffer.from(text);

describe('cleanableRange', () => {
  it('runs from the checkpoint to the active segment, counting clean and dirty bytes', () => {
    expect(range({ cleanerCheckpoint: 20 })).toEqual({
      firstDirtyOffset: 20,
      firstUncleanableOffset: 40,
      cleanBytes: 200,
      dirtyBytes: 200,
      totalBytes: 400,
    });
  });

  it('starts at the log start when the checkpoint is behind it', () => {
    expect(range({ cleanerCheckpoint: 0, logStartOffset: 10 })).toMatchObject({
      firstDirtyOffset: 10,
      cleanBytes: 100,
      dirtyBytes: 300,
    });
  });

  it('counts a segment the checkpoint falls inside as dirty', () => {
    expect(range({ cleanerCheckpoint: 15 })).toMatchObject({ firstDirtyOffset: 15, cleanBytes: 100, dirtyBytes: 300 });
  });

  it('stops at the first dirty segment newer than now - min.compaction.lag.ms', () => {
    const recent = segments(5, (i) => (i >= 2 ? NOW - 5_000 : NOW - 60_000));
    expect(range({ segments: recent, minCompactionLagMs: 10_000 })).toMatchObject({
      firstUncleanableOffset: 20,
      dirtyBytes: 200,
    });
    expect(range({ segments: recent, minCompactionLagMs: 1_000 })).toMatchObject({ firstUncleanableOffset: 40 });
  });

  it('does not let future timestamps block a lag of 0, as Kafka', () => {
    expect(range({ segments: segments(5, () => NOW + 60_000), minCompactionLagMs: 0 })).toMatchObject({
      firstUncleanableOffset: 40,
    });
  });

  it('stops at the first segment reaching past the high watermark', () => {
    expect(range({ highWatermark: 25 })).toMatchObject({ firstUncleanableOffset: 20, dirtyBytes: 200 });
    expect(range({ highWatermark: 30 })).toMatchObject({ firstUncleanableOffset: 30 });
  });

  it('has nothing to clean with only the active segment', () => {
    expect(range({ segments: segments(1) })).toMatchObject({ firstUncleanableOffset: 0, totalBytes: 0, dirtyBytes: 0 });
  });
});

describe('dirtyRatio and shouldClean', () => {
  it('is the dirty share of the cleanable bytes, 0 for none', () => {
    expect(dirtyRatio({ totalBytes: 400, dirtyBytes: 100 })).toBe(0.25);
    expect(dirtyRatio({ totalBytes: 0, dirtyBytes: 0 })).toBe(0);
  });

  it('cleans only above min.cleanable.dirty.ratio, and never with nothing dirty', () => {
    expect(shouldClean({ totalBytes: 400, dirtyBytes: 200, minCleanableDirtyRatio: 0.5 })).toBe(false);
    expect(shouldClean({ totalBytes: 400, dirtyBytes: 201, minCleanableDirtyRatio: 0.5 })).toBe(true);
    expect(shouldClean({ totalBytes: 400, dirtyBytes: 0, minCleanableDirtyRatio: 0 })).toBe(false);
  });
});

describe('the legacy tombstone rule', () => {
  it('keeps every tombstone before any segment was cleaned', () => {
    const horizon = legacyDeleteHorizonMs({ segments: segments(3), firstDirtyOffset: 0, deleteRetentionMs: 1000 });
    expect(horizon).toBe(Number.NEGATIVE_INFINITY);
    expect(tombstonesRetained(-1, horizon)).toBe(true);
  });

  it('puts the horizon delete.retention.ms before the newest record of the last clean segment', () => {
    const summaries = segments(4, (i) => NOW + i * 1000);
    const horizon = legacyDeleteHorizonMs({ segments: summaries, firstDirtyOffset: 20, deleteRetentionMs: 1500 });
    expect(horizon).toBe(NOW + 1000 - 1500);
    expect(tombstonesRetained(NOW - 500, horizon)).toBe(false);
    expect(tombstonesRetained(NOW - 499, horizon)).toBe(true);
  });
});

describe('OffsetMap', () => {
  it('maps each key to its latest offset and tracks the last offset looked at', () => {
    const map = buildOffsetMap([
      { offset: 0, key: key('a') },
      { offset: 1, key: null },
      { offset: 3, key: key('a') },
      { offset: 4, key: key('b') },
      { offset: 5, key: null },
    ]);
    expect(map.get(key('a'))).toBe(3);
    expect(map.get(key('b'))).toBe(4);
    expect(map.get(key('c'))).toBeUndefined();
    expect(map.size).toBe(2);
    expect(map.latestOffset).toBe(5);
  });

  it('keeps keys that differ in any byte apart', () => {
    const map = new OffsetMap();
    map.put(Buffer.from([0xc3, 0xbf]), 0);
    map.put(Buffer.from('ÿ', 'latin1'), 1);
    map.put(Buffer.from([0x00]), 2);
    map.put(Buffer.alloc(0), 3);
    expect(map.size).toBe(4);
    expect(map.get(Buffer.from([0xc3, 0xbf]))).toBe(0);
  });

  it('is full at its key bound but still updates keys it holds', () => {
    const map = new OffsetMap({ keysMax: 2, keyBytesMax: 1000 });
    expect(map.put(key('a'), 0)).toBe(true);
    expect(map.put(key('b'), 1)).toBe(true);
    expect(map.put(key('c'), 2)).toBe(false);
    expect(map.latestOffset).toBe(1);
    expect(map.put(key('a'), 3)).toBe(true);
    expect(map.get(key('a'))).toBe(3);
  });

  it('is full at its key-byte bound, but an empty map takes any key', () => {
    const map = new OffsetMap({ keysMax: 100, keyBytesMax: 4 });
    expect(map.put(key('toolong'), 0)).toBe(true);
    expect(map.put(key('x'), 1)).toBe(false);
  });

  it('stops building where the map fills', () => {
    const map = buildOffsetMap(
      ['a', 'b', 'a', 'c', 'b'].map((text, offset) => ({ offset, key: key(text) })),
      { keysMax: 2, keyBytesMax: 1000 },
    );
    expect(map.latestOffset).toBe(2);
    expect(map.get(key('c'))).toBeUndefined();
  });

  it('refuses offsets out of order', () => {
    const map = new OffsetMap();
    map.put(key('a'), 5);
    expect(() => map.put(key('b'), 5)).toThrow(RangeError);
  });
});

describe('recordRetained', () => {
  const map = buildOffsetMap([
    { offset: 0, key: key('a') },
    { offset: 1, key: key('b') },
    { offset: 2, key: key('a') },
  ]);
  const retained = (offset: number, keyText: string | null, value: string | null, retainTombstones = true): boolean =>
    recordRetained({
      record: {
        offset,
        key: keyText === null ? null : key(keyText),
        value: value === null ? null : Buffer.from(value),
      },
      offsetMap: map,
      retainTombstones,
    });

  it('keeps the latest record of a key and drops earlier ones', () => {
    expect(retained(0, 'a', 'v')).toBe(false);
    expect(retained(2, 'a', 'v')).toBe(true);
    expect(retained(1, 'b', 'v')).toBe(true);
  });

  it('keeps a record whose key the map does not hold (the clean part of the log)', () => {
    expect(retained(1, 'z', 'v')).toBe(true);
  });

  it('drops keyless records, as Kafka does, but only inside the mapped range', () => {
    expect(retained(1, null, 'v')).toBe(false);
    expect(retained(3, null, 'v')).toBe(true);
  });

  it('keeps a latest tombstone only while its segment retains tombstones', () => {
    expect(retained(2, 'a', null, true)).toBe(true);
    expect(retained(2, 'a', null, false)).toBe(false);
  });

  it('keeps everything past the map, superseded or not', () => {
    expect(retained(7, 'a', null, false)).toBe(true);
  });
});

// ---- properties ----

interface GeneratedRecord {
  offset: number;
  key: Buffer | null;
  value: Buffer | null;
  segment: number;
}

const recordsArbitrary = fc
  .record({
    entries: fc.array(
      fc.record({
        key: fc.option(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { freq: 6 }),
        tombstone: fc.boolean(),
        gap: fc.nat(2),
      }),
      { maxLength: 60 },
    ),
    recordsPerSegment: fc.integer({ min: 1, max: 8 }),
    segmentMaxTimestamps: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 60, maxLength: 60 }),
    deleteHorizonMs: fc.integer({ min: -1, max: 101 }),
  })
  .map(({ entries, recordsPerSegment, segmentMaxTimestamps, deleteHorizonMs }) => {
    let offset = 0;
    const records: GeneratedRecord[] = entries.map((entry, i) => {
      offset += entry.gap;
      return {
        offset: offset++,
        key: entry.key === null ? null : key(entry.key),
        value: entry.tombstone ? null : Buffer.from(`v${i}`),
        segment: Math.floor(i / recordsPerSegment),
      };
    });
    return { records, segmentMaxTimestamps, deleteHorizonMs };
  });

describe('compaction properties', () => {
  it('keeps, for each key, its last record, and its last tombstone only within the horizon; nothing else', () => {
    fc.assert(
      fc.property(recordsArbitrary, ({ records, segmentMaxTimestamps, deleteHorizonMs }) => {
        const map = buildOffsetMap(records);
        const retainTombstones = (record: GeneratedRecord) =>
          tombstonesRetained(segmentMaxTimestamps[record.segment], deleteHorizonMs);
        const kept = records.filter((record) =>
          recordRetained({ record, offsetMap: map, retainTombstones: retainTombstones(record) }),
        );

        const lastByKey = new Map<string, number>();
        for (const record of records) if (record.key !== null) lastByKey.set(record.key.toString(), record.offset);
        const expected = records.filter(
          (record) =>
            record.key !== null &&
            lastByKey.get(record.key.toString()) === record.offset &&
            (record.value !== null || segmentMaxTimestamps[record.segment] > deleteHorizonMs),
        );
        expect(kept.map((record) => record.offset)).toEqual(expected.map((record) => record.offset));
        for (let i = 1; i < kept.length; i++) expect(kept[i].offset).toBeGreaterThan(kept[i - 1].offset);
        for (const record of kept) expect(records).toContain(record);
      }),
      { numRuns: 500 },
    );
  });

  it('with a bounded map, never loses the last value of a key and leaves everything past the map alone', () => {
    fc.assert(
      fc.property(recordsArbitrary, fc.integer({ min: 1, max: 4 }), ({ records }, keysMax) => {
        const map = buildOffsetMap(records, { keysMax, keyBytesMax: 1000 });
        const kept = new Set(
          records.filter((record) => recordRetained({ record, offsetMap: map, retainTombstones: true })),
        );
        const lastByKey = new Map<string, GeneratedRecord>();
        for (const record of records) if (record.key !== null) lastByKey.set(record.key.toString(), record);
        for (const last of lastByKey.values()) expect(kept.has(last)).toBe(true);
        for (const record of records) if (record.offset > map.latestOffset) expect(kept.has(record)).toBe(true);
        expect(map.size).toBeLessThanOrEqual(keysMax);
      }),
      { numRuns: 500 },
    );
  });
});
