// The v2 binary produce fast path against the full path it stands in for, on generated bodies (valid and not:
// bad base64, wrong types, missing values, keys, partitions, nulls, whitespace, escapes, extra members, duplicates,
// truncation, stray bytes). For every body: when the full path (parseJson, then v2ProduceInputs) refuses it, the
// scanner must not take it (the parser then answers the same error the same way); when the scanner takes it, it
// must read the same records, and producing them must give the same batches, the same partitions and the same
// offsets[] answer, byte for byte. Every test runs twice: with the native loop over plain records where it is built
// (v2-plain-records.ts) and with the scanner reading every record itself.
import 'reflect-metadata';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BrookError } from '../../common/brook-error.js';
import { NOW, service, setup, TOPIC } from '../../../test/support/produce-service-fake.js';
import { parseJson } from '../body/json-body-parser.js';
import type { ProduceInput } from '../../application/produce/produce.service.js';
import { v2ProduceInputs } from '../v2/produce-records.schema.js';
import { v2ProduceAnswer, v2ScannedAnswer } from '../v2/v2.controller.js';
import { scanV2BinaryBody as scanBody } from './v2-binary-body.js';
import { LaidOutRecords } from '../../application/produce/laid-out-records.js';
import { type FramePlainRecords, nativeFramePlainRecords } from './v2-plain-records.js';

// ---------------------------------------------------------------------------------------------------------------
// Bodies, written token by token so that the raw text (number forms, escapes, whitespace) is generated too.

const JSON_SPACE = fc.constantFrom('', '', '', ' ', '\n', '\t', '\r\n', '  ');
/** Mostly JSON whitespace, now and then a character JSON does not allow there. */
const space = fc.oneof(
  { weight: 300, arbitrary: JSON_SPACE },
  { weight: 1, arbitrary: fc.constantFrom('\f', '\u00a0', '\v') },
);

/** Mostly short, sometimes long enough for the decoder's runs of four groups. */
const bytes = fc.oneof(
  { weight: 3, arbitrary: fc.uint8Array({ maxLength: 24 }) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 25, maxLength: 90 }) },
);
const base64 = bytes.map((b) => Buffer.from(b).toString('base64'));

/** A key or value as raw JSON text. */
const dataText = fc.oneof(
  { weight: 30, arbitrary: base64.map((text) => JSON.stringify(text)) },
  { weight: 2, arbitrary: fc.constant('null') },
  // valid base64, written with JSON escapes: the same string once parsed
  {
    weight: 2,
    arbitrary: base64.map((text) => JSON.stringify(text).replace(/\//g, '\\/').replace(/A/g, '\\u0041')),
  },
  // not base64
  {
    weight: 2,
    arbitrary: fc.oneof(
      base64.filter((t) => t.endsWith('=')).map((t) => JSON.stringify(t.replace(/=+$/, ''))),
      base64.filter((t) => t.length > 0).map((t) => JSON.stringify(`=${t.slice(1)}`)),
      base64.map((t) => JSON.stringify(`${t}-_`)),
      base64.map((t) => JSON.stringify(`${t}====`)),
      base64.map((t) => JSON.stringify(`${t.slice(0, -1)}`)),
      // one character anywhere replaced by one outside the alphabet
      fc
        .tuple(
          base64.filter((t) => t.length > 0),
          fc.nat(),
          fc.constantFrom('=', '-', '_', '.', ' ', '\n', '\u007f', 'é'),
        )
        .map(([t, where, char]) =>
          JSON.stringify(`${t.slice(0, where % t.length)}${char}${t.slice((where % t.length) + 1)}`),
        ),
      fc.string({ maxLength: 8 }).map((t) => JSON.stringify(t)),
      fc.constantFrom('"QQ=A"', '"Q==="', '"QUJD\\n"', '"é"', '"QUJ\u00e9"', '"\\"QUJD"'),
    ),
  },
  // not a string
  { weight: 1, arbitrary: fc.constantFrom('1', '0', 'true', 'false', '{}', '[]', '["QUJD"]', '{"data":"QUJD"}') },
);

/** A partition field as raw JSON text. */
const partitionText = fc.oneof(
  { weight: 20, arbitrary: fc.integer({ min: 0, max: 4 }).map(String) },
  { weight: 2, arbitrary: fc.constant('null') },
  { weight: 1, arbitrary: fc.integer({ min: -3, max: -1 }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '1.0',
      '1e0',
      '0.5',
      '-0',
      '00',
      '01',
      '9007199254740993',
      '123456789012345',
      '1234567890123456',
      '"1"',
      'true',
      '[]',
      '1E2',
      '2.',
      '-',
    ),
  },
);

type Member = [name: string, text: string];

const member: fc.Arbitrary<Member> = fc.oneof(
  { weight: 8, arbitrary: dataText.map((t): Member => ['value', t]) },
  { weight: 4, arbitrary: dataText.map((t): Member => ['key', t]) },
  { weight: 3, arbitrary: partitionText.map((t): Member => ['partition', t]) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Member>(
      ['headers', '[]'],
      ['extra', '1'],
      ['Value', '"QUJD"'],
      ['valu\\u0065', '"QUJD"'],
      ['timestamp', '5'],
    ),
  },
);

/** A record as raw JSON text: mostly an object of distinct members, sometimes a duplicate or not an object. */
const recordText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 20,
    arbitrary: fc
      .tuple(
        fc.uniqueArray(member, { maxLength: 4, selector: ([name]) => name }),
        fc.boolean().chain((dup) => (dup ? fc.option(member, { nil: undefined, freq: 4 }) : fc.constant(undefined))),
        fc.array(space, { minLength: 8, maxLength: 8 }),
      )
      .map(([members, duplicate, ws]) => {
        const all = duplicate === undefined ? members : [...members, duplicate];
        const parts = all.map(([name, text], i) => `${ws[i % 8]}"${name}"${ws[(i + 1) % 8]}:${ws[(i + 2) % 8]}${text}`);
        return `{${parts.join(`${ws[3]},`)}${ws[4]}}`;
      }),
  },
  { weight: 1, arbitrary: fc.constantFrom('null', '[]', '"x"', '1', '{', '{"value":"QUJD",}', '{,}') },
);

