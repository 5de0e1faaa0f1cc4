// Round trips of every message of Brook's Kafka table, in every version it covers, both directions, with values
// generated from the table itself (test/support/kafka/table-arbitraries.ts): decode(encode(x)) is x, and
// encoding what was decoded gives the same bytes again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { structArbitrary, versionsOf } from '../../../test/support/kafka/table-arbitraries.js';
import { type ApiName, KAFKA_APIS } from './apis.js';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse } from './codec.js';
import type { ApiDefinition } from './schema.js';

const RUNS = 40;
const correlationIds = fc.integer({ min: -0x80000000, max: 0x7fffffff });
const clientIds = fc.option(fc.string({ unit: 'grapheme', maxLength: 16 }), { nil: null });

// The bodies are checked against the table at run time here, not through the per-API TypeScript types.
type AnyBody = never;

describe.each((KAFKA_APIS as readonly ApiDefinition[]).map((api) => [api.name, api] as const))('%s', (_, api) => {
  const name = api.name as ApiName;

  it.each(versionsOf(api.versions))('requests round-trip at v%i', (version) => {
    fc.assert(
      fc.property(correlationIds, clientIds, structArbitrary(api.request, version), (correlationId, clientId, body) => {
        const frame = Buffer.concat(encodeRequest(name, version, correlationId, clientId, body as AnyBody));
        const decoded = decodeRequest(frame);
        expect(decoded).toEqual({
          ok: true,
          value: { apiName: name, apiKey: api.apiKey, apiVersion: version, correlationId, clientId, body },
        });
        if (!decoded.ok) return;
        const again = encodeRequest(name, version, correlationId, clientId, decoded.value.body as AnyBody);
        expect(Buffer.concat(again).equals(frame)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(versionsOf(api.versions))('responses round-trip at v%i', (version) => {
    fc.assert(
      fc.property(correlationIds, structArbitrary(api.response, version), (correlationId, body) => {
        const frame = Buffer.concat(encodeResponse(name, version, correlationId, body as AnyBody));
        const decoded = decodeResponse(name, version, frame);
        expect(decoded).toEqual({ ok: true, value: { correlationId, body } });
        if (!decoded.ok) return;
        const again = encodeResponse(name, version, correlationId, decoded.value.body as AnyBody);
        expect(Buffer.concat(again).equals(frame)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});
