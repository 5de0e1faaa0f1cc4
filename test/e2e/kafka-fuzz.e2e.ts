// A seeded fuzz run against a real broker's Kafka listener (the Kafka side of fuzz.e2e.ts), one input per fresh
// connection, in bursts by kind: well-formed requests of every API and version the broker advertises (bodies
// generated from Brook's message table, plus realistic Produce, Fetch, Metadata, ListOffsets and ApiVersions),
// then the same frames truncated, with wrong sizes, with unknown API keys and versions, random garbage, mutated
// (bits flipped, bytes inserted and deleted), oversized past BROOK_SOCKET_REQUEST_MAX_BYTES, and trickled by a slow
// client. Required of every input: a well-formed answer (its API, version and correlation id) or a closed
// connection; silence only where waiting is right (an incomplete frame, a long poll, acks=0); a close, never an
// answer, for a size out of bounds; a trickled valid request answered in full. After each burst the process is
// alive and answers Metadata; no handler ever failed on the input (the listener logs "<api> vN ... failed");
// and a topic with known records reads back identical at the end. The counts are printed and written to
// .test-results/kafka-fuzz.json. Short form by default; BROOK_SOAK=1 runs the long form; BROOK_FUZZ_SEED
// replays a run's inputs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { call } from './support/http.js';
import {
  type Advertised,
  type BaseFrame,
  baseFrames,
  expectationOf,
  garbage,
  mutated,
  oversized,
  probe,
  readAnswer,
  truncated,
  trickled,
  unknownApiOrVersion,
  wrongSize,
} from './support/kafka-fuzz.js';
import { KafkaWire } from './support/kafka-wire.js';
import { SeededRandom } from './support/seeded-random.js';

