// Hostile input on the WebSocket /v3/ws: generated frames (non-JSON, deep JSON, huge numbers, wrong types, unknown
// ops, binary, oversized, invalid UTF-8) sent to a real broker (support/fuzz-broker.ts) by a quota-bearing
// principal (`throttled` notices and paused reading): every answer is an error frame {error_code, message} or
// another frame of the protocol, every close has a documented code, the process never exits, the stored records,
// configs and committed offsets are unchanged, and the counts go to .test-results/ws-fuzz.json. Short form by
// default; BROOK_SOAK=1 runs the long form.
import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  broker,
  type Json,
  replenish,
  SEED,
  snapshot,
  SOAK,
  startFuzzBroker,
  stopFuzzBroker,
  WS_FRAME_BYTES_MAX,
} from './support/fuzz-broker.js';
import { anyValue, garbageText, scalar } from './support/fuzz-requests.js';

const WS_FRAMES = Number(process.env.BROOK_FUZZ_WS_FRAMES ?? (SOAK ? 20_000 : 1_000));
/** Close codes asyncapi.yaml documents for a client's frames: protocol error, invalid UTF-8, limits, slow consumer. */
const WS_CLOSE_CODES = new Set([1002, 1007, 1008, 1009, 4001]);
const isDocumentedClose = (code: number) => WS_CLOSE_CODES.has(code);

beforeAll(startFuzzBroker);
afterAll(stopFuzzBroker);

const WS_FIELDS = [
  'id',
  'topic',
  'topics',
  'records',
  'acks',
  'format',
  'assign',
  'group',
  'group_instance_id',
  'from',
  'timestamp',
  'credits',
  'n',
  'offsets',
];
/** Topics and groups a frame may name: never `keep` or `keepers`, whose stored state must not change. */
const wsPlausible: Record<string, fc.Arbitrary<unknown>> = {
  op: fc.constantFrom('produce', 'subscribe', 'credit', 'commit', 'unsubscribe', 'PRODUCE', '', 'nope', 'ack'),
  id: fc.oneof(fc.constantFrom('a', 'b', 1, 2), scalar),
  topic: fc.constantFrom('fuzz', 'nope', '', '__consumer_offsets'),
  topics: fc.array(fc.constantFrom('fuzz', 'nope', 'fu*'), { maxLength: 3 }),
  records: fc.array(
    fc.record({ key: anyValue, value: anyValue, partition: scalar, headers: anyValue }, { requiredKeys: ['value'] }),
    { maxLength: 4 },
  ),
  acks: fc.constantFrom('0', '1', 'all', 'none', 2),
  format: fc.constantFrom('json', 'binary', 'string', 'avro'),
  assign: fc.array(fc.record({ topic: fc.constantFrom('fuzz', 'nope'), partition: scalar, offset: scalar }), {
    maxLength: 3,
  }),
  group: fc.constantFrom('g-ws', 'g-ws-2', ''),
  group_instance_id: fc.constantFrom('m1', ''),
  from: fc.constantFrom('earliest', 'latest', 'timestamp', 'yesterday'),
  timestamp: scalar,
  credits: scalar,
  n: scalar,
  offsets: fc.array(fc.record({ topic: fc.constantFrom('fuzz', 'nope'), partition: scalar, offset: scalar }), {
    maxLength: 3,
  }),
};
const wsShaped = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...WS_FIELDS), anyValue, { maxKeys: 4 }),
    fc.subarray(['op', ...WS_FIELDS]),
    fc.tuple(...['op', ...WS_FIELDS].map((name) => wsPlausible[name])),
  )
  .map(([wrong, plausibleNames, plausibleValues]) => {
    const frame: Json = { ...wrong };
    const names = ['op', ...WS_FIELDS];
    for (const name of plausibleNames) frame[name] = plausibleValues[names.indexOf(name)];
    return frame;
  });

