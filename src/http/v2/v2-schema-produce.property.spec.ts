// v2 produce with schemas, the way it is done (keys and values encoded into one buffer and framed as one records
// section, schemaRecordsLaidOut, then ProduceService.produceScanned and v2ScannedAnswer) against the way it stands
// in for (a Buffer per key and value from encodeRecord, ProduceInputs, ProduceService.produce and
// v2ProduceAnswer): for random Avro records with and without keys and partitions, on random topics (partitions,
// compaction, acks, a failing partition), the same batches on the same partitions and the same answer, byte for
// byte.
import 'reflect-metadata';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOW, service, setup, TOPIC } from '../../../test/support/produce-service-fake.js';
import type { ProduceInput } from '../../application/produce/produce.service.js';
import { avroValueToJson } from '../../application/schemas/avro-data.js';
import { parseSchema } from '../../application/schemas/parse-schema.js';
import type { ParsedAvroSchema } from '../../application/schemas/parsed-schema.js';
import { encodeRecord } from '../../application/schemas/record-codec.js';
import { NO_REFERENCES } from '../../application/schemas/schema-types.js';
import type { SpanSchema } from '../../application/schemas/wire-format-spans.js';
import type { V2Record } from './produce-records.schema.js';
import { schemaRecordsLaidOut } from './v2-schema-produce.js';
import { v2ProduceAnswer, v2ScannedAnswer } from './v2.controller.js';

const avro = (id: number, schema: unknown): SpanSchema => ({
  id,
  schema: parseSchema({ schemaType: 'AVRO', schema: JSON.stringify(schema) }, NO_REFERENCES),
});
const SCHEMAS = [
  avro(3, { type: 'string' }),
  avro(4, { type: 'record', name: 'Bench', fields: [{ name: 'payload', type: 'string' }] }),
  avro(5, {
    type: 'record',
    name: 'User',
    fields: [
      { name: 'name', type: 'string' },
      { name: 'nick', type: ['null', 'string'], default: null },
      { name: 'tags', type: { type: 'map', values: 'long' } },
    ],
  }),
];

const data = (schema: SpanSchema | null) => {
  if (schema === null) return fc.constant(undefined);
  const type = (schema.schema as ParsedAvroSchema).avroType;
  return fc.option(
    fc.integer().map(() => avroValueToJson(type, type.random())),
    { nil: undefined, freq: 5 },
  );
};

const request = fc
  .tuple(fc.option(fc.constantFrom(...SCHEMAS)), fc.constantFrom(...SCHEMAS))
  .chain(([keySchema, valueSchema]) =>
    fc.record({
      keySchema: fc.constant(keySchema),
      valueSchema: fc.constant(valueSchema),
      records: fc.array(
        fc.record(
          {
            key: data(keySchema),
            value: data(valueSchema),
            partition: fc.option(fc.integer({ min: -1, max: 4 })),
          },
          { requiredKeys: [] },
        ),
        { minLength: 1, maxLength: 30 },
      ),
      route: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined, freq: 3 }),
      setup,
    }),
  );

/** The inputs of the way it stands in for: a Buffer per key and value. */
function inputsOf(
  records: readonly V2Record[],
  keySchema: SpanSchema | null,
  valueSchema: SpanSchema | null,
  route: number | undefined,
): ProduceInput[] {
  const encode = (schema: SpanSchema | null, json: unknown) =>
    schema === null || json === undefined || json === null ? null : encodeRecord(schema.id, schema.schema, json);
  return records.map((record) => ({
    key: encode(keySchema, record.key),
    value: encode(valueSchema, record.value),
    headers: [],
    timestamp: NOW,
    partition: route ?? record.partition,
  }));
}

describe('v2 produce with schemas', () => {
  it('gives the batches and the answer that a Buffer per key and value gives', async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ keySchema, valueSchema, records, route, setup: shape }) => {
        const inputs = inputsOf(records, keySchema, valueSchema, route);
        const laidOut = schemaRecordsLaidOut(records, keySchema, valueSchema);
        const fullBatches = new Map<number, Buffer>();
        const fastBatches = new Map<number, Buffer>();
        const outcomes = await service(shape, fullBatches).produce(TOPIC, inputs, shape.acks);
        const result = await service(shape, fastBatches).produceScanned(TOPIC, laidOut, route, NOW, shape.acks);
        expect([...fastBatches.keys()].sort()).toEqual([...fullBatches.keys()].sort());
        for (const [partition, batch] of fullBatches) expect(fastBatches.get(partition)!.equals(batch)).toBe(true);
        const ids = [keySchema?.id ?? null, valueSchema.id] as const;
        expect(String(v2ScannedAnswer(result, laidOut.count, null, ...ids))).toBe(
          JSON.stringify(v2ProduceAnswer(outcomes, ...ids)),
        );
      }),
      { numRuns: 500 },
    );
  });
});