const SOAK = process.env.BROOK_SOAK === '1';
const SEED = Number(process.env.BROOK_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Inputs per hostile kind (the well-formed burst sends every base frame once, `PASSES` times). */
const CASES = Number(process.env.BROOK_KAFKA_FUZZ_CASES ?? (SOAK ? 6_000 : 800));
const PASSES = SOAK ? 5 : 1;
const SLOW_CASES = SOAK ? 300 : 24;
/** Generated bodies per advertised API version (beside the realistic ones). */
const BODIES_PER_VERSION = SOAK ? 8 : 2;
const CONCURRENCY = 16;
const REQUEST_BYTES_MAX = 65_536;
/** How long an input that may get silence is given to be answered or closed. */
const MAY_WAIT_MS = 400;
/** How long an input that must get an answer or a close is given. */
const MUST_WAIT_MS = 10_000;
const TOPICS = { scratch: 'fuzz-scratch', guarded: 'fuzz-guarded' };
const HANDLER_FAILED = / v\d+ from \S+ failed:/;

interface Tally {
  sent: number;
  answered: number;
  answeredWithError: number;
  closed: number;
  silentAllowed: number;
  /** Silence where an answer or a close was due. */
  unanswered: number;
  /** An answer where only a close was right (a size out of bounds, an incomplete frame). */
  answeredWrongly: number;
  /** An answer that does not decode as its request's API and version, or has another correlation id. */
  malformed: number;
}

const emptyTally = (): Tally => ({
  sent: 0,
  answered: 0,
  answeredWithError: 0,
  closed: 0,
  silentAllowed: 0,
  unanswered: 0,
  answeredWrongly: 0,
  malformed: 0,
});

describe('Kafka listener fuzz', () => {
  let broker: BrokerProcess;
  let clusterId: string;
  let guardedBefore: unknown[];
  const tallies = new Map<string, Tally>();
  const examples: string[] = [];
  let healthChecks = 0;

  const guardedRecords = async () => {
    const partitions = [];
    for (const partition of [0, 1]) {
      const response = await call(
        broker.url,
        'GET',
        `/v3/clusters/${clusterId}/topics/${TOPICS.guarded}/partitions/${partition}/records?offset=0&format=binary`,
      );
      expect(response.status, response.text).toBe(200);
      partitions.push(response.body.records);
    }
    return partitions;
  };

  beforeAll(async () => {
    broker = await BrokerProcess.start({ env: { BROOK_SOCKET_REQUEST_MAX_BYTES: String(REQUEST_BYTES_MAX) } });
    clusterId = await broker.clusterId();
    for (const [name, partitions] of [
      [TOPICS.guarded, 2],
      [TOPICS.scratch, 1],
    ] as const) {
      const created = await call(broker.url, 'POST', `/v3/clusters/${clusterId}/topics`, {
        body: { topic_name: name, partitions_count: partitions },
      });
      expect(created.status, created.text).toBe(201);
    }
    for (let i = 0; i < 20; i++) {
      const produced = await call(broker.url, 'POST', `/v3/clusters/${clusterId}/topics/${TOPICS.guarded}/records`, {
        body: {
          partition_id: i % 2,
          key: { type: 'STRING', data: `key-${i}` },
          value: { type: 'BINARY', data: Buffer.from(`value-${i}-${'x'.repeat(i * 7)}`).toString('base64') },
          headers: [{ name: 'n', value: Buffer.from(String(i)).toString('base64') }],
        },
      });
      expect(produced.status, produced.text).toBe(200);
    }
    guardedBefore = await guardedRecords();
  });

  afterAll(async () => {
    await broker?.stop();
  });

  /** The broker process is alive and answers Metadata (and /healthz) on fresh connections. */
  async function assertHealthy(after: string): Promise<void> {
    expect(broker.child?.exitCode ?? null, `the broker exited after the ${after} burst`).toBeNull();
    const wire = await KafkaWire.open(broker.kafkaPort);
    try {
      const metadata = await wire.call('Metadata', 12, {
        topics: [{ topicId: '00000000-0000-0000-0000-000000000000', name: TOPICS.guarded }],
        allowAutoTopicCreation: false,
        includeClusterAuthorizedOperations: false,
        includeTopicAuthorizedOperations: false,
      });
      expect(metadata.topics.map((topic) => [topic.name, topic.errorCode, topic.partitions.length])).toEqual([
        [TOPICS.guarded, 0, 2],
      ]);
    } finally {
      wire.close();
    }
    expect((await fetch(`${broker.url}/healthz`)).ok).toBe(true);
    healthChecks++;
  }

  /** Sends every input of one burst (CONCURRENCY at a time) and tallies the outcomes. */
  async function burst(kind: string, inputs: Array<{ chunks: Buffer[]; gapMs: number }>): Promise<Tally> {
    const tally = tallies.get(kind) ?? emptyTally();
    tallies.set(kind, tally);
    const note = (problem: string, bytes: Buffer) => {
      if (examples.length < 20) examples.push(`${kind}: ${problem} (${bytes.subarray(0, 48).toString('hex')})`);
    };
    let next = 0;
    const worker = async () => {
      while (next < inputs.length) {
        const { chunks, gapMs } = inputs[next++];
        const bytes = Buffer.concat(chunks);
        const expectation = expectationOf(bytes, REQUEST_BYTES_MAX);
        const outcome = await probe(
          broker.kafkaPort,
          chunks,
          gapMs,
          expectation.maySilent ? MAY_WAIT_MS : MUST_WAIT_MS,
        );
        tally.sent++;
        if (outcome.kind === 'closed') tally.closed++;
        else if (outcome.kind === 'silent') {
          if (expectation.maySilent) tally.silentAllowed++;
          else {
            tally.unanswered++;
            note('no answer and no close', bytes);
          }
        } else {
          tally.answered++;
          if (expectation.mustClose || !expectation.complete) {
            tally.answeredWrongly++;
            note('answered where only a close was right', bytes);
            continue;
          }
          const answer = readAnswer(outcome.frame, expectation);
          if (!answer.wellFormed) {
            tally.malformed++;
            note(`malformed answer: ${answer.detail}`, bytes);
          } else if (answer.withError) tally.answeredWithError++;
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await assertHealthy(kind);
    return tally;
  }

  it(`answers every input with a well-formed answer or a close, never crashes, and keeps what it stored (seed ${SEED})`, async () => {
    const random = new SeededRandom(SEED);
    const advertisedWire = await KafkaWire.open(broker.kafkaPort);
    const advertised: Advertised[] = (
      await advertisedWire.call('ApiVersions', 3, { clientSoftwareName: 'brook-fuzz', clientSoftwareVersion: '1' })
    ).apiKeys;
    advertisedWire.close();
    const bases = baseFrames(advertised, TOPICS, random, BODIES_PER_VERSION);
    const pick = (): BaseFrame => random.pick(bases);
    const single = (frame: Buffer) => ({ chunks: [frame], gapMs: 0 });
    const many = <T>(count: number, make: () => T) => Array.from({ length: count }, make);

    for (let pass = 0; pass < PASSES; pass++)
      await burst(
        'well-formed',
        bases.map((base) => single(base.frame)),
      );
    await burst(
      'truncated',
      many(CASES, () => single(truncated(pick().frame, random))),
    );
    await burst(
      'wrong-size',
      many(CASES, () => single(wrongSize(pick().frame, random, REQUEST_BYTES_MAX))),
    );
    await burst(
      'unknown-api-or-version',
      many(CASES, () => single(unknownApiOrVersion(pick(), random, advertised))),
    );
    await burst(
      'garbage',
      many(CASES, () => single(garbage(random, REQUEST_BYTES_MAX))),
    );
    await burst(
      'mutated',
      many(CASES * 3, () => single(mutated(pick().frame, random))),
    );
    await burst(
      'oversized',
      many(Math.ceil(CASES / 5), () => single(oversized(random, REQUEST_BYTES_MAX))),
    );
    // a slow client: realistic requests trickled a few bytes at a time; each must be answered in full
    const realistic = bases.filter((base) => base.realistic && base.api !== 'Fetch');
    const slow = await burst(
      'slow',
      many(SLOW_CASES, () => ({ chunks: trickled(random.pick(realistic).frame, random, 8), gapMs: 2 })),
    );

    const guardedAfter = await guardedRecords();
    const logs = `${broker.stdout}\n${broker.stderr}`.split('\n');
    const handlerFailures = logs.filter((line) => HANDLER_FAILED.test(line));
    const total = [...tallies.values()].reduce((sum, tally) => sum + tally.sent, 0);
    const summary = {
      seed: SEED,
      soak: SOAK,
      baseFrames: bases.length,
      advertisedApis: advertised.length,
      total,
      byKind: Object.fromEntries(tallies),
      healthChecks,
      handlerFailures: handlerFailures.length,
      crashes: broker.child?.exitCode === null ? 0 : 1,
      guardedIntact: JSON.stringify(guardedAfter) === JSON.stringify(guardedBefore),
    };
    console.log(`kafka listener fuzz: ${JSON.stringify(summary, null, 2)}`);
    if (examples.length > 0) console.log(`problems:\n${examples.join('\n')}`);
    if (handlerFailures.length > 0) console.log(`handler failures:\n${handlerFailures.slice(0, 10).join('\n')}`);
    mkdirSync('.test-results', { recursive: true });
    writeFileSync('.test-results/kafka-fuzz.json', JSON.stringify(summary, null, 2));

    for (const [kind, tally] of tallies) {
      expect([kind, tally.unanswered, tally.answeredWrongly, tally.malformed]).toEqual([kind, 0, 0, 0]);
      expect(tally.answered + tally.closed + tally.silentAllowed).toBe(tally.sent);
    }
    expect(slow.answered).toBe(slow.sent);
    expect(handlerFailures).toEqual([]);
    expect(summary.crashes).toBe(0);
    expect(guardedAfter).toEqual(guardedBefore);
  }, 600_000);
});
