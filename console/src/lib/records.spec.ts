import { describe, expect, it } from 'vitest';
import { fromDecoded, recordAsJson, recordMatches, renderBytes, textToBase64, type ConsoleRecord } from './records';

const record: ConsoleRecord = {
  partition: 1,
  offset: 7,
  timestamp: Date.UTC(2026, 0, 2),
  key: textToBase64('alice'),
  value: textToBase64('{"text":"héllo"}'),
  headers: [{ name: 'trace', value: textToBase64('t-1') }],
};

describe('records', () => {
  it('renders JSON pretty-printed, text as is, and bytes as hex', () => {
    expect(renderBytes(record.value, 'json')).toBe('{\n  "text": "héllo"\n}');
    expect(renderBytes(record.value, 'text')).toBe('{"text":"héllo"}');
    expect(renderBytes(textToBase64('AB'), 'hex')).toBe('41 42');
    expect(renderBytes(textToBase64('not json'), 'json')).toBe('not json');
    expect(renderBytes(null, 'json')).toBe('null');
  });

  it('copies a record as JSON with text keys, parsed values and headers', () => {
    expect(JSON.parse(recordAsJson(record))).toEqual({
      partition: 1,
      offset: 7,
      timestamp: '2026-01-02T00:00:00.000Z',
      key: 'alice',
      value: { text: 'héllo' },
      headers: [{ name: 'trace', value: 't-1' }],
    });
  });

  it('filters by key only or by any text', () => {
    expect(recordMatches(record, 'ALI', 'key')).toBe(true);
    expect(recordMatches(record, 'héllo', 'key')).toBe(false);
    expect(recordMatches(record, 'héllo', 'any')).toBe(true);
    expect(recordMatches(record, 'trace=t-1', 'any')).toBe(true);
    expect(recordMatches(record, 'bob', 'any')).toBe(false);
  });
});

describe('fromDecoded', () => {
  it('keeps decoded keys and values as the base64 of their JSON, with schema ids and decoding errors', () => {
    const record = fromDecoded({
      partition: 0,
      offset: 4,
      timestamp: 1,
      key: 'k',
      value: { name: 'ann', nick: null },
      headers: [],
      value_schema_id: 3,
      key_error: 'not in the wire format',
    });
    expect(renderBytes(record.value, 'text')).toBe('{"name":"ann","nick":null}');
    expect(renderBytes(record.key, 'text')).toBe('"k"');
    expect(record).toMatchObject({ valueSchemaId: 3, keySchemaId: null, keyError: 'not in the wire format' });
    expect(
      fromDecoded({ partition: 0, offset: 0, timestamp: 0, key: null, value: null, headers: [] }).value,
    ).toBeNull();
  });
});
