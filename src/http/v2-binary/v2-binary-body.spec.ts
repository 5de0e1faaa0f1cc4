// The v2 binary body scanner on bodies written out (the property spec compares it with the full path on generated
// ones): the W1 body, growth of its columns and buffer, what it leaves to the full path, and the answer of
// consecutive offsets.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../body/json-body-parser.js';
import { consecutiveOffsetsAnswer } from '../v2/v2-answer.js';
import { v2ProduceInputs } from '../v2/produce-records.schema.js';
import { v2ProduceAnswer } from '../v2/v2.controller.js';
import { scanV2BinaryBody as scanBody } from './v2-binary-body.js';
import { type FramePlainRecords, nativeFramePlainRecords } from './v2-plain-records.js';

const NOW = 1_764_000_000_000;

const bufferOrNull = (b: Buffer | null) => (b === null ? null : [...b]);

const SCANNERS: Array<[string, FramePlainRecords | null]> = [
  ['the native plain-record loop (where built)', nativeFramePlainRecords],
  ['the scanner alone', null],
];

describe.each(SCANNERS)('v2 binary produce, %s: the body scanner', (_, framePlain) => {
  const scanV2BinaryBody = (raw: Buffer) => scanBody(raw, framePlain);

  it('takes the plain W1 body and decodes each value', () => {
    const value = Buffer.alloc(100, 'x');
    const raw = Buffer.from(
      JSON.stringify({ records: Array.from({ length: 1000 }, () => ({ value: value.toString('base64') })) }),
    );
    const scanned = scanV2BinaryBody(raw)!;
    expect(scanned.count).toBe(1000);
    expect(scanned.partitions).toBeNull();
    for (let i = 0; i < 1000; i++) {
      expect(scanned.key(i)).toBeNull();
      expect(scanned.value(i)!.equals(value)).toBe(true);
    }
  });

  it('grows its columns for many plain records, as the full path reads them', () => {
    const records = Array.from({ length: 5000 }, (_, i) => ({ value: Buffer.from(String(i)).toString('base64') }));
    const raw = Buffer.from(JSON.stringify({ records }));
    const scanned = scanV2BinaryBody(raw)!;
    expect(scanned.count).toBe(5000);
    for (let i = 0; i < 5000; i++) expect(scanned.value(i)!.toString()).toBe(String(i));
  });

  it('grows its columns and buffer for many short records, as the full path reads them', () => {
    const records = Array.from({ length: 5000 }, (_, i) => ({
      key: Buffer.from([i & 0xff]).toString('base64'),
      value: i % 7 === 0 ? null : Buffer.from(String(i)).toString('base64'),
      partition: i % 3,
    }));
    const raw = Buffer.from(JSON.stringify({ records }));
    const scanned = scanV2BinaryBody(raw)!;
    const inputs = v2ProduceInputs(parseJson(raw), false, undefined, NOW);
    expect(scanned.count).toBe(inputs.length);
    for (let i = 0; i < inputs.length; i++) {
      expect(bufferOrNull(scanned.key(i))).toEqual(bufferOrNull(inputs[i].key));
      expect(bufferOrNull(scanned.value(i))).toEqual(bufferOrNull(inputs[i].value));
      expect(scanned.partitions?.[i]).toBe(inputs[i].partition);
    }
  });

  it('writes the answer of consecutive offsets as JSON.stringify does, across digit counts and for acks=0', () => {
    fc.assert(
      fc.property(
        fc.nat(1000),
        fc.oneof(
          fc.constant(-1),
          fc.nat(2000),
          fc.integer({ min: 0, max: 2 ** 40 }),
          fc.constantFrom(9, 99, 999_999_990),
        ),
        fc.integer({ min: 1, max: 1200 }),
        (partition, first, count) => {
          const outcomes = Array.from({ length: count }, (_, i) => ({
            ok: true as const,
            partition,
            offset: first < 0 ? -1 : first + i,
            timestampMs: NOW,
          }));
          expect(consecutiveOffsetsAnswer(partition, first, count).toString('latin1')).toBe(
            JSON.stringify(v2ProduceAnswer(outcomes)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves escapes, other members, duplicates, non-integer partitions and empty records to the full path', () => {
    for (const text of [
      '{"records":[{"value":"QUJ\\u0044"}]}',
      '{"records":[{"value":"QUJD","headers":[]}]}',
      '{"records":[{"value":"QUJD","value":"QUJD"}]}',
      '{"records":[{"value":"QUJD","partition":1.0}]}',
      '{"records":[{"value":"QUJD","partition":-0}]}',
      '{"records":[]}',
      '{"records":[{"value":"QUJD"}],"value_schema_id":null}',
    ])
      expect(scanV2BinaryBody(Buffer.from(text))).toBeNull();
  });
});