/** The whole body as text. */
const bodyText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 20,
    arbitrary: fc
      .tuple(fc.array(recordText, { minLength: 1, maxLength: 8 }), fc.array(space, { minLength: 8, maxLength: 8 }))
      .map(
        ([records, ws]) =>
          `${ws[0]}{${ws[1]}"records"${ws[2]}:${ws[3]}[${ws[4]}${records.join(`${ws[5]},${ws[6]}`)}${ws[7]}]${ws[1]}}${ws[0]}`,
      ),
  },
  // keyless records without partition fields (or null ones): placed all at once, at the route's or sticky partition
  {
    weight: 4,
    arbitrary: fc
      .array(
        fc
          .tuple(dataText, fc.constantFrom('', ',"partition":null', ',"key":null'))
          .map(([v, rest]) => `{"value":${v}${rest}}`),
        { minLength: 1, maxLength: 6 },
      )
      .map((records) => `{"records":[${records.join(',')}]}`),
  },
  {
    weight: 3,
    arbitrary: fc
      .array(recordText, { minLength: 0, maxLength: 4 })
      .chain((records) =>
        fc.constantFrom(
          `{"records":[${records.join(',')}]}`,
          `{"records":[${records.join(',')}],"value_schema":"x"}`,
          `{"value_schema_id":null,"records":[${records.join(',')}]}`,
          `{"records":[${records.join(',')}],"records":[{"value":"QUJD"}]}`,
          `{"records":[${records.join(',')}]}x`,
          `{"records":[${records.join(',')}]},`,
          `\ufeff{"records":[${records.join(',')}]}`,
          `[{"records":[${records.join(',')}]}]`,
          `{"records":{${records.join(',')}}}`,
          `{"records":[${records.join(',')}`,
          `{"records":[],}`,
          `{"records":[]}`,
          `{"records":null}`,
          `{"records":"QUJD"}`,
          `{"Records":[${records.join(',')}]}`,
          `{}`,
          `null`,
          ``,
        ),
      ),
  },
);

/** A body, now and then truncated or with a stray byte put in or replaced. */
const body: fc.Arbitrary<Buffer> = fc
  .tuple(
    bodyText,
    fc.oneof(
      { weight: 8, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.tuple(fc.constant('cut'), fc.nat(), fc.nat(255)) },
      { weight: 1, arbitrary: fc.tuple(fc.constant('put'), fc.nat(), fc.nat(255)) },
      { weight: 1, arbitrary: fc.tuple(fc.constant('set'), fc.nat(), fc.nat(255)) },
    ),
  )
  .map(([text, mutation]) => {
    const raw = Buffer.from(text, 'utf8');
    if (mutation === null || raw.length === 0) return raw;
    const [kind, where, byte] = mutation;
    const at = where % raw.length;
    if (kind === 'cut') return raw.subarray(0, at);
    if (kind === 'put') return Buffer.concat([raw.subarray(0, at), Buffer.from([byte]), raw.subarray(at)]);
    const copy = Buffer.from(raw);
    copy[at] = byte;
    return copy;
  });

// ---------------------------------------------------------------------------------------------------------------
// The full path, and a ProduceService over fakes that records the batches it is given.

type Parsed = { inputs: ProduceInput[] } | { status: number; errorCode: number };

function fullPath(raw: Buffer, routePartition: number | undefined): Parsed {
  try {
    return { inputs: v2ProduceInputs(parseJson(raw), false, routePartition, NOW) };
  } catch (error) {
    if (!(error instanceof BrookError)) throw error;
    return { status: error.status, errorCode: error.errorCode };
  }
}

