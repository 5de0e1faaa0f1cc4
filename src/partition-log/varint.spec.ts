import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unZigZag, VARINT_MAX_BYTES, VarintReader, varintSize, writeVarint, zigZag } from './varint.js';

// kafkajs's own protocol encoder/decoder (plain CommonJS, no types) is the independent oracle: writeVarInt is its
// 32-bit zig-zag varint, writeVarLong its 64-bit one.
interface KafkajsEncoder {
  writeVarInt(value: number): KafkajsEncoder;
  writeVarLong(value: number): KafkajsEncoder;
  readonly buffer: Buffer;
}
interface KafkajsDecoder {
  readVarInt(): number;
  readVarLong(): { toString(): string };
}
const require = createRequire(import.meta.url);
const KafkajsEncoder = require('kafkajs/src/protocol/encoder.js') as new () => KafkajsEncoder;
const KafkajsDecoder = require('kafkajs/src/protocol/decoder.js') as new (buffer: Buffer) => KafkajsDecoder;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

function encode(value: number): Buffer {
  const buffer = Buffer.alloc(VARINT_MAX_BYTES);
  const end = writeVarint(buffer, 0, value);
  return buffer.subarray(0, end);
}

function decode(bytes: Buffer): { value: number; consumed: number } {
  const reader = new VarintReader(bytes, 0, bytes.length);
  const value = reader.readVarint();
  return { value, consumed: reader.position };
}

/** Reference zig-zag varint over the full int64 range, written from the protobuf definition with BigInt. */
function referenceEncode(value: bigint): Buffer {
  let zigzag = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));
  const bytes: number[] = [];
  while (zigzag >= 0x80n) {
    bytes.push(Number(zigzag & 0x7fn) | 0x80);
    zigzag >>= 7n;
  }
  bytes.push(Number(zigzag));
  return Buffer.from(bytes);
}

const kafkajsVarInt = (value: number): Buffer => new KafkajsEncoder().writeVarInt(value).buffer;
const kafkajsVarLong = (value: number): Buffer => new KafkajsEncoder().writeVarLong(value).buffer;

const KNOWN_VECTORS: Array<[value: number, hex: string]> = [
  [0, '00'],
  [-1, '01'],
  [1, '02'],
  [-2, '03'],
  [2, '04'],
  [63, '7e'],
  [-64, '7f'],
  [64, '8001'],
  [-65, '8101'],
  [300, 'd804'],
  [-300, 'd704'],
  [8191, 'fe7f'],
  [-8192, 'ff7f'],
  [8192, '808001'],
  [INT32_MAX, 'feffffff0f'],
  [INT32_MIN, 'ffffffff0f'],
  [2 ** 31, '8080808010'],
  [2 ** 52, '8080808080808010'],
  [-(2 ** 52) - 1, '8180808080808010'],
  [Number.MAX_SAFE_INTEGER, 'feffffffffffff1f'],
  [Number.MIN_SAFE_INTEGER, 'fdffffffffffff1f'],
];

const INT32_EDGES = [
  0,
  1,
  -1,
  63,
  64,
  -64,
  -65,
  8191,
  8192,
  -8192,
  -8193,
  2 ** 20 - 1,
  2 ** 20,
  -(2 ** 20),
  2 ** 27 - 1,
  2 ** 27,
  INT32_MAX - 1,
  INT32_MAX,
  INT32_MIN,
  INT32_MIN + 1,
];

describe('zig-zag varint: known byte vectors', () => {
  it.each(KNOWN_VECTORS)('%d encodes as %s', (value, hex) => {
    const bytes = encode(value);
    expect(bytes.toString('hex')).toBe(hex);
    expect(varintSize(value)).toBe(bytes.length);
    expect(decode(bytes)).toEqual({ value, consumed: bytes.length });
  });

  it('agrees with the BigInt reference and kafkajs writeVarLong on every vector', () => {
    for (const [value, hex] of KNOWN_VECTORS) {
      expect(referenceEncode(BigInt(value)).toString('hex')).toBe(hex);
      expect(kafkajsVarLong(value).toString('hex')).toBe(hex);
    }
  });

  it('agrees with kafkajs writeVarInt on the vectors in the int32 range', () => {
    for (const [value, hex] of KNOWN_VECTORS.filter(([value]) => value >= INT32_MIN && value <= INT32_MAX)) {
      expect(kafkajsVarInt(value).toString('hex')).toBe(hex);
    }
  });
});

describe('zig-zag varint: int32 edges', () => {
  it.each(INT32_EDGES)('%d round-trips and matches kafkajs writeVarInt / readVarInt', (value) => {
    const bytes = encode(value);
    expect(decode(bytes).value).toBe(value);
    expect(varintSize(value)).toBe(bytes.length);
    expect(bytes.length).toBeLessThanOrEqual(5);
    expect(bytes).toEqual(kafkajsVarInt(value));
    expect(new KafkajsDecoder(bytes).readVarInt()).toBe(value);
  });
});

