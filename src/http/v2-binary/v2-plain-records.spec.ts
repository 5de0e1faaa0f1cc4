// The native loop over plain v2 records (native/v2-plain-records.c): each of its answers on hand-made bodies, and
// the scanner with it against the scanner without it on generated bodies of plain records and their near misses
// (same result, byte for byte, or both leaving the body to the full path).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BATCH_HEADER_BYTES } from '../../partition-log/record-batch.js';
import { scanV2BinaryBody } from './v2-binary-body.js';
import type { LaidOutRecords } from '../../application/produce/laid-out-records.js';
import {
  type FramePlainRecords,
  nativeFramePlainRecords,
  PLAIN_AFTER_RECORD,
  PLAIN_COLUMNS_FULL,
  PLAIN_DATA_FULL,
  PLAIN_OTHER,
  PLAIN_STATE_FIELDS,
} from './v2-plain-records.js';

/** Where `npm run build` can build the addon, it must load: a build that quietly failed there fails this test. */
const [compiler, ...compilerArgs] = (process.env.CC ?? 'cc').trim().split(/\s+/);
const buildable =
  process.platform === 'linux' &&
  process.arch === 'x64' &&
  process.env.BROOK_NATIVE_V2_SCAN !== 'false' &&
  /\bavx2\b/.test(readFileSync('/proc/cpuinfo', 'utf8')) &&
  spawnSync(compiler, [...compilerArgs, '--version']).status === 0 &&
  existsSync(join(dirname(dirname(process.execPath)), 'include', 'node', 'node_api.h'));

it('the native plain-record loop is loaded wherever it can be built', () => {
  expect(nativeFramePlainRecords !== null).toBe(buildable);
});

const frame = nativeFramePlainRecords!;

interface Call {
  status: number;
  at: number;
  written: number;
  count: number;
  needed: number;
  data: Buffer;
  keyAt: Int32Array;
  keyLength: Int32Array;
  valueAt: Int32Array;
  valueLength: Int32Array;
}

/** One call on `text` from `at`, with `dataBytes` of data and columns of `columns` rows. */
function call(text: string, at: number, options: { dataBytes?: number; columns?: number; count?: number } = {}): Call {
  const body = Buffer.from(text, 'latin1');
  const data = Buffer.alloc(options.dataBytes ?? body.length + 16, 0xa5);
  const columns = options.columns ?? 16;
  const [keyAt, keyLength, valueAt, valueLength] = [0, 1, 2, 3].map(() => new Int32Array(columns).fill(7));
  const state = new Int32Array(PLAIN_STATE_FIELDS);
  state.set([at, 0, options.count ?? 0, 0]);
  const status = frame(body, data, keyAt, keyLength, valueAt, valueLength, state);
  const [stateAt, written, count, needed] = state;
  return { status, at: stateAt, written, count, needed, data, keyAt, keyLength, valueAt, valueLength };
}

