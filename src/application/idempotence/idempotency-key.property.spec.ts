// Model-based property test of Idempotency-Key requests (idempotency-key.ts) against a real PartitionLog on disk:
// clients that share key strings across principals and topics send requests with one of a few bodies, retry them,
// send a retry in the same tick as the first request, and the log restarts (cleanly or as after a crash, with small
// segments so snapshots are read). The model is a map from (principal, topic, key) to the body and offsets of the
// first request: a new key appends, the same body replays the original offsets, another body is
// IDEMPOTENCY_KEY_REUSED, a retry queued beside its first request is IDEMPOTENCY_KEY_IN_FLIGHT.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, T0 } from '../../../test/support/log-fixtures.js';
import { ManualClock } from '../../common/clock.js';
import { FileHandlePool } from '../../partition-log/file-handle-pool.js';
import { logConfig } from '../../partition-log/log-config.js';
import { ProducerStateError } from '../../partition-log/log-errors.js';
import { PartitionLog, type AppendInfo } from '../../partition-log/partition-log.js';
import { encodeBatch } from '../../partition-log/record-batch.js';
import { bodyDigest, keyProducer, type KeyScope } from './idempotency-key.js';

const NUM_RUNS = process.env.BROOK_SOAK === '1' ? 300 : 25;

/** Four clients; two share a key string with another principal, one with another topic. */
const CLIENTS: KeyScope[] = [
  { principal: 'User:alice', topic: 't', key: 'k1', position: null },
  { principal: 'User:bob', topic: 't', key: 'k1', position: null },
  { principal: 'User:alice', topic: 'u', key: 'k1', position: null },
  { principal: 'User:alice', topic: 't', key: 'k2', position: null },
];

type Op = { kind: 'send'; client: number; body: number; twice: boolean } | { kind: 'restart'; crash: boolean };

type Outcome = 'append' | 'replay' | 'IDEMPOTENCY_KEY_REUSED' | 'IDEMPOTENCY_KEY_IN_FLIGHT';

interface Kept {
  body: number;
  firstOffset: number;
  lastOffset: number;
}

interface Real {
  dir: string;
  log: PartitionLog;
  pool: FileHandlePool;
  clock: ManualClock;
}

/** Body b holds b + 1 records. */
function request(client: number, body: number, clock: ManualClock): Buffer {
  const values = Array.from({ length: body + 1 }, (_, i) => `c${client}b${body}r${i}`);
  const producer = keyProducer(CLIENTS[client], bodyDigest('test', JSON.stringify(values)));
  return encodeBatch(
    values.map((value) => ({ key: null, value: Buffer.from(value), timestamp: clock.nowMs() })),
    { producerId: producer.producerId, producerEpoch: producer.producerEpoch, baseSequence: producer.sequence },
  );
}

async function outcomeOf(call: Promise<AppendInfo>): Promise<{ outcome: Outcome; info?: AppendInfo }> {
  try {
    const info = await call;
    return { outcome: info.duplicate === true ? 'replay' : 'append', info };
  } catch (error) {
    if (!(error instanceof ProducerStateError)) throw error;
    return { outcome: error.kind as Outcome };
  }
}

function append(real: Real, batch: Buffer): Promise<AppendInfo> {
  // a refusal is thrown at once; as a rejected promise it is read like the others
  return (async () => real.log.appendAsLeader(batch, 0, { keyProducers: true }))();
}

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      client: fc.integer({ min: 0, max: 3 }),
      body: fc.integer({ min: 0, max: 2 }),
      twice: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const), crash: fc.boolean() }) },
);

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeDir));
});

describe('Idempotency-Key requests against a model', () => {
  it('append once, replay the original offsets, refuse another body and a retry in flight, through restarts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (ops) => {
        const dir = await makeTempDir('brook-idempotency-key-');
        dirs.push(dir);
        const clock = new ManualClock(T0);
        const config = logConfig({ segmentBytes: 300, retentionMs: -1, retentionBytes: -1 });
        const real: Real = { dir, clock, pool: new FileHandlePool(8), log: null as unknown as PartitionLog };
        real.log = await PartitionLog.open(dir, config, { clock, pool: real.pool });
        const kept = new Map<number, Kept>();
        let logEnd = 0;
        try {
          for (const step of ops) {
            if (step.kind === 'restart') {
              if (step.crash) {
                await real.log.rolledSegmentFlushed(); // the crash comes after the flush a roll left behind
                const abandoned = real.pool;
                real.pool = new FileHandlePool(8);
                real.log = await PartitionLog.open(dir, config, { clock, pool: real.pool });
                await abandoned.closeAll();
              } else {
                await real.log.close();
                real.log = await PartitionLog.open(dir, config, { clock, pool: real.pool });
              }
              continue;
            }
            const original = kept.get(step.client);
            const expected: Outcome =
              original === undefined ? 'append' : original.body === step.body ? 'replay' : 'IDEMPOTENCY_KEY_REUSED';
            const first = outcomeOf(append(real, request(step.client, step.body, clock)));
            const second = step.twice ? outcomeOf(append(real, request(step.client, step.body, clock))) : null;
            const got = await first;
            expect(got.outcome).toBe(expected);
            if (expected === 'append') {
              const records = step.body + 1;
              expect(got.info).toMatchObject({ firstOffset: logEnd, lastOffset: logEnd + records - 1 });
              kept.set(step.client, { body: step.body, firstOffset: logEnd, lastOffset: logEnd + records - 1 });
              logEnd += records;
            }
            if (expected === 'replay') {
              expect(got.info).toMatchObject({ firstOffset: original!.firstOffset, lastOffset: original!.lastOffset });
            }
            if (second !== null) {
              // queued beside an append, the retry finds its first request in flight; otherwise it answers alike
              const again = await second;
              expect(again.outcome).toBe(expected === 'append' ? 'IDEMPOTENCY_KEY_IN_FLIGHT' : expected);
            }
            expect(real.log.logEndOffset).toBe(logEnd);
            clock.advance(1);
          }
        } finally {
          await real.log.close().catch(() => undefined);
          await real.pool.closeAll();
          await removeDir(dir);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  }, 120_000);
});
