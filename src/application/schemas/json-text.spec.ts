// skipJsonString, which reads long strings four bytes at a time, against RFC 8259's string grammar as a regular
// expression over the bytes: strings of every length with stop bytes (quote, backslash, control characters) and
// escapes at every place, at every alignment of the string in its buffer and of the buffer in its memory.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { skipJsonString } from './json-text.js';

/** A JSON string token at the start of a latin1 view of the bytes (each char one byte). */
// eslint-disable-next-line no-control-regex -- the grammar excludes the control characters by name
const STRING_TOKEN = /^"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/;

const piece = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('a', 'Z', ' ', '~', '0', '!', 'é', '€', '\u007f') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('"', '\\', '\\n', '\\"', '\\\\', '\\u00e9', '\\u12G4', '\\x', '\u0001', '\t', '\u001f'),
  },
);
const content = fc.array(piece, { maxLength: 120 }).map((pieces) => pieces.join(''));

describe('skipJsonString', () => {
  it('ends where the grammar ends the string, or answers -1 where it has none, at any alignment', () => {
    fc.assert(
      fc.property(
        content,
        fc.constantFrom('', '"', '" , 1', 'x'),
        fc.nat(7),
        fc.nat(7),
        (inside, after, lead, shift) => {
          const token = Buffer.from(`${' '.repeat(lead)}"${inside}${after}`);
          // the text at `shift` bytes into a larger buffer (its byteOffset not a multiple of four)
          const memory = Buffer.alloc(shift + token.length + 5, 0x61);
          token.copy(memory, shift);
          const text = memory.subarray(shift, shift + token.length);
          const notes = { escaped: false };
          const end = skipJsonString(text, lead, notes);
          const match = STRING_TOKEN.exec(text.toString('latin1', lead));
          expect(end).toBe(match === null ? -1 : lead + match[0].length);
          if (match !== null) expect(notes.escaped).toBe(match[0].includes('\\'));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
