// The generators and the oracle of the Kafka listener fuzz run (kafka-fuzz.e2e.ts). From a seed: well-formed
// request frames of every API and version the broker advertises (bodies generated from Brook's message table,
// plus hand-written realistic Produce, Fetch, Metadata and ListOffsets requests), and the hostile inputs made from
// them (truncated, wrong sizes, unknown API keys and versions, garbage, mutations, oversized, trickled). A probe
// sends one input on a fresh connection and reports what came back: an answer frame, a close, or silence. The
// oracle says which outcomes an input allows, from what its bytes are (complete or not, decodable or not).
import fc from 'fast-check';
import { connect } from 'node:net';
import { type ApiName, apiByKey } from '../../../src/kafka/protocol/apis.js';
import { decodeRequest, decodeResponse, encodeRequest, type KafkaRequest } from '../../../src/kafka/protocol/codec.js';
import { type Field, inVersions, parseVersions } from '../../../src/kafka/protocol/schema.js';
import { encodeBatch } from '../../../src/partition-log/record-batch.js';
import { structArbitrary } from '../../support/kafka/table-arbitraries.js';
import type { SeededRandom } from './seeded-random.js';

export interface Advertised {
  apiKey: number;
  minVersion: number;
  maxVersion: number;
}

export interface BaseFrame {
  api: ApiName;
  version: number;
  frame: Buffer;
  /** A hand-written request that succeeds as it is (the generated ones mostly get error answers). */
  realistic: boolean;
}

/** Topics the realistic requests name: one written to (scratch), one only read (its records must stay). */
export interface FuzzTopics {
  scratch: string;
  guarded: string;
}

type AnyBody = never;

/** Hand-written realistic bodies, for the APIs whose deep paths random bodies rarely reach. */
function realisticBodies(api: ApiName, topics: FuzzTopics, random: SeededRandom): Record<string, unknown>[] {
  const batch = () =>
    encodeBatch(
      Array.from({ length: random.integer(1, 5) }, (_, i) => ({
        key: Buffer.from(`k${i}`),
        value: Buffer.from(`fuzz-${random.integer(0, 1e9)}`),
        timestamp: Date.now(),
        headers: [{ key: 'h', value: Buffer.from('v') }],
      })),
    );
  switch (api) {
    case 'Produce':
      return [-1, 1].map((acks) => ({
        transactionalId: null,
        acks,
        timeoutMs: 5_000,
        topicData: [{ name: topics.scratch, partitionData: [{ index: 0, records: batch() }] }],
      }));
    case 'Fetch':
      return [
        {
          clusterId: null,
          replicaId: -1,
          maxWaitMs: 0,
          minBytes: 1,
          maxBytes: 1_048_576,
          isolationLevel: 0,
          sessionId: 0,
          sessionEpoch: -1,
          topics: [
            {
              topic: topics.guarded,
              topicId: '00000000-0000-0000-0000-000000000000',
              partitions: [
                {
                  partition: 0,
                  currentLeaderEpoch: -1,
                  fetchOffset: 0,
                  lastFetchedEpoch: -1,
                  logStartOffset: -1,
                  partitionMaxBytes: 1_048_576,
                },
              ],
            },
          ],
          forgottenTopicsData: [],
          rackId: '',
        },
      ];
    case 'Metadata':
      return [
        {
          topics: null,
          allowAutoTopicCreation: false,
          includeClusterAuthorizedOperations: false,
          includeTopicAuthorizedOperations: false,
        },
        {
          topics: [{ topicId: '00000000-0000-0000-0000-000000000000', name: topics.guarded }],
          allowAutoTopicCreation: false,
          includeClusterAuthorizedOperations: true,
          includeTopicAuthorizedOperations: true,
        },
      ];
    case 'ListOffsets':
      return [
        {
          replicaId: -1,
          isolationLevel: 0,
          topics: [
            { name: topics.guarded, partitions: [{ partitionIndex: 0, currentLeaderEpoch: -1, timestamp: -1 }] },
          ],
        },
      ];
    case 'ApiVersions':
      return [{ clientSoftwareName: 'brook-fuzz', clientSoftwareVersion: '1.0' }];
    default:
      return [];
  }
}

/**
 * Well-formed frames of every advertised API and version the codec covers: `perVersion` bodies generated from the
 * table, plus the realistic ones. Generated names are random text, so none of them names the guarded topic.
 */
