// Hostile bytes: whatever a peer sends, decoding answers a typed error (or a message) and never throws, and no
// length or count read from the frame makes it allocate more than the frame holds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { structArbitrary, versionsOf } from '../../../test/support/kafka/table-arbitraries.js';
import { type ApiName, KAFKA_APIS } from './apis.js';
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse } from './codec.js';
import type { KafkaDecodeErrorCode } from './errors.js';
import type { ApiDefinition } from './schema.js';

const ERROR_CODES: readonly KafkaDecodeErrorCode[] = [
  'frame-size',
  'truncated',
  'unknown-api',
  'unsupported-version',
  'invalid-length',
  'invalid-count',
  'invalid-null',
  'invalid-utf8',
  'invalid-varint',
  'invalid-int64',
  'invalid-tagged-field',
  'trailing-bytes',
];

type AnyBody = never;
const apiVersions = (KAFKA_APIS as readonly ApiDefinition[]).flatMap((api) =>
  versionsOf(api.versions).map((version) => ({ api, name: api.name as ApiName, version })),
);
const target = fc.constantFrom(...apiVersions);

const requestFrames = target.chain(({ api, name, version }) =>
  structArbitrary(api.request, version).map((body) =>
    Buffer.concat(encodeRequest(name, version, 1, 'fuzz', body as AnyBody)),
  ),
);
const responseFrames = target.chain(({ api, name, version }) =>
  structArbitrary(api.response, version).map((body) => ({
    name,
    version,
    frame: Buffer.concat(encodeResponse(name, version, 1, body as AnyBody)),
  })),
);

/** A frame with its size prefix set to its length, so that decoding goes past the size check. */
function sized(payload: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(payload.length + 4);
  frame.writeInt32BE(payload.length, 0);
  payload.copy(frame, 4);
  return frame;
}

type Mutation =
  | { readonly kind: 'flip'; readonly at: number; readonly byte: number }
  | { readonly kind: 'cut'; readonly at: number }
  | { readonly kind: 'insert'; readonly at: number; readonly bytes: Uint8Array }
  | { readonly kind: 'word'; readonly at: number; readonly value: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
  }),
  fc.record({
    kind: fc.constant('word' as const),
    at: fc.nat(),
    value: fc.constantFrom(0x7fffffff, -1, -2, 0x80000000 | 0, 0x7fff, 0xffff, 0xff),
  }),
);

function mutate(frame: Buffer, mutations: readonly Mutation[]): Buffer {
  let payload = Buffer.from(frame.subarray(4));
  for (const change of mutations) {
    if (payload.length === 0) break;
    const at = change.at % payload.length;
    switch (change.kind) {
      case 'flip':
        payload[at] = change.byte;
        break;
      case 'cut':
        payload = payload.subarray(0, at);
        break;
      case 'insert':
        payload = Buffer.concat([payload.subarray(0, at), Buffer.from(change.bytes), payload.subarray(at)]);
        break;
      case 'word':
        if (at + 4 <= payload.length) payload.writeInt32BE(change.value, at);
        break;
    }
  }
  return sized(payload);
}

function expectTypedOrDecoded(result: ReturnType<typeof decodeRequest> | ReturnType<typeof decodeResponse>): void {
  if (!result.ok) {
    expect(ERROR_CODES).toContain(result.error.code);
    expect(result.error.message.length).toBeGreaterThan(0);
  }
}

