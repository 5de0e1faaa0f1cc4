import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSON_DEPTH_MAX, jsonDepth, parseJson } from './json-body-parser.js';

/** jsonDepth read byte by byte: in a string, a backslash takes the byte after it. */
function depthByteByByte(body: Buffer, stopAbove: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const char = String.fromCharCode(body[i]);
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (char === '}' || char === ']') depth--;
  }
  return deepest;
}

describe('JSON body parsing', () => {
  it('measures nesting outside strings only', () => {
    expect(jsonDepth(Buffer.from('{"a":[1,{"b":[]}]}'))).toBe(4);
    expect(jsonDepth(Buffer.from('{"a":"[[[[{{{{\\"[[["}'))).toBe(1);
    expect(jsonDepth(Buffer.from('"\\\\"'))).toBe(0);
    expect(jsonDepth(Buffer.from('["é", {"ü": ["x"]}]'))).toBe(3);
  });

  it('counts as reading every byte would, on any text (strings skipped to their unescaped closing quote)', () => {
    const text = fc.array(fc.constantFrom('{', '}', '[', ']', '"', '\\', 'a', 'é', ','), { maxLength: 60 });
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 6 }), (chars, stopAbove) => {
        const body = Buffer.from(chars.join(''));
        expect(jsonDepth(body, stopAbove)).toBe(depthByteByByte(body, stopAbove));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.json({ maxDepth: 6 }), (json) => {
        const body = Buffer.from(json);
        expect(jsonDepth(body)).toBe(depthByteByByte(body, JSON_DEPTH_MAX));
      }),
    );
  });

  it('refuses bodies nested deeper than the bound with a 400, accepts the bound itself', () => {
    const nested = (depth: number) => Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    expect(parseJson(nested(JSON_DEPTH_MAX))).toBeInstanceOf(Array);
    expect(() => parseJson(nested(JSON_DEPTH_MAX + 1))).toThrow(/deeper than 128/);
    expect(() => parseJson(nested(100_000))).toThrow(expect.objectContaining({ status: 400, errorCode: 400 }));
    expect(() => parseJson(Buffer.from([0x7b, 0xff, 0x7d]))).toThrow(/UTF-8/);
  });
});
