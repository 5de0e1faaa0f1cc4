// Standard base64 decoding of many spans of one body at once, for the v2 binary produce scanner: the native AVX2
// addon built from native/base64.c when `npm run build` could build it and this CPU has AVX2, else the JavaScript
// decoder below. BROOK_NATIVE_BASE64=false forces the JavaScript one. Both take and refuse exactly the same texts and
// write the same bytes (base64-spans.spec.ts).
//
// A span is three numbers of an Int32Array: from, to, into; the text body[from, to) is decoded into data at `into`.
// A text is valid when its length is a multiple of 4, every character of every group but the last is in the
// alphabet A-Z a-z 0-9 + /, and the last group is two alphabet characters then two more, or one and '=', or '=='
// (the unused low bits before the padding are not checked). Its decoded length is base64DecodedLength.
import { loadAddonFunction } from '../../common/native-addon.js';

/** Decodes `count` spans; false when one of them is not valid base64 (data is then partly written). */
export type DecodeSpans = (body: Uint8Array, data: Uint8Array, spans: Int32Array, count: number) => boolean;

const EQUALS = 0x3d;

/** The 6-bit value of each character of the standard base64 alphabet, -1 for every other byte. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const SEXTET = new Int32Array(256).fill(-1);
[...ALPHABET].forEach((char, i) => {
  SEXTET[char.charCodeAt(0)] = i;
});
/**
 * The 12 bits of each pair of alphabet characters as a little-endian 16-bit read sees them (second byte << 8 | first
 * byte), -1 for every other pair; PAIR_HIGH holds the same bits shifted left by 12 (the first pair of a group).
 */
const PAIR = new Int16Array(65536).fill(-1);
const PAIR_HIGH = new Int32Array(65536).fill(-1);
for (let x = 0; x < 64; x++) {
  for (let y = 0; y < 64; y++) {
    const pair = (ALPHABET.charCodeAt(y) << 8) | ALPHABET.charCodeAt(x);
    PAIR[pair] = (x << 6) | y;
    PAIR_HIGH[pair] = ((x << 6) | y) << 12;
  }
}

/**
 * The decoded length of the base64 text body[from, to) when it is valid (3 bytes a group, less one per trailing
 * '='), or -1 when its length is not a multiple of 4.
 */
export function base64DecodedLength(body: Uint8Array, from: number, to: number): number {
  const length = to - from;
  if (length % 4 !== 0) return -1;
  let padding = 0;
  if (length > 0 && body[to - 1] === EQUALS) padding++;
  if (length > 1 && body[to - 2] === EQUALS) padding++;
  return (length / 4) * 3 - padding;
}

/**
 * Decodes the base64 text body[from, to) (a multiple of 4 long) into `data` at `into`. Returns the position after
 * the bytes written, base64DecodedLength of them, or -1 when the text is not base64. `source` and `target` are
 * DataViews of `body` and `data`: every group but the last is read as one 32-bit word and looked up as two character
 * pairs, four groups (12 bytes, three 32-bit writes) at a time while they last.
 */
function decodeInto(
  body: Uint8Array,
  source: DataView,
  from: number,
  to: number,
  data: Uint8Array,
  target: DataView,
  into: number,
): number {
  let out = into;
  const lastGroup = to - 4;
  let i = from;
  for (; i + 16 <= lastGroup; i += 16) {
    const w0 = source.getUint32(i, true);
    const w1 = source.getUint32(i + 4, true);
    const w2 = source.getUint32(i + 8, true);
    const w3 = source.getUint32(i + 12, true);
    const a = PAIR_HIGH[w0 & 0xffff] | PAIR[w0 >>> 16];
    const b = PAIR_HIGH[w1 & 0xffff] | PAIR[w1 >>> 16];
    const c = PAIR_HIGH[w2 & 0xffff] | PAIR[w2 >>> 16];
    const d = PAIR_HIGH[w3 & 0xffff] | PAIR[w3 >>> 16];
    // some pair was -1: not in the alphabet (an escape, '=', non-ASCII, ...)
    if ((a | b | c | d) < 0) return -1;
    target.setUint32(out, (a << 8) | (b >>> 16));
    target.setUint32(out + 4, (b << 16) | (c >>> 8));
    target.setUint32(out + 8, (c << 24) | d);
    out += 12;
  }
  for (; i < lastGroup; i += 4) {
    const word = source.getUint32(i, true);
    const bits = PAIR_HIGH[word & 0xffff] | PAIR[word >>> 16];
    if (bits < 0) return -1;
    data[out++] = bits >>> 16;
    data[out++] = (bits >>> 8) & 0xff;
    data[out++] = bits & 0xff;
  }
  if (to > from) {
    const a = SEXTET[body[i]];
    const b = SEXTET[body[i + 1]];
    const c3 = body[i + 2];
    const d4 = body[i + 3];
    if ((a | b) < 0) return -1;
    if (d4 === EQUALS) {
      if (c3 === EQUALS) {
        data[out++] = (a << 2) | (b >>> 4);
      } else {
        const c = SEXTET[c3];
        if (c < 0) return -1;
        const bits = (a << 18) | (b << 12) | (c << 6);
        data[out++] = bits >>> 16;
        data[out++] = (bits >>> 8) & 0xff;
      }
    } else {
      const c = SEXTET[c3];
      const d = SEXTET[d4];
      if ((c | d) < 0) return -1;
      const bits = (a << 18) | (b << 12) | (c << 6) | d;
      data[out++] = bits >>> 16;
      data[out++] = (bits >>> 8) & 0xff;
      data[out++] = bits & 0xff;
    }
  }
  return out;
}

/** The JavaScript implementation (always available). */
export const portableDecodeSpans: DecodeSpans = (body, data, spans, count) => {
  // the same arguments the native call takes, refused the same way
  if (!(body instanceof Uint8Array) || !(data instanceof Uint8Array) || !(spans instanceof Int32Array)) {
    throw new TypeError('decodeSpans(body: Uint8Array, data: Uint8Array, spans: Int32Array, count: number)');
  }
  if (!Number.isInteger(count) || count < 0) throw new RangeError('decodeSpans: count must be a whole number >= 0');
  if (count * 3 > spans.length) throw new RangeError('decodeSpans: count exceeds the spans given');
  const source = new DataView(body.buffer, body.byteOffset, body.length);
  const target = new DataView(data.buffer, data.byteOffset, data.length);
  for (let i = 0; i < count; i++) {
    const from = spans[3 * i];
    const to = spans[3 * i + 1];
    const into = spans[3 * i + 2];
    if (from < 0 || to < from || to > body.length || into < 0 || into > data.length) {
      throw new RangeError('decodeSpans: a span lies outside the body or the data');
    }
    const length = base64DecodedLength(body, from, to);
    if (length < 0) return false;
    if (into + length > data.length) throw new RangeError("decodeSpans: a span's bytes do not fit in the data");
    if (decodeInto(body, source, from, to, data, target, into) < 0) return false;
  }
  return true;
};

/** The native implementation, or null when it is not available here. */
export const nativeDecodeSpans: DecodeSpans | null = loadAddonFunction<DecodeSpans>(
  'base64',
  'decodeSpans',
  'BROOK_NATIVE_BASE64',
);

/** Decodes `count` spans of `spans` from `body` into `data`; false when one is not valid base64. */
export const decodeSpans: DecodeSpans = nativeDecodeSpans ?? portableDecodeSpans;

export const base64Implementation: 'native-avx2' | 'javascript' =
  nativeDecodeSpans === null ? 'javascript' : 'native-avx2';
