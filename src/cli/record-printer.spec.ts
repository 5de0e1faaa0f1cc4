import { describe, expect, it } from 'vitest';
import { DEFAULT_PRINT_OPTIONS, formatRecord, type ConsumedRecord } from './record-printer.js';

const record: ConsumedRecord = {
  topic: 'test',
  partition: 2,
  offset: 41,
  timestamp: 1770318882123,
  key: Buffer.from('user-42'),
  value: Buffer.from('hello boy'),
  headers: [
    { name: 'trace', value: Buffer.from('abc') },
    { name: 'empty', value: null },
  ],
};

describe('formatRecord', () => {
  it('prints the value alone by default', () => {
    expect(formatRecord(record, DEFAULT_PRINT_OPTIONS)).toBe('hello boy\n');
  });

  it("prints every field in Kafka's order with the key separator", () => {
    const all = {
      ...DEFAULT_PRINT_OPTIONS,
      printTimestamp: true,
      printPartition: true,
      printOffset: true,
      printHeaders: true,
      printKey: true,
    };
    expect(formatRecord(record, all)).toBe(
      'CreateTime:1770318882123\tPartition:2\tOffset:41\ttrace:abc,empty:null\tuser-42\thello boy\n',
    );
    expect(
      formatRecord(record, { ...all, keySeparator: ' | ', timestampType: 'LogAppendTime', printValue: false }),
    ).toBe('LogAppendTime:1770318882123 | Partition:2 | Offset:41 | trace:abc,empty:null | user-42\n');
  });

  it('prints null for a null key or value and NO_HEADERS without headers', () => {
    const bare = { ...record, key: null, value: null, headers: [] };
    expect(formatRecord(bare, { ...DEFAULT_PRINT_OPTIONS, printKey: true, printHeaders: true })).toBe(
      'NO_HEADERS\tnull\tnull\n',
    );
  });

  it('uses the line separator', () => {
    expect(formatRecord(record, { ...DEFAULT_PRINT_OPTIONS, lineSeparator: '\n---\n' })).toBe('hello boy\n---\n');
  });
});
