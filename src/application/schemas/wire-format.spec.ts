// Confluent's wire format: the header and the Protobuf message indexes round-trip (property), known byte layouts,
// and every malformed input is a typed failure rather than an exception.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeMessageIndexes,
  decodeWireHeader,
  encodeMessageIndexes,
  encodeWireFormat,
  MAX_MESSAGE_INDEXES,
} from './wire-format.js';

describe('the header', () => {
  it('is the magic byte 0 and the id in 4 big-endian bytes before the payload', () => {
    expect([...encodeWireFormat(0x01020304, Buffer.from([9, 8]))]).toEqual([0, 1, 2, 3, 4, 9, 8]);
  });

  it('round-trips any id and payload', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x7fffffff }), fc.uint8Array({ maxLength: 64 }), (id, payload) => {
        const decoded = decodeWireHeader(encodeWireFormat(id, payload));
        expect(decoded).toEqual({ ok: true, schemaId: id, body: Buffer.from(payload) });
      }),
    );
  });

  it('refuses ids that are not Java ints from 0 (a programming error, thrown)', () => {
    expect(() => encodeWireFormat(-1, Buffer.alloc(0))).toThrow(RangeError);
    expect(() => encodeWireFormat(2 ** 31, Buffer.alloc(0))).toThrow(RangeError);
    expect(() => encodeWireFormat(1.5, Buffer.alloc(0))).toThrow(RangeError);
  });

  it('reports bytes that are not in the format', () => {
    expect(decodeWireHeader(Buffer.from([0, 0, 0, 1]))).toMatchObject({ ok: false, kind: 'not-wire-format' });
    expect(decodeWireHeader(Buffer.from('{"a":1}'))).toMatchObject({
      ok: false,
      kind: 'not-wire-format',
      message: 'unknown magic byte 123',
    });
    expect(decodeWireHeader(Buffer.from([0, 0xff, 0xff, 0xff, 0xff]))).toMatchObject({
      ok: false,
      kind: 'not-wire-format',
    });
    expect(decodeWireHeader(new Uint8Array(0))).toMatchObject({ ok: false, kind: 'not-wire-format' });
  });

  it('reads a header inside a larger buffer at its offset', () => {
    const backing = Buffer.from([7, 7, 0, 0, 0, 0, 5, 42, 7]);
    expect(decodeWireHeader(backing.subarray(2, 8))).toEqual({ ok: true, schemaId: 5, body: Buffer.from([42]) });
  });
});

describe('message indexes', () => {
  it('write [0] as the single byte 0 and other paths as zig-zag varints', () => {
    expect([...encodeMessageIndexes([0])]).toEqual([0]);
    expect([...encodeMessageIndexes([1])]).toEqual([2, 2]);
    expect([...encodeMessageIndexes([1, 0])]).toEqual([4, 2, 0]);
    expect([...encodeMessageIndexes([0, 2])]).toEqual([4, 0, 4]);
    expect([...encodeMessageIndexes([64])]).toEqual([2, 0x80, 0x01]);
  });

  it('round-trip any path, with the payload after them', () => {
    const path = fc.array(fc.integer({ min: 0, max: 0x7fffffff }), { minLength: 1, maxLength: MAX_MESSAGE_INDEXES });
    fc.assert(
      fc.property(path, fc.uint8Array({ maxLength: 16 }), (indexes, payload) => {
        const body = Buffer.concat([encodeMessageIndexes(indexes), payload]);
        expect(decodeMessageIndexes(body)).toEqual({ ok: true, indexes, payload: Buffer.from(payload) });
      }),
    );
  });

  it('read a count of zero as [0], as Confluent writes the first message', () => {
    expect(decodeMessageIndexes(Buffer.from([0, 8, 1]))).toEqual({
      ok: true,
      indexes: [0],
      payload: Buffer.from([8, 1]),
    });
  });

  it('report indexes cut short, negative, too many or endless', () => {
    expect(decodeMessageIndexes(Buffer.alloc(0))).toMatchObject({ ok: false, kind: 'bad-message-indexes' });
    expect(decodeMessageIndexes(Buffer.from([4, 2]))).toMatchObject({ ok: false, kind: 'bad-message-indexes' });
    expect(decodeMessageIndexes(Buffer.from([2, 1]))).toMatchObject({ ok: false, kind: 'bad-message-indexes' });
    expect(decodeMessageIndexes(Buffer.from([1]))).toMatchObject({ ok: false, kind: 'bad-message-indexes' });
    expect(decodeMessageIndexes(Buffer.from([(MAX_MESSAGE_INDEXES + 1) * 2]))).toMatchObject({ ok: false });
    expect(decodeMessageIndexes(Buffer.alloc(10, 0xff))).toMatchObject({ ok: false, kind: 'bad-message-indexes' });
  });

  it('never throw on any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 32 }), (bytes) => {
        const result = decodeMessageIndexes(Buffer.from(bytes));
        expect(typeof result.ok).toBe('boolean');
      }),
    );
  });

  it('refuse to write an empty or overlong path', () => {
    expect(() => encodeMessageIndexes([])).toThrow(RangeError);
    expect(() => encodeMessageIndexes(new Array(MAX_MESSAGE_INDEXES + 1).fill(1))).toThrow(RangeError);
    expect(() => encodeMessageIndexes([-1])).toThrow(RangeError);
  });
});