/** Valid frames (on topic fuzz, group g-ws, ids a, b, c), each maybe with one field replaced by garbage. */
const wsNearValid = fc
  .tuple(
    fc.constantFrom('a', 'b', 'c'),
    fc.constantFrom<Json[]>(
      [{ op: 'produce', topic: 'fuzz', records: [{ value: 'v' }, { key: 'k', value: '{"a":1}' }], acks: '1' }],
      [{ op: 'subscribe', assign: [{ topic: 'fuzz', partition: 0, offset: 0 }], credits: 10, format: 'string' }],
      [{ op: 'subscribe', topics: ['fuzz'], group: 'g-ws', from: 'earliest' }],
      [{ op: 'credit', n: 5 }],
      [{ op: 'commit', offsets: [{ topic: 'fuzz', partition: 0, offset: 1 }] }],
      [{ op: 'unsubscribe' }],
    ),
    fc.option(fc.tuple(fc.constantFrom('op', ...WS_FIELDS), anyValue), { freq: 2 }),
  )
  .map(([id, [template], mutation]) => {
    const frame: Json = { ...template, id };
    if (mutation !== null) frame[mutation[0]] = mutation[1];
    return frame;
  });

type WsFrame = { kind: 'text'; text: string } | { kind: 'binary' | 'invalid-utf8'; bytes: Buffer };
const wsFrame: fc.Arbitrary<WsFrame> = fc.oneof(
  { weight: 10, arbitrary: wsShaped.map((frame) => ({ kind: 'text' as const, text: JSON.stringify(frame) })) },
  { weight: 8, arbitrary: wsNearValid.map((frame) => ({ kind: 'text' as const, text: JSON.stringify(frame) })) },
  { weight: 2, arbitrary: garbageText.map((text) => ({ kind: 'text' as const, text })) },
  {
    weight: 2,
    arbitrary: fc.jsonValue({ maxDepth: 5 }).map((v) => ({ kind: 'text' as const, text: JSON.stringify(v) ?? 'null' })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 100, max: 30_000 }).map((n) => ({
      kind: 'text' as const,
      text: `{"op":"produce","id":1,"topic":"fuzz","records":${'['.repeat(n)}${']'.repeat(n)}}`,
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        '{"op":"credit","id":"a","n":1e308}',
        `{"op":"credit","id":"a","n":${'9'.repeat(400)}}`,
        '{"op":"subscribe","id":"h","assign":[{"topic":"fuzz","partition":18446744073709551616,"offset":-9007199254740993}]}',
        '{"op":"produce","id":-0,"topic":"fuzz","records":[{"value":"x","partition":1e21}]}',
        '{"op":"commit","id":"a","offsets":[{"topic":"fuzz","partition":0,"offset":NaN}]}',
        '{"op":"produce","id":1,"topic":"fuzz","format":"binary","records":[{"value":"!!!not base64"}]}',
        '{"op":"produce","id":1,"topic":"fuzz","records":[{"value":"\\uD800"}]}',
        '{"op":"produce","op":"subscribe","id":1}',
        '{"__proto__":{"op":"produce"},"id":1}',
      )
      .map((text) => ({ kind: 'text' as const, text })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: WS_FRAME_BYTES_MAX + 1, max: 4 * WS_FRAME_BYTES_MAX }).map((n) => ({
      kind: 'text' as const,
      text: JSON.stringify({ op: 'produce', id: 'big', topic: 'fuzz', records: [{ value: 'x'.repeat(n) }] }),
    })),
  },
  {
    weight: 2,
    arbitrary: fc
      .uint8Array({ maxLength: 300 })
      .map((bytes) => ({ kind: 'binary' as const, bytes: Buffer.from(bytes) })),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 100 }).map((bytes) => ({
      kind: 'invalid-utf8' as const,
      bytes: Buffer.concat([
        Buffer.from('{"op":"produce","id":"'),
        Buffer.from(bytes),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
        Buffer.from('"}'),
      ]),
    })),
  },
);

/** One socket of the WebSocket fuzz run: every frame it receives is checked and counted, and so is its close. */
class FuzzSocket {
  closeCode: number | null = null;
  private constructor(readonly socket: WebSocket) {}