describe.skipIf(nativeFramePlainRecords === null)('framePlainRecords', () => {
  const head = '{"records":[';

  it('frames a run of plain records as encodeBatch does and stops after the last one, before its ]', () => {
    const text = `${head}{"value":"QUJD"} ,\n {"value":""},{"value":"QQ=="}]}`;
    const result = call(text, head.length);
    expect(result.status).toBe(PLAIN_AFTER_RECORD);
    expect(text[result.at]).toBe(']');
    expect(result.count).toBe(3);
    // length 9, attributes, timestamp delta, offset delta 0, key -1, value length 3, "ABC", no headers; and so on
    const expected = Buffer.from([
      ...[18, 0, 0, 0, 1, 6, 0x41, 0x42, 0x43, 0],
      ...[12, 0, 0, 2, 1, 0, 0],
      ...[14, 0, 0, 4, 1, 2, 0x41, 0],
    ]);
    expect(result.written).toBe(expected.length);
    expect(result.data.subarray(0, result.written).equals(expected)).toBe(true);
    expect(result.data[result.written]).toBe(0xa5); // nothing past the framing
    expect([...result.keyAt.subarray(0, 3)]).toEqual([-1, -1, -1]);
    expect([...result.keyLength.subarray(0, 3)]).toEqual([-1, -1, -1]);
    expect([...result.valueAt.subarray(0, 3)]).toEqual([6, 16, 23]);
    expect([...result.valueLength.subarray(0, 3)]).toEqual([3, 0, 1]);
    expect(result.keyAt[3]).toBe(7); // untouched past the records framed
  });

  it('writes offset deltas from the count it is given, in zigzag varints', () => {
    const result = call(`${head}{"value":"QUJD"}]}`, head.length, { count: 300, columns: 512 });
    expect(result.count).toBe(301);
    // offset delta 300 -> zigzag 600 -> 0xd8 0x04; the record is one byte longer
    expect([...result.data.subarray(0, 6)]).toEqual([20, 0, 0, 0xd8, 0x04, 1]);
  });

  it('leaves a record of another shape to the scanner, counting nothing for it', () => {
    for (const record of [
      '{ "value":"QUJD"}',
      '{"value":"QUJD" }',
      '{"value":"QUJD","key":"QUJD"}',
      '{"value":null}',
      '{"value":"QUJ"}', // not whole groups
      '{"value":"QU=D"}', // not base64
      '{"value":"QUJ\\u0044"}',
      '{"value":"QUJD',
      '{"value":"',
      '{"valu',
      '{}',
      '',
    ]) {
      const result = call(`${head}{"value":"QUJD"},${record}`, head.length);
      expect(result.status, record).toBe(PLAIN_OTHER);
      expect(result.count).toBe(1);
      expect(result.at).toBe(head.length + '{"value":"QUJD"},'.length);
      expect(result.written).toBe(10);
      expect(result.keyAt[1]).toBe(7);
      expect(result.valueAt[1]).toBe(7);
    }
  });

  it('stops after a record not followed by a comma, whatever follows', () => {
    for (const rest of ['', ' ', ']', ' ]}', '}', ';{"value":"QUJD"}']) {
      const text = `${head}{"value":"QUJD"}${rest}`;
      const result = call(text, head.length);
      expect(result.status, rest).toBe(PLAIN_AFTER_RECORD);
      expect(result.at).toBe(head.length + '{"value":"QUJD"}'.length);
      expect(result.count).toBe(1);
    }
  });

  it('asks for more data before a record that does not fit, and for larger columns when they are full', () => {
    const text = `${head}{"value":"QUJD"},{"value":"QUJDREVG"}]}`;
    const short = call(text, head.length, { dataBytes: 15 });
    expect(short.status).toBe(PLAIN_DATA_FULL);
    expect(short.count).toBe(1);
    expect(short.written).toBe(10);
    expect(short.needed).toBe(13);
    expect(short.at).toBe(head.length + '{"value":"QUJD"},'.length);
    expect(short.data[10]).toBe(0xa5);
    const exact = call(text, head.length, { dataBytes: 23 });
    expect(exact.status).toBe(PLAIN_AFTER_RECORD);
    expect(exact.written).toBe(23);
    const narrow = call(text, head.length, { columns: 1 });
    expect(narrow.status).toBe(PLAIN_COLUMNS_FULL);
    expect(narrow.count).toBe(1);
    expect(narrow.at).toBe(short.at);
  });

  it('frames into data longer than 2 GiB as into data of 2 GiB (positions are Int32)', () => {
    const body = Buffer.from('{"value":"QUJD"}]');
    const data = Buffer.allocUnsafe(2 ** 31 + 8); // never touched beyond its first bytes
    const columns = () => new Int32Array(4);
    const state = Int32Array.from([0, 0, 0, 0]);
    expect(frame(body, data, columns(), columns(), columns(), columns(), state)).toBe(PLAIN_AFTER_RECORD);
    expect([...state.subarray(0, 3)]).toEqual([16, 10, 1]);
  });

  it('refuses arguments of the wrong type and a state outside the body or the data', () => {
    const body = Buffer.from('{"value":"QUJD"}');
    const data = Buffer.alloc(32);
    const columns = () => new Int32Array(4);
    const state = (at: number, written: number, count = 0) => Int32Array.from([at, written, count, 0]);
    expect(() => frame(body, data, columns(), columns(), columns(), columns(), state(0, 0))).not.toThrow();
    const asAny = frame as unknown as (...args: unknown[]) => number;
    expect(() => asAny(body, data, columns(), columns(), columns(), columns())).toThrow(TypeError);
    expect(() => asAny('text', data, columns(), columns(), columns(), columns(), state(0, 0))).toThrow(TypeError);
    expect(() => asAny(body, data, new Uint32Array(4), columns(), columns(), columns(), state(0, 0))).toThrow(
      TypeError,
    );
    expect(() => frame(body, data, columns(), columns(), columns(), columns(), state(17, 0))).toThrow(RangeError);
    expect(() => frame(body, data, columns(), columns(), columns(), columns(), state(0, 33))).toThrow(RangeError);
    expect(() => frame(body, data, columns(), columns(), columns(), columns(), state(0, 0, -1))).toThrow(RangeError);
    expect(() => frame(body, data, columns(), columns(), columns(), columns(), new Int32Array(3))).toThrow(RangeError);
  });
});