describe('zig-zag varint: properties', () => {
  it('round-trips every safe integer and reports its size', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (value) => {
        const bytes = encode(value);
        expect(varintSize(value)).toBe(bytes.length);
        expect(decode(bytes)).toEqual({ value, consumed: bytes.length });
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips safe integers of every byte length (biased to large magnitudes)', () => {
    const anyWidth = fc
      .integer({ min: 1, max: 53 })
      .chain((bits) => fc.bigInt({ min: 1n << BigInt(bits - 1), max: (1n << BigInt(bits)) - 1n }))
      .chain((magnitude) => fc.constantFrom(Number(magnitude), -Number(magnitude)));
    fc.assert(
      fc.property(anyWidth, (value) => {
        const bytes = encode(value);
        expect(decode(bytes).value).toBe(value);
        expect(bytes).toEqual(referenceEncode(BigInt(value)));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes the same bytes as the BigInt reference and kafkajs writeVarLong over the safe range', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (value) => {
        const bytes = encode(value);
        expect(bytes).toEqual(referenceEncode(BigInt(value)));
        expect(bytes).toEqual(kafkajsVarLong(value));
        expect(new KafkajsDecoder(bytes).readVarLong().toString()).toBe(String(value));
      }),
      { numRuns: 1000 },
    );
  });

  it('writes the same bytes as kafkajs writeVarInt over int32, and kafkajs reads them back', () => {
    fc.assert(
      fc.property(fc.integer({ min: INT32_MIN, max: INT32_MAX }), (value) => {
        const bytes = encode(value);
        expect(bytes).toEqual(kafkajsVarInt(value));
        expect(new KafkajsDecoder(bytes).readVarInt()).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads kafkajs writeVarLong output back to the same number', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (value) => {
        expect(decode(kafkajsVarLong(value)).value).toBe(value);
      }),
    );
  });

  it('reads a sequence of varints laid end to end, advancing by each size', () => {
    fc.assert(
      fc.property(fc.array(fc.maxSafeInteger(), { maxLength: 30 }), (values) => {
        const buffer = Buffer.alloc(values.length * VARINT_MAX_BYTES);
        let end = 0;
        for (const value of values) end = writeVarint(buffer, end, value);
        expect(end).toBe(values.reduce((sum, value) => sum + varintSize(value), 0));
        const reader = new VarintReader(buffer, 0, end);
        expect(values.map(() => reader.readVarint())).toEqual(values);
        expect(reader.position).toBe(end);
      }),
    );
  });

  it('zigZag and unZigZag are inverse where the zig-zag form is a safe integer', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 52), max: 2 ** 52 }), (value) => {
        const encoded = zigZag(value);
        expect(encoded).toBeGreaterThanOrEqual(0);
        expect(encoded).toBe(Number(BigInt.asUintN(64, (BigInt(value) << 1n) ^ (BigInt(value) >> 63n))));
        expect(unZigZag(encoded)).toBe(value);
      }),
    );
  });
});

describe('VarintReader bounds', () => {
  it('throws RangeError when a varint runs past the end', () => {
    const bytes = encode(300); // d8 04
    expect(() => new VarintReader(bytes, 0, 1).readVarint()).toThrow(RangeError);
    expect(() => new VarintReader(Buffer.alloc(0), 0, 0).readVarint()).toThrow(RangeError);
  });

  it('throws RangeError on a varint longer than 10 bytes', () => {
    const bytes = Buffer.alloc(11, 0x80);
    expect(() => new VarintReader(bytes, 0, bytes.length).readVarint()).toThrow(/longer than 10 bytes/);
  });

  it('respects the end it was given even when the buffer goes on', () => {
    const buffer = Buffer.from([0x80, 0x01, 0x02]);
    expect(() => new VarintReader(buffer, 0, 1).readVarint()).toThrow(RangeError);
    expect(new VarintReader(buffer, 0, 2).readVarint()).toBe(64);
  });

  it('readBytes returns null for length -1, a shared slice otherwise, and rejects lengths past the end', () => {
    const buffer = Buffer.alloc(16);
    let end = writeVarint(buffer, 0, -1);
    end = writeVarint(buffer, end, 3);
    buffer.write('abc', end);
    end += 3;
    const reader = new VarintReader(buffer, 0, end);
    expect(reader.readBytes()).toBeNull();
    const slice = reader.readBytes();
    expect(slice?.toString()).toBe('abc');
    expect(slice?.buffer).toBe(buffer.buffer);
    expect(reader.position).toBe(end);

    const lying = Buffer.alloc(4);
    writeVarint(lying, 0, 10);
    expect(() => new VarintReader(lying, 0, lying.length).readBytes()).toThrow(RangeError);
    const negative = Buffer.alloc(4);
    writeVarint(negative, 0, -2);
    expect(() => new VarintReader(negative, 0, negative.length).readBytes()).toThrow(RangeError);
  });

  it('readInt8 reads signed and stops at the end', () => {
    const reader = new VarintReader(Buffer.from([0xff]), 0, 1);
    expect(reader.readInt8()).toBe(-1);
    expect(() => reader.readInt8()).toThrow(RangeError);
  });
});