  static open(
    received: Record<string, number>,
    failures: string[],
    closes: Record<string, number>,
  ): Promise<FuzzSocket> {
    const socket = new WebSocket(`${broker.url.replace(/^http/, 'ws')}/v3/ws`, { maxPayload: 64 * 1024 * 1024 });
    const fuzz = new FuzzSocket(socket);
    socket.on('message', (data, isBinary) => {
      const text = String(data);
      let frame: Json | null = null;
      try {
        frame = isBinary ? null : (JSON.parse(text) as Json);
      } catch {
        // reported below
      }
      if (frame === null || typeof frame.op !== 'string') {
        failures.push(`a frame that is not a protocol frame: ${text.slice(0, 200)}`);
        return;
      }
      received[frame.op] = (received[frame.op] ?? 0) + 1;
      if (frame.op === 'error' && (typeof frame.error_code !== 'number' || typeof frame.message !== 'string'))
        failures.push(`an error frame without {error_code, message}: ${text.slice(0, 200)}`);
    });
    socket.on('close', (code) => {
      fuzz.closeCode = code;
      closes[code] = (closes[code] ?? 0) + 1;
    });
    socket.on('error', () => undefined); // the close event follows with its code
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(fuzz));
      socket.once('unexpected-response', (_, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
      socket.once('close', () => reject(new Error('closed before opening')));
    });
  }

  send(frame: WsFrame): void {
    if (frame.kind === 'text') this.socket.send(frame.text);
    else this.socket.send(frame.bytes, { binary: frame.kind === 'binary' });
  }

  /** Resolves once the broker has handled what was sent before (a pong behind it), or the socket closed. */
  settled(timeoutMs: number): Promise<'pong' | 'closed' | 'timeout'> {
    if (this.closeCode !== null) return Promise.resolve('closed');
    return new Promise((resolve) => {
      const done = (outcome: 'pong' | 'closed' | 'timeout') => {
        clearTimeout(timer);
        this.socket.off('pong', onPong);
        this.socket.off('close', onClose);
        resolve(outcome);
      };
      const onPong = () => done('pong');
      const onClose = () => done('closed');
      const timer = setTimeout(() => done('timeout'), timeoutMs);
      this.socket.on('pong', onPong);
      this.socket.on('close', onClose);
      try {
        this.socket.ping();
      } catch {
        done('closed');
      }
    });
  }
}

describe('fuzzing the WebSocket /v3/ws', () => {
  it(
    `${WS_FRAMES} generated frames: error frames or documented closes, no crash, stored data unchanged`,
    { timeout: SOAK ? 3_600_000 : 300_000 },
    async () => {
      const before = await snapshot();
      const received: Record<string, number> = {};
      const closes: Record<string, number> = {};
      const failures: string[] = [];
      const kinds: Record<string, number> = {};
      let sockets = 1;
      let fuzz = await FuzzSocket.open(received, failures, closes);
      const samples = fc.sample(wsFrame, { numRuns: WS_FRAMES, seed: SEED });
      for (const [i, frame] of samples.entries()) {
        if (i % 50 === 0) await replenish();
        if (fuzz.closeCode !== null) {
          fuzz = await FuzzSocket.open(received, failures, closes);
          sockets++;
        }
        kinds[frame.kind] = (kinds[frame.kind] ?? 0) + 1;
        fuzz.send(frame);
        const outcome = await fuzz.settled(5_000);
        const what = frame.kind === 'text' ? frame.text.slice(0, 120) : `${frame.kind} ${frame.bytes.length} bytes`;
        if (outcome === 'timeout') failures.push(`no pong within 5 s after ${what}`);
        if (fuzz.closeCode !== null && !isDocumentedClose(fuzz.closeCode))
          failures.push(`closed with ${fuzz.closeCode} after ${what}`);
        if (broker.child?.exitCode !== null) {
          failures.push(`broker exited after ${what}`);
          break;
        }
      }
      fuzz.socket.close();
      const crashes = broker.child?.exitCode === null ? 0 : 1;
      const report = {
        seed: SEED,
        frames: samples.length,
        kinds,
        sockets,
        errorFrames: received.error ?? 0,
        received,
        closes,
        crashes,
        failures: failures.length,
      };
      console.log(`ws fuzz: ${JSON.stringify(report)}`);
      mkdirSync('.test-results', { recursive: true });
      writeFileSync(
        '.test-results/ws-fuzz.json',
        `${JSON.stringify({ ...report, failureSamples: failures.slice(0, 50) }, null, 2)}\n`,
      );
      expect(failures.slice(0, 20), `seed ${SEED}`).toEqual([]);
      expect(crashes).toBe(0);
      expect(report.errorFrames).toBeGreaterThan(WS_FRAMES / 4);
      expect(received.ack ?? 0).toBeGreaterThan(0); // valid frames got through too: the deeper code ran
      expect((await fetch(`${broker.url}/healthz`)).status).toBe(200);
      expect(await snapshot()).toEqual(before);
    },
  );
});