export function baseFrames(
  advertised: readonly Advertised[],
  topics: FuzzTopics,
  random: SeededRandom,
  perVersion: number,
): BaseFrame[] {
  const frames: BaseFrame[] = [];
  for (const range of advertised) {
    const definition = apiByKey(range.apiKey);
    if (definition === undefined) continue;
    const api = definition.name as ApiName;
    const codec = parseVersions(definition.versions);
    for (let version = Math.max(range.minVersion, codec.min); version <= range.maxVersion; version++) {
      const generated = fc.sample(structArbitrary(definition.request, version), {
        numRuns: perVersion,
        seed: random.integer(0, 2 ** 31 - 1),
      });
      const realistic = realisticBodies(api, topics, random).map((body) =>
        forVersion(definition.request, version, body),
      );
      for (const [index, body] of [...realistic, ...generated].entries()) {
        const correlationId = random.integer(0, 2 ** 31 - 1);
        frames.push({
          api,
          version,
          frame: Buffer.concat(encodeRequest(api, version, correlationId, 'brook-fuzz', body as AnyBody)),
          realistic: index < realistic.length,
        });
      }
    }
  }
  return frames;
}

/** A hand-written body cut down to the fields `version` has (the encoder refuses the others). */
function forVersion(fields: readonly Field[], version: number, body: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const field of fields) {
    const value = body[field.name];
    if (value === undefined || !inVersions(version, field.versions)) continue;
    const shape = field.shape;
    if (shape.kind === 'structArray' && Array.isArray(value)) {
      kept[field.name] = value.map((item) => forVersion(shape.fields, version, item as Record<string, unknown>));
    } else if (shape.kind === 'struct' && value !== null && typeof value === 'object') {
      kept[field.name] = forVersion(shape.fields, version, value as Record<string, unknown>);
    } else kept[field.name] = value;
  }
  return kept;
}

export const randomBytes = (random: SeededRandom, length: number) =>
  Buffer.from(Array.from({ length }, () => random.integer(0, 255)));

const withSize = (frame: Buffer, size: number) => {
  const copy = Buffer.from(frame);
  copy.writeInt32BE(size, 0);
  return copy;
};

export function truncated(base: Buffer, random: SeededRandom): Buffer {
  const cut = base.subarray(0, random.integer(4, Math.max(4, base.length - 1)));
  // mostly an honest size for the shorter body; sometimes the old size with the bytes missing
  return random.next() < 0.7 ? withSize(cut, cut.length - 4) : cut;
}

export function wrongSize(base: Buffer, random: SeededRandom, requestBytesMax: number): Buffer {
  const size = random.pick([
    -1,
    -random.integer(2, 2 ** 31),
    0,
    random.integer(1, 7),
    base.length - 4 - random.integer(1, 8),
    base.length - 4 + random.integer(1, 64),
    requestBytesMax + random.integer(1, 1_000_000),
    2 ** 31 - 1,
  ]);
  return withSize(base, size);
}

export function unknownApiOrVersion(base: BaseFrame, random: SeededRandom, advertised: readonly Advertised[]): Buffer {
  const frame = Buffer.from(base.frame);
  if (random.next() < 0.5) {
    const known = new Set(advertised.map((range) => range.apiKey));
    let key: number;
    do key = random.pick([random.integer(0, 100), random.integer(100, 32_767), -random.integer(1, 32_768)]);
    while (known.has(key));
    frame.writeInt16BE(key, 4);
  } else {
    const range = advertised.find((candidate) => candidate.apiKey === frame.readInt16BE(4))!;
    frame.writeInt16BE(random.pick([range.maxVersion + random.integer(1, 50), -random.integer(1, 32_768), 32_767]), 6);
  }
  return frame;
}

export function garbage(random: SeededRandom, requestBytesMax: number): Buffer {
  const body = randomBytes(random, random.integer(1, 2_000));
  const roll = random.next();
  if (roll < 0.4) return body; // anything, size prefix included
  if (roll < 0.8) return Buffer.concat([withSize(Buffer.alloc(4), body.length), body]); // an honest size
  return Buffer.concat([withSize(Buffer.alloc(4), random.integer(0, requestBytesMax)), body]);
}

/** 1-4 byte flips, insertions and deletions past the size prefix, which is then mostly made to fit again. */
export function mutated(base: Buffer, random: SeededRandom): Buffer {
  let bytes = Buffer.from(base);
  for (let i = random.integer(1, 4); i > 0; i--) {
    const at = random.integer(4, Math.max(4, bytes.length - 1));
    const op = random.integer(0, 2);
    if (op === 0 && at < bytes.length) bytes[at] ^= 1 << random.integer(0, 7);
    else if (op === 1) {
      bytes = Buffer.concat([bytes.subarray(0, at), randomBytes(random, random.integer(1, 16)), bytes.subarray(at)]);
    } else
      bytes = Buffer.concat([
        bytes.subarray(0, at),
        bytes.subarray(Math.min(bytes.length, at + random.integer(1, 16))),
      ]);
  }
  return random.next() < 0.85 ? withSize(bytes, bytes.length - 4) : bytes;
}

export function oversized(random: SeededRandom, requestBytesMax: number): Buffer {
  const declared = random.pick([requestBytesMax + 1, random.integer(requestBytesMax + 1, 2 ** 31 - 1)]);
  // the size alone, or the size followed by a body that really is too large
  const sent = random.next() < 0.5 ? random.integer(0, 64) : requestBytesMax + random.integer(1, 65_536);
  return Buffer.concat([withSize(Buffer.alloc(4), declared), randomBytes(random, 8), Buffer.alloc(sent)]);
}