describe('decoding hostile frames', () => {
  it('answers random bytes with a typed error, with or without a consistent size prefix', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.boolean(), (bytes, fixSize) => {
        const frame = fixSize ? sized(Buffer.from(bytes)) : Buffer.from(bytes);
        const result = decodeRequest(frame);
        expectTypedOrDecoded(result);
        for (const { name, version } of apiVersions.slice(0, 40))
          expectTypedOrDecoded(decodeResponse(name, version, frame));
      }),
      { numRuns: 500 },
    );
  });

  it('answers mutated valid requests with a typed error or a decoded request, never an exception', () => {
    fc.assert(
      fc.property(requestFrames, fc.array(mutation, { minLength: 1, maxLength: 4 }), (frame, mutations) => {
        expectTypedOrDecoded(decodeRequest(mutate(frame, mutations)));
      }),
      { numRuns: 3000 },
    );
  });

  it('answers mutated valid responses with a typed error or a decoded response, never an exception', () => {
    fc.assert(
      fc.property(responseFrames, fc.array(mutation, { minLength: 1, maxLength: 4 }), (response, mutations) => {
        expectTypedOrDecoded(decodeResponse(response.name, response.version, mutate(response.frame, mutations)));
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses every strict prefix of a valid request, even with its size prefix corrected', () => {
    fc.assert(
      fc.property(requestFrames, (frame) => {
        for (let length = 4; length < frame.length; length++) {
          const result = decodeRequest(sized(frame.subarray(4, length)));
          expect(result.ok).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a frame whose size prefix does not match its length', () => {
    const frame = Buffer.concat(
      encodeRequest('Heartbeat', 3, 1, 'c', { groupId: 'g', generationId: 1, memberId: 'm' }),
    );
    frame.writeInt32BE(frame.length, 0);
    expect(decodeRequest(frame)).toMatchObject({ ok: false, error: { code: 'frame-size' } });
    expect(decodeRequest(frame.subarray(0, 3))).toMatchObject({ ok: false, error: { code: 'truncated' } });
  });
});

describe('hostile lengths and counts', () => {
  // Produce v3: header (api 0, v3, correlation 1, client id null), transactional id null, acks -1, timeout 1000.
  // A topic takes at least 6 bytes, so the frames below carry enough of them to pass the count check.
  const produceHeader = '0000 0003 00000001 ffff ffff ffff 000003e8';
  const request = (hexPayload: string) => decodeRequest(sized(Buffer.from(hexPayload.replaceAll(' ', ''), 'hex')));

  it('refuses an array count larger than the bytes left, before allocating anything for it', () => {
    expect(request(`${produceHeader} 7fffffff`)).toMatchObject({ ok: false, error: { code: 'invalid-count' } });
    expect(request(`${produceHeader} fffffffe`)).toMatchObject({ ok: false, error: { code: 'invalid-count' } });
    // a compact count: Metadata v12 asking for 2^31 - 3 topics
    expect(request('0003 000c 00000001 ffff 00 feffffff07')).toMatchObject({
      ok: false,
      error: { code: 'invalid-count' },
    });
  });

  it('refuses a null where the version does not allow one', () => {
    expect(request(`${produceHeader} 00000001 ffff 00000000`)).toMatchObject({
      ok: false,
      error: { code: 'invalid-null' },
    });
  });

  it('refuses string and bytes lengths past the end or below -1', () => {
    expect(request(`${produceHeader} 00000001 7fff 6100000000`)).toMatchObject({
      ok: false,
      error: { code: 'invalid-length' },
    });
    expect(request(`${produceHeader} 00000001 fffe 00000000`)).toMatchObject({
      ok: false,
      error: { code: 'invalid-length' },
    });
    const records = `${produceHeader} 00000001 0001 74 00000001 00000000 7ffffff0 0000`;
    expect(request(records)).toMatchObject({ ok: false, error: { code: 'invalid-length' } });
  });

  it('refuses a varint longer than five bytes or above 2^31 - 1', () => {
    expect(request('0003 000c 00000001 ffff 00 ffffffffff01')).toMatchObject({
      ok: false,
      error: { code: 'invalid-varint' },
    });
    expect(request('0003 000c 00000001 ffff 00 ffffffff0f')).toMatchObject({
      ok: false,
      error: { code: 'invalid-varint' },
    });
  });

  it('refuses invalid UTF-8 in the client id and in a topic name', () => {
    expect(request('0000 0003 00000001 0002 c328 ffff ffff 000003e8 00000000')).toMatchObject({
      ok: false,
      error: { code: 'invalid-utf8', header: { apiKey: 0, apiVersion: 3, correlationId: 1 } },
    });
    expect(request(`${produceHeader} 00000001 0001 ff 00000000`)).toMatchObject({
      ok: false,
      error: { code: 'invalid-utf8' },
    });
  });

  it('refuses an int64 outside the safe integer range', () => {
    // Fetch v4: replica -1, max wait, min bytes, max bytes, isolation, one topic 't', one partition, offset 2^63 - 1
    const fetch = '0001 0004 00000001 ffff ffffffff 00000064 00000001 00100000 00 00000001 0001 74 00000001 00000000';
    expect(request(`${fetch} 7fffffffffffffff 00100000`)).toMatchObject({
      ok: false,
      error: { code: 'invalid-int64' },
    });
    expect(request(`${fetch} 0000000000000005 00100000`)).toMatchObject({ ok: true });
  });

  it('refuses a known tagged field whose value does not fill its stated size, and bytes after the body', () => {
    // Fetch v12 request, tagged cluster id (tag 0) of size 4 holding a 2-byte compact string
    const fetch = '0001 000c 00000001 ffff 00 ffffffff 00000064 00000001 00100000 00 00000000 ffffffff 01 01 01';
    expect(request(`${fetch} 01 00 04 0263 0000`)).toMatchObject({
      ok: false,
      error: { code: 'invalid-tagged-field' },
    });
    expect(request(`${fetch} 01 00 02 0263`)).toMatchObject({ ok: true });
    expect(request(`${fetch} 01 00 02 0263 00`)).toMatchObject({ ok: false, error: { code: 'trailing-bytes' } });
  });
});
