import { describe, expect, it } from 'vitest';
import { DEFAULT_LINE_FORMAT, parseLine } from './producer-lines.js';

const keyed = { ...DEFAULT_LINE_FORMAT, parseKey: true };
const withHeaders = { ...DEFAULT_LINE_FORMAT, parseHeaders: true };

describe('parseLine', () => {
  it('makes the whole line the value by default, without key or headers', () => {
    expect(parseLine('hello boy', DEFAULT_LINE_FORMAT)).toEqual({
      ok: true,
      record: { headers: [], key: null, value: 'hello boy' },
    });
    expect(parseLine('', DEFAULT_LINE_FORMAT)).toEqual({ ok: true, record: { headers: [], key: null, value: '' } });
  });

  it('splits the key at the first separator with parse.key (tab by default)', () => {
    expect(parseLine('k\tv\tw', keyed)).toEqual({ ok: true, record: { headers: [], key: 'k', value: 'v\tw' } });
    expect(parseLine('k::v', { ...keyed, keySeparator: '::' })).toEqual({
      ok: true,
      record: { headers: [], key: 'k', value: 'v' },
    });
    expect(parseLine(':v', { ...keyed, keySeparator: ':' })).toEqual({
      ok: true,
      record: { headers: [], key: '', value: 'v' },
    });
  });

  it('fails a line without the key separator, naming it', () => {
    expect(parseLine('no key here', { ...keyed, keySeparator: ':' })).toEqual({
      ok: false,
      message: 'no key separator ":" found',
    });
  });

  it('reads headers before the headers delimiter, then the key and the value', () => {
    expect(parseLine('trace:abc,flag,empty:\tk\tv', { ...withHeaders, parseKey: true })).toEqual({
      ok: true,
      record: {
        headers: [
          { name: 'trace', value: 'abc' },
          { name: 'flag', value: null },
          { name: 'empty', value: '' },
        ],
        key: 'k',
        value: 'v',
      },
    });
    expect(parseLine('\tvalue only', withHeaders)).toEqual({
      ok: true,
      record: { headers: [], key: null, value: 'value only' },
    });
    const custom = { ...withHeaders, headersDelimiter: '|', headersSeparator: ';', headersKeySeparator: '=' };
    expect(parseLine('a=1;b=2|v', custom)).toEqual({
      ok: true,
      record: {
        headers: [
          { name: 'a', value: '1' },
          { name: 'b', value: '2' },
        ],
        key: null,
        value: 'v',
      },
    });
  });

  it('fails a line without the headers delimiter', () => {
    expect(parseLine('just a value', withHeaders)).toEqual({ ok: false, message: 'no headers delimiter "\\t" found' });
  });

  it('turns the null marker into null for the key, the value or a header value', () => {
    const format = { ...keyed, parseHeaders: true, keySeparator: ':', nullMarker: 'NULL' };
    expect(parseLine('h:NULL\tk:NULL', format)).toEqual({
      ok: true,
      record: { headers: [{ name: 'h', value: null }], key: 'k', value: null },
    });
    expect(parseLine('\tNULL:v', format)).toEqual({ ok: true, record: { headers: [], key: null, value: 'v' } });
    expect(parseLine('\tk:NULLS', format)).toEqual({ ok: true, record: { headers: [], key: 'k', value: 'NULLS' } });
  });
});
