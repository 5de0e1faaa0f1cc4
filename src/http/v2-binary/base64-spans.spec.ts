// The native AVX2 base64 span decoder against the JavaScript one it stands in for: on random valid and invalid texts
// (any byte anywhere, padding anywhere, lengths across the 32-character steps, misaligned places in the body and the
// data, several spans a call) they give the same answer, and when they take the spans, the same bytes in data and
// nothing written outside the spans' places; and on every byte value in every position of short and long texts.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base64DecodedLength,
  base64Implementation,
  decodeSpans,
  nativeDecodeSpans,
  portableDecodeSpans,
} from './base64-spans.js';

/**
 * Where `npm run build` can build the addon (x86-64 Linux with AVX2, a C compiler, Node's headers), it must load: a
 * build that quietly failed there fails this test. (Run after `npm run build`, as the test command does.)
 */
const [compiler, ...compilerArgs] = (process.env.CC ?? 'cc').trim().split(/\s+/);
const buildable =
  process.platform === 'linux' &&
  process.arch === 'x64' &&
  process.env.BROOK_NATIVE_BASE64 !== 'false' &&
  /\bavx2\b/.test(readFileSync('/proc/cpuinfo', 'utf8')) &&
  spawnSync(compiler, [...compilerArgs, '--version']).status === 0 &&
  existsSync(join(dirname(dirname(process.execPath)), 'include', 'node', 'node_api.h'));

/** A filler byte for data, so that any byte written outside a span's place shows. */
const FILL = 0xa5;

interface Span {
  text: Buffer;
  /** bytes before the text in the body, and before its place in the data */
  bodyGap: number;
  dataGap: number;
}

/** The body and data layout of some spans, each text after its gap; a span's place is its decoded length. */
function layout(spans: Span[]): { body: Buffer; data: number; columns: Int32Array } {
  const parts: Buffer[] = [];
  const columns = new Int32Array(3 * spans.length);
  let bodyAt = 0;
  let dataAt = 0;
  spans.forEach((span, i) => {
    parts.push(Buffer.alloc(span.bodyGap, 0x22), span.text);
    bodyAt += span.bodyGap;
    dataAt += span.dataGap;
    columns[3 * i] = bodyAt;
    columns[3 * i + 1] = bodyAt + span.text.length;
    columns[3 * i + 2] = dataAt;
    bodyAt += span.text.length;
    dataAt += Math.max(0, base64DecodedLength(span.text, 0, span.text.length));
  });
  return { body: Buffer.concat(parts), data: dataAt + 8, columns };
}

/** Decodes with both; they must agree on the answer, and on every byte of data when they take the spans. */
function expectSame(spans: Span[]): boolean {
  const { body, data, columns } = layout(spans);
  const native = Buffer.alloc(data, FILL);
  const portable = Buffer.alloc(data, FILL);
  const nativeTakes = nativeDecodeSpans!(body, native, columns, spans.length);
  const portableTakes = portableDecodeSpans(body, portable, columns, spans.length);
  expect(nativeTakes).toBe(portableTakes);
  if (portableTakes) expect(native.equals(portable)).toBe(true);
  return portableTakes;
}

const span = (text: Buffer, bodyGap = 0, dataGap = 0): Span => ({ text, bodyGap, dataGap });

/** Valid base64 of 0..200 bytes, sometimes of up to 2,000 (many 32-character steps). */
const validText = fc
  .oneof(
    { weight: 4, arbitrary: fc.uint8Array({ maxLength: 200 }) },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 200, maxLength: 2000 }) },
  )
  .map((bytes) => Buffer.from(Buffer.from(bytes).toString('base64'), 'latin1'));

