import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Partitioners, type PartitionMetadata } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { murmur2, partitionForKey, StickyPartitioner, toPositive } from './partitioner.js';

/** A plain MurmurHash2 written from Kafka's `Utils.murmur2`, with Math.imul, as a second reference. */
function referenceMurmur2(data: Uint8Array): number {
  const m = 0x5bd1e995;
  const length = data.length;
  let h = 0x9747b28c ^ length;
  const length4 = length >>> 2;
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k = data[i4]! | (data[i4 + 1]! << 8) | (data[i4 + 2]! << 16) | (data[i4 + 3]! << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  const tail = length & ~3;
  const rest = length % 4;
  if (rest >= 3) h ^= data[tail + 2]! << 16;
  if (rest >= 2) h ^= data[tail + 1]! << 8;
  if (rest >= 1) {
    h ^= data[tail]!;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

function metadata(n: number): PartitionMetadata[] {
  return Array.from({ length: n }, (_, partitionId) => ({
    partitionErrorCode: 0,
    partitionId,
    leader: 1,
    replicas: [1],
    isr: [1],
  }));
}

/** 500 keys: fixed edge cases, random bytes of many lengths, and strings (ASCII, non-ASCII, long). */
function keys(): Buffer[] {
  const out: Buffer[] = [
    Buffer.alloc(0),
    Buffer.from([0]),
    Buffer.from([0xff]),
    Buffer.from([0x80, 0x80]),
    Buffer.from([0xff, 0xff, 0xff]),
    Buffer.from([0xff, 0xff, 0xff, 0xff]),
    Buffer.alloc(10_007, 0xab),
    Buffer.from('long-key-'.repeat(1_000)),
  ];
  const rng = fc.sample(
    fc.oneof(
      fc.uint8Array({ minLength: 0, maxLength: 64 }).map((a) => Buffer.from(a)),
      fc.uint8Array({ minLength: 64, maxLength: 4096 }).map((a) => Buffer.from(a)),
      fc.string({ maxLength: 40 }).map((s) => Buffer.from(s, 'utf8')),
      fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => Buffer.from(s, 'utf8')),
    ),
    { numRuns: 400, seed: 42 },
  );
  out.push(...rng);
  for (let i = 0; out.length < 450; i++) out.push(Buffer.from(`order-${i}`));
  while (out.length < 500) out.push(randomBytes(out.length % 37));
  return out;
}

describe('murmur2', () => {
  it("matches Kafka's UtilsTest.testMurmur2 vectors", () => {
    const cases: Array<[string, number]> = [
      ['21', -973932308],
      ['foobar', -790332482],
      ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829],
      ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
      ['abc', 479470107],
    ];
    for (const [key, expected] of cases) expect(murmur2(Buffer.from(key))).toBe(expected);
  });

  it('equals an independent MurmurHash2 over bytes for every tail length and random input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(murmur2(bytes)).toBe(referenceMurmur2(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts a plain Uint8Array as well as a Buffer', () => {
    const bytes = new Uint8Array([1, 2, 3, 4, 5]);
    expect(murmur2(bytes)).toBe(murmur2(Buffer.from(bytes)));
  });
});

describe('toPositive', () => {
  it('clears the sign bit', () => {
    expect(toPositive(-1)).toBe(0x7fffffff);
    expect(toPositive(-2147483648)).toBe(0);
    expect(toPositive(5)).toBe(5);
  });
});

describe('partitionForKey', () => {
  const all = keys();

  it('has 500 keys including empty and long ones', () => {
    expect(all).toHaveLength(500);
    expect(all.some((k) => k.length === 0)).toBe(true);
    expect(all.some((k) => k.length > 9_000)).toBe(true);
  });

  it('hashes a 1 MB key like the reference (kafkajs is too slow on it: its murmur2 allocates per block)', () => {
    const big = randomBytes(1_000_003);
    expect(murmur2(big)).toBe(referenceMurmur2(big));
  });

  it("equals kafkajs's DefaultPartitioner for partition counts 1..50", () => {
    const kafkajs = Partitioners.DefaultPartitioner();
    for (let n = 1; n <= 50; n++) {
      const partitionMetadata = metadata(n);
      for (const key of all) {
        const expected = kafkajs({ topic: 't', partitionMetadata, message: { key, value: null } });
        expect(partitionForKey(key, n)).toBe(expected);
      }
    }
  });

  it("equals kafkajs for string keys (kafkajs encodes strings as UTF-8, as Kafka's StringSerializer)", () => {
    const kafkajs = Partitioners.DefaultPartitioner();
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.integer({ min: 1, max: 50 }), (key, n) => {
        const expected = kafkajs({ topic: 't', partitionMetadata: metadata(n), message: { key, value: null } });
        expect(partitionForKey(Buffer.from(key, 'utf8'), n)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('is within range and deterministic', () => {
    for (const key of all.slice(0, 50)) {
      for (const n of [1, 2, 3, 7, 1000]) {
        const p = partitionForKey(key, n);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThan(n);
        expect(partitionForKey(key, n)).toBe(p);
      }
    }
  });

  it('matches the partitions Kafka computes for the test vectors', () => {
    // toPositive(-973932308) % 6 etc., computed from Kafka's vectors.
    expect(partitionForKey(Buffer.from('21'), 6)).toBe((-973932308 & 0x7fffffff) % 6);
    expect(partitionForKey(Buffer.from('abc'), 10)).toBe(479470107 % 10);
  });

  it('rejects a partition count that is not a positive integer', () => {
    expect(() => partitionForKey(Buffer.from('k'), 0)).toThrow(RangeError);
    expect(() => partitionForKey(Buffer.from('k'), 1.5)).toThrow(RangeError);
    expect(() => partitionForKey(Buffer.from('k'), Number.NaN)).toThrow(RangeError);
  });
});

describe('StickyPartitioner', () => {
  it('changes partition on every batch when there are several, round robin from the start', () => {
    const p = new StickyPartitioner(5);
    expect([p.next(3), p.next(3), p.next(3), p.next(3)]).toEqual([2, 0, 1, 2]);
  });

  it('keeps the partition for the records of one batch', () => {
    const p = new StickyPartitioner(0);
    const first = p.next(4);
    expect(p.sticky(4)).toBe(first);
    expect(p.sticky(4)).toBe(first);
    expect(p.next(4)).not.toBe(first);
  });

  it('always answers 0 with one partition', () => {
    const p = new StickyPartitioner();
    for (let i = 0; i < 5; i++) expect(p.next(1)).toBe(0);
  });

  it('spreads batches evenly', () => {
    const p = new StickyPartitioner();
    const counts = new Array<number>(7).fill(0);
    for (let i = 0; i < 700; i++) counts[p.next(7)]!++;
    expect(counts).toEqual(new Array<number>(7).fill(100));
  });

  it('stays in range when the partition count changes', () => {
    fc.assert(
      fc.property(fc.nat(), fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 50 }), (start, ns) => {
        const p = new StickyPartitioner(start);
        let previous: { n: number; partition: number } | null = null;
        for (const n of ns) {
          const partition = p.next(n);
          expect(partition).toBeGreaterThanOrEqual(0);
          expect(partition).toBeLessThan(n);
          if (previous && previous.n === n && n > 1) expect(partition).not.toBe(previous.partition);
          expect(p.sticky(n)).toBe(partition);
          previous = { n, partition };
        }
      }),
    );
  });

  it('picks a new partition when sticky() has none or the count shrank', () => {
    const p = new StickyPartitioner(9);
    expect(p.sticky(10)).toBe(9);
    expect(p.sticky(5)).toBeLessThan(5);
  });
});