const bufferOrNull = (b: Buffer | null) => (b === null ? null : [...b]);

const SCANNERS: Array<[string, FramePlainRecords | null]> = [
  ['the native plain-record loop (where built)', nativeFramePlainRecords],
  ['the scanner alone', null],
];

describe.each(SCANNERS)('v2 binary produce, %s: the body scanner and the full JSON path', (_, framePlain) => {
  const scanV2BinaryBody = (raw: Buffer) => scanBody(raw, framePlain);

  it('give the same records, batches and answer for every body the scanner takes, and it takes no body the full path refuses', async () => {
    let taken = 0;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
        setup,
        async (raw, route, shape) => {
          const full = fullPath(raw, route);
          const scanned = scanV2BinaryBody(raw);
          if (!('inputs' in full)) {
            // The scanner must leave it to the full path, which then answers exactly as before.
            expect(scanned).toBeNull();
            return;
          }
          accepted++;
          if (scanned === null) return; // the full path handles it: the same by construction
          taken++;
          expect(scanned).toBeInstanceOf(LaidOutRecords);
          const inputs = full.inputs;
          expect(scanned.count).toBe(inputs.length);
          for (let i = 0; i < inputs.length; i++) {
            expect(bufferOrNull(scanned.key(i))).toEqual(bufferOrNull(inputs[i].key));
            expect(bufferOrNull(scanned.value(i))).toEqual(bufferOrNull(inputs[i].value));
            expect(route ?? scanned.partitions?.[i] ?? null).toBe(inputs[i].partition ?? null);
          }
          const fullBatches = new Map<number, Buffer>();
          const fastBatches = new Map<number, Buffer>();
          const outcomes = await service(shape, fullBatches).produce(TOPIC, inputs, shape.acks);
          const result = await service(shape, fastBatches).produceScanned(TOPIC, scanned, route, NOW, shape.acks);
          expect([...fastBatches.keys()].sort()).toEqual([...fullBatches.keys()].sort());
          for (const [partition, batch] of fullBatches) expect(fastBatches.get(partition)!.equals(batch)).toBe(true);
          expect(String(v2ScannedAnswer(result, scanned.count))).toBe(JSON.stringify(v2ProduceAnswer(outcomes)));
        },
      ),
      { numRuns: 3000 },
    );
    // Not vacuous: the scanner took a good share of the bodies the full path accepts.
    expect(taken).toBeGreaterThan(accepted / 4);
  });

  it('takes every body of well-formed records, whatever their mix of lengths, keys, whitespace and look-alikes', () => {
    // Runs of the plain shape {"value":"..."} whose lengths repeat or alternate (the scanner guesses each record is
    // the plain shape of the previous value's length), mixed with records that are not that shape, including ones
    // whose bytes look like it: at the guessed distance there is a quote and a brace, but an earlier quote ends the
    // value (`{"value":"v" , "key" :"k"}` after a value as long as `v" , "key" :"k`).
    const lengths = fc.constantFrom(0, 3, 12, 99, 100);
    const text = (size: number) => Buffer.alloc(size, 0x61 + (size % 26)).toString('base64');
    const record = fc.oneof(
      { weight: 10, arbitrary: lengths.map((size) => [`{"value":"${text(size)}"}`]) },
      { weight: 2, arbitrary: lengths.map((size) => [`{ "value":"${text(size)}"}`, `{"value": "${text(size)}" }`]) },
      { weight: 2, arbitrary: lengths.map((size) => [`{"value":"${text(size)}","key":"QUJD"}`]) },
      { weight: 1, arbitrary: lengths.map((size) => [`{"key":"QUJD","value":"${text(size)}","partition":0}`]) },
      { weight: 1, arbitrary: fc.constantFrom(['{"value":null}'], ['{}'], ['{"key":"QUJD"}']) },
      {
        weight: 3,
        arbitrary: fc.tuple(lengths, lengths).map(([v, k]) => {
          const lookAlike = `${text(v)}" , "key" :"${text(k)}`;
          expect(lookAlike.length % 4).toBe(0);
          return [`{"value":"${'Q'.repeat(lookAlike.length)}"}`, `{"value":"${lookAlike}"}`];
        }),
      },
    );
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 12 }), (records) => {
        const raw = Buffer.from(`{"records":[${records.flat().join(',')}]}`);
        const inputs = v2ProduceInputs(parseJson(raw), false, undefined, NOW);
        const scanned = scanV2BinaryBody(raw);
        expect(scanned).not.toBeNull();
        expect(scanned!.count).toBe(inputs.length);
        for (let i = 0; i < inputs.length; i++) {
          expect(bufferOrNull(scanned!.key(i))).toEqual(bufferOrNull(inputs[i].key));
          expect(bufferOrNull(scanned!.value(i))).toEqual(bufferOrNull(inputs[i].value));
        }
      }),
      { numRuns: 1000 },
    );
  });
});
