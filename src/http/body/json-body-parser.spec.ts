import { describe, expect, it } from 'vitest';
import { JSON_DEPTH_MAX, jsonDepth, parseJson } from './json-body-parser.js';

describe('JSON body parsing', () => {
  it('measures nesting outside strings only', () => {
    expect(jsonDepth(Buffer.from('{"a":[1,{"b":[]}]}'))).toBe(4);
    expect(jsonDepth(Buffer.from('{"a":"[[[[{{{{\\"[[["}'))).toBe(1);
    expect(jsonDepth(Buffer.from('"\\\\"'))).toBe(0);
    expect(jsonDepth(Buffer.from('["é", {"ü": ["x"]}]'))).toBe(3);
  });

  it('refuses bodies nested deeper than the bound with a 400, accepts the bound itself', () => {
    const nested = (depth: number) => Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    expect(parseJson(nested(JSON_DEPTH_MAX))).toBeInstanceOf(Array);
    expect(() => parseJson(nested(JSON_DEPTH_MAX + 1))).toThrow(/deeper than 128/);
    expect(() => parseJson(nested(100_000))).toThrow(expect.objectContaining({ status: 400, errorCode: 400 }));
    expect(() => parseJson(Buffer.from([0x7b, 0xff, 0x7d]))).toThrow(/UTF-8/);
  });
});