/** A valid text, or one with a byte replaced, a byte or '=' put in, or its end cut, changed to padding or padded. */
const text: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 3, arbitrary: validText },
  {
    weight: 3,
    arbitrary: fc
      .tuple(validText, fc.nat(), fc.integer({ min: 0, max: 255 }))
      .map(([t, where, byte]) =>
        t.length === 0
          ? t
          : Buffer.concat([t.subarray(0, where % t.length), Buffer.of(byte), t.subarray((where % t.length) + 1)]),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(validText, fc.nat(), fc.constantFrom(0x3d, 0x22, 0x5c, 0x80, 0xff, 0x00))
      .map(([t, where, byte]) => {
        const at = where % (t.length + 1);
        return Buffer.concat([t.subarray(0, at), Buffer.of(byte), t.subarray(at)]);
      }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(validText, fc.integer({ min: 1, max: 3 }), fc.constantFrom('cut', 'pad', 'append'))
      .map(([t, n, how]) => {
        if (how === 'cut') return t.subarray(0, Math.max(0, t.length - n));
        if (how === 'append') return Buffer.concat([t, Buffer.alloc(n, 0x3d)]);
        const padded = Buffer.from(t);
        padded.fill(0x3d, Math.max(0, t.length - n));
        return padded;
      }),
  },
);

describe('base64 spans', () => {
  it.skipIf(!buildable)('uses the native addon wherever it can be built', () => {
    expect(base64Implementation).toBe('native-avx2');
    expect(decodeSpans).toBe(nativeDecodeSpans);
  });

  it('the JavaScript decoder gives what Buffer gives for valid base64', () => {
    fc.assert(
      fc.property(validText, (t) => {
        const data = Buffer.alloc(base64DecodedLength(t, 0, t.length));
        expect(portableDecodeSpans(t, data, Int32Array.of(0, t.length, 0), 1)).toBe(true);
        expect(data.equals(Buffer.from(t.toString('latin1'), 'base64'))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a span outside the body or the data', () => {
    const body = Buffer.from('QUJD');
    for (const decode of [portableDecodeSpans, nativeDecodeSpans].filter((d) => d !== null)) {
      expect(() => decode(body, Buffer.alloc(3), Int32Array.of(0, 8, 0), 1)).toThrow(RangeError);
      expect(() => decode(body, Buffer.alloc(2), Int32Array.of(0, 4, 0), 1)).toThrow(RangeError);
      expect(() => decode(body, Buffer.alloc(3), Int32Array.of(0, 4, 0), 2)).toThrow(RangeError);
      expect(decode(body, Buffer.alloc(3), Int32Array.of(0, 3, 0), 1)).toBe(false);
      expect(decode(body, Buffer.alloc(3), Int32Array.of(0, 0, 3), 1)).toBe(true);
    }
  });

  it.skipIf(nativeDecodeSpans === null)(
    'property: native and JavaScript agree on any text, at any place in body and data, several spans a call',
    () => {
      let taken = 0;
      fc.assert(
        fc.property(
          fc.array(
            fc
              .tuple(text, fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }))
              .map(([t, b, d]) => span(t, b, d)),
            { minLength: 1, maxLength: 5 },
          ),
          (spans) => {
            if (expectSame(spans)) taken++;
          },
        ),
        { numRuns: 5000 },
      );
      expect(taken).toBeGreaterThan(500); // not vacuous: many calls decode every span
    },
  );

  it.skipIf(nativeDecodeSpans === null)(
    'every byte value in every position of texts of 1, 2, 9, 10 and 18 groups (no padding, "=", "==") agrees',
    () => {
      for (const bytes of [1, 2, 3, 4, 5, 6, 25, 26, 27, 28, 29, 30, 52, 53, 54]) {
        const valid = Buffer.from(
          Buffer.from(Array.from({ length: bytes }, (_, i) => (i * 37 + 11) & 0xff)).toString('base64'),
          'latin1',
        );
        expect(expectSame([span(valid)])).toBe(true);
        for (let position = 0; position < valid.length; position++) {
          for (let byte = 0; byte < 256; byte++) {
            const changed = Buffer.from(valid);
            changed[position] = byte;
            expectSame([span(changed, 3, 5)]);
          }
        }
      }
    },
  );
});
