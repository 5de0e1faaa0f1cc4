import { describe, expect, it } from 'vitest';
import { DEFAULT_LINE_FORMAT, parseLine } from './producer-lines.js';

describe('parseLine', () => {
  it('makes the whole line the value by default, without a key', () => {
    expect(parseLine('hello boy', DEFAULT_LINE_FORMAT)).toEqual({
      ok: true,
      record: { key: null, value: 'hello boy' },
    });
    expect(parseLine('', DEFAULT_LINE_FORMAT)).toEqual({ ok: true, record: { key: null, value: '' } });
  });

  it('splits the key at the first separator with parse.key (tab by default)', () => {
    const format = { ...DEFAULT_LINE_FORMAT, parseKey: true };
    expect(parseLine('k\tv\tw', format)).toEqual({ ok: true, record: { key: 'k', value: 'v\tw' } });
    expect(parseLine('k::v', { ...format, keySeparator: '::' })).toEqual({
      ok: true,
      record: { key: 'k', value: 'v' },
    });
    expect(parseLine(':v', { ...format, keySeparator: ':' })).toEqual({ ok: true, record: { key: '', value: 'v' } });
  });

  it('fails a line without the separator, naming it', () => {
    expect(parseLine('no key here', { ...DEFAULT_LINE_FORMAT, parseKey: true, keySeparator: ':' })).toEqual({
      ok: false,
      message: 'no key separator ":" found',
    });
  });

  it('turns the null marker into null for the key or the value', () => {
    const format = { parseKey: true, keySeparator: ':', nullMarker: 'NULL' };
    expect(parseLine('k:NULL', format)).toEqual({ ok: true, record: { key: 'k', value: null } });
    expect(parseLine('NULL:v', format)).toEqual({ ok: true, record: { key: null, value: 'v' } });
    expect(parseLine('k:NULLS', format)).toEqual({ ok: true, record: { key: 'k', value: 'NULLS' } });
  });
});