/** What an input allows, from its bytes. */
export interface Expectation {
  /** The decoded request of a complete first frame (null: incomplete or undecodable). */
  request: KafkaRequest | null;
  /** Whether a complete first frame is there (an answer then means it was read). */
  complete: boolean;
  /** The size prefix is out of bounds: only a close is right. */
  mustClose: boolean;
  /** Silence is a right outcome: an incomplete frame, a long poll, acks=0. */
  maySilent: boolean;
  /** An ApiVersions version the codec lacks: the v0-shaped UNSUPPORTED_VERSION answer. */
  apiVersionsUnsupported: boolean;
}

const WAITING_APIS = new Set<ApiName>(['Fetch', 'JoinGroup', 'SyncGroup']);

export function expectationOf(bytes: Buffer, requestBytesMax: number): Expectation {
  const none = { request: null, apiVersionsUnsupported: false };
  if (bytes.length < 4) return { ...none, complete: false, mustClose: false, maySilent: true };
  const size = bytes.readInt32BE(0);
  if (size < 0 || size > requestBytesMax) return { ...none, complete: false, mustClose: true, maySilent: false };
  if (bytes.length < 4 + size) return { ...none, complete: false, mustClose: false, maySilent: true };
  const decoded = decodeRequest(bytes.subarray(0, 4 + size));
  if (!decoded.ok) {
    const unsupported = decoded.error.code === 'unsupported-version' && decoded.error.header?.apiKey === 18;
    return { ...none, complete: true, mustClose: false, maySilent: false, apiVersionsUnsupported: unsupported };
  }
  const request = decoded.value;
  const acksZero = request.apiName === 'Produce' && (request.body as { acks: number }).acks === 0;
  return {
    request,
    complete: true,
    mustClose: false,
    maySilent: acksZero || WAITING_APIS.has(request.apiName),
    apiVersionsUnsupported: false,
  };
}

export type Outcome = { kind: 'answered'; frame: Buffer } | { kind: 'closed' } | { kind: 'silent' };

/**
 * Sends `chunks` on a fresh connection (`gapMs` apart) and waits `waitMs` after the last for the first answer
 * frame or the broker's close; then ends the connection.
 */
export function probe(port: number, chunks: readonly Buffer[], gapMs: number, waitMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let buffered = Buffer.alloc(0);
    let timer: NodeJS.Timeout | null = null;
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      if (timer !== null) clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    socket.on('error', () => settle({ kind: 'closed' }));
    socket.on('close', () => settle({ kind: 'closed' }));
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length >= 4 && buffered.length >= 4 + buffered.readInt32BE(0)) {
        settle({ kind: 'answered', frame: buffered.subarray(0, 4 + buffered.readInt32BE(0)) });
      }
    });
    socket.once('connect', async () => {
      for (const chunk of chunks) {
        if (settled) return;
        socket.write(chunk);
        if (gapMs > 0) await new Promise((wait) => setTimeout(wait, gapMs));
      }
      timer = setTimeout(() => settle({ kind: 'silent' }), waitMs);
    });
  });
}

/** Splits a frame into pieces of 1-`most` bytes, for a client that trickles its request. */
export function trickled(frame: Buffer, random: SeededRandom, most: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < frame.length;) {
    const length = random.integer(1, most);
    chunks.push(frame.subarray(at, at + length));
    at += length;
  }
  return chunks;
}

/** Whether an answer decodes as the request's API and version, with its correlation id; and if any error is in it. */
export function readAnswer(
  frame: Buffer,
  expectation: Expectation,
): { wellFormed: boolean; withError: boolean; detail: string } {
  const request = expectation.request;
  const [api, version, correlationId] = expectation.apiVersionsUnsupported
    ? (['ApiVersions', 0, frame.readInt32BE(4)] as const)
    : request !== null
      ? ([request.apiName, request.apiVersion, request.correlationId] as const)
      : [null, 0, 0];
  if (api === null) return { wellFormed: false, withError: false, detail: 'an answer to a frame that does not decode' };
  const decoded = decodeResponse(api, version, frame);
  if (!decoded.ok)
    return { wellFormed: false, withError: false, detail: `${api} v${version}: ${decoded.error.message}` };
  if (decoded.value.correlationId !== correlationId) {
    return {
      wellFormed: false,
      withError: false,
      detail: `${api} v${version}: correlation id ${decoded.value.correlationId}`,
    };
  }
  return { wellFormed: true, withError: hasError(decoded.value.body), detail: '' };
}

function hasError(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasError);
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return false;
  return Object.entries(value).some(([key, field]) => (key === 'errorCode' ? field !== 0 : hasError(field)));
}
