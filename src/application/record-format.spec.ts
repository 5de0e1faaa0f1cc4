import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64Strict, isBase64 } from './record-format.js';

// The one-pass base64 decoder of the v3 produce path accepts exactly the text isBase64 accepts (padded standard
// base64), and decodes it as Buffer.from does.

/** Mostly base64 text, with now and then one character replaced by anything (padding, URL-safe, non-ASCII...). */
const nearBase64 = fc
  .tuple(
    fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('base64')),
    fc.option(
      fc.tuple(
        fc.nat(),
        fc.oneof(fc.constantFrom('=', '-', '_', ' ', '\n', '!', 'ī', '😀'), fc.string({ maxLength: 2 })),
      ),
      { nil: undefined },
    ),
  )
  .map(([text, change]) => {
    if (change === undefined || text.length === 0) return text;
    const at = change[0] % text.length;
    return text.slice(0, at) + change[1] + text.slice(at + 1);
  });

describe('decodeBase64Strict', () => {
  it('accepts what isBase64 accepts and decodes it as Buffer.from does', () => {
    fc.assert(
      fc.property(
        fc.oneof(nearBase64, fc.string({ maxLength: 12 }), fc.stringMatching(/^[A-Za-z0-9+/=]{0,12}$/)),
        (text) => {
          const decoded = decodeBase64Strict(text);
          expect(decoded !== null, JSON.stringify(text)).toBe(isBase64(text));
          if (decoded !== null) expect(decoded.equals(Buffer.from(text, 'base64'))).toBe(true);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('agrees with isBase64 on every character of the BMP, in every position of a group', () => {
    for (let code = 0; code < 0x10000; code++) {
      const char = String.fromCharCode(code);
      for (const text of [`${char}bcd`, `ab${char}d`, `abc${char}`, `a${char}==`, `abcd${char}b==`]) {
        if ((decodeBase64Strict(text) !== null) !== isBase64(text)) expect.fail(`${JSON.stringify(text)} (${code})`);
      }
    }
  });
});