/** What a scan gave, in plain values (the data's batch header area is not written by the scan). */
function outcome(scanned: LaidOutRecords | null): unknown {
  if (scanned === null) return null;
  const rows = (column: Int32Array) => [...column.subarray(0, scanned.count)];
  return {
    count: scanned.count,
    records: [...scanned.data.subarray(BATCH_HEADER_BYTES, scanned.end)],
    keyAt: rows(scanned.keyAt),
    keyLength: rows(scanned.keyLength),
    valueAt: rows(scanned.valueAt),
    valueLength: rows(scanned.valueLength),
    partitions: scanned.partitions,
    keyed: scanned.keyed,
  };
}

describe.skipIf(nativeFramePlainRecords === null)('the v2 scanner with and without the native loop', () => {
  it('gives the same records, byte for byte, or leaves the same bodies to the full path', () => {
    // every answer of the loop is met (more data, more columns: after runs of {} whose framing outgrows the body)
    const statuses = new Set<number>();
    const counting: FramePlainRecords = (...args) => {
      const status = frame(...args);
      statuses.add(status);
      return status;
    };
    const base64 = fc.uint8Array({ maxLength: 120 }).map((b) => Buffer.from(b).toString('base64'));
    const record = fc.oneof(
      { weight: 12, arbitrary: base64.map((t) => `{"value":"${t}"}`) },
      { weight: 1, arbitrary: base64.map((t) => `{ "value" : "${t}" }`) },
      { weight: 1, arbitrary: base64.map((t) => `{"value":"${t}","key":"QUJD"}`) },
      { weight: 1, arbitrary: base64.map((t) => `{"key":"${t}","value":"QUJD","partition":1}`) },
      { weight: 1, arbitrary: base64.map((t) => `{"value":"${t}","partition":0}`) },
      { weight: 1, arbitrary: fc.constantFrom('{"value":null}', '{}', '{"value":"QUJ"}', '{"value":"Q=JD"}') },
      { weight: 1, arbitrary: base64.map((t) => `{"value":"${t.replace(/A/g, '\\u0041')}"}`) },
      { weight: 1, arbitrary: base64.map((t) => `{"value":"${t}\u00e9"}`) },
      { weight: 2, arbitrary: fc.integer({ min: 1, max: 40 }).map((n) => Array(n).fill('{}').join(',')) },
    );
    const separator = fc.constantFrom(',', ',', ',', ' ,', ', ', '\n,\r\n', ';', ',,', '');
    const ending = fc.constantFrom(']}', ']}', ' ] }', ']', ']}x', '}', '', 'x}', '}}', '"}', ',]}', ']x}');
    fc.assert(
      fc.property(fc.array(fc.tuple(record, separator), { minLength: 1, maxLength: 30 }), ending, (pairs, end) => {
        const items = pairs.map(([r, s], i) => (i < pairs.length - 1 ? r + s : r)).join('');
        const raw = Buffer.from(`{"records":[${items}${end}`, 'utf8');
        expect(outcome(scanV2BinaryBody(raw, counting))).toEqual(outcome(scanV2BinaryBody(raw, null)));
      }),
      { numRuns: 3000 },
    );
    for (const [count, plain] of [
      [1100, 1],
      [1030, 1],
    ]) {
      // past the columns in one run of the loop, after many {}
      const raw = Buffer.from(
        `{"records":[${Array(count).fill('{}').join(',')},${Array(plain).fill('{"value":"QUJD"}').join(',')}]}`,
      );
      expect(outcome(scanV2BinaryBody(raw, counting))).toEqual(outcome(scanV2BinaryBody(raw, null)));
    }
    // the framing of eight {} outgrows their text: the loop asks for more data at the second plain record
    const outgrown = Buffer.from(
      `{"records":[${Array(8).fill('{}').join(',')},{"value":"QUFBQUFB"},{"value":"QUFBQUFB"}]}`,
    );
    expect(outcome(scanV2BinaryBody(outgrown, counting))).toEqual(outcome(scanV2BinaryBody(outgrown, null)));
    expect(scanV2BinaryBody(outgrown, counting)?.count).toBe(10);
    const many = Buffer.from(`{"records":[${Array(2000).fill('{"value":"QUJD"}').join(',')}]}`);
    expect(outcome(scanV2BinaryBody(many, counting))).toEqual(outcome(scanV2BinaryBody(many, null)));
    expect([...statuses].sort()).toEqual([PLAIN_OTHER, PLAIN_AFTER_RECORD, PLAIN_DATA_FULL, PLAIN_COLUMNS_FULL]);
  });

  it('gives the same records for bodies past its columns', () => {
    for (const count of [1023, 1024, 1025, 5000]) {
      const records = Array.from({ length: count }, (_, i) => ({ value: Buffer.alloc(i % 5, i).toString('base64') }));
      const raw = Buffer.from(JSON.stringify({ records }));
      const fast = scanV2BinaryBody(raw, nativeFramePlainRecords);
      expect(fast?.count).toBe(count);
      expect(outcome(fast)).toEqual(outcome(scanV2BinaryBody(raw, null)));
    }
  });
});
