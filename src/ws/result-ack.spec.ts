// The ack of a scanned produce frame against the full path's: for generated produce results (refusals, appends
// with offsets, acks=0, replays, errors with and without an outcome marker, records spread over partitions in any
// order), resultAckFrame's text is ackFrame's of the outcomes ProduceService.produce() builds, and allFailedError
// is the error the session throws for those outcomes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BrookError, errors } from '../common/brook-error.js';
import { produceOutcomes, type ProduceResult } from '../application/produce/produce.service.js';
import type { AppendedGroup } from '../application/produce/partition-appends.js';
import { allFailedError, resultAckFrame } from './result-ack.js';
import { ackFrame } from './ws-protocol.js';

const failure = fc.constantFrom(
  errors.partitionNotFound(7),
  errors.outcomeUnknown('timed out waiting for the ISR'),
  errors.invalidRequest('Records of a compacted topic need a key: "é".'),
  new BrookError(500, 500, 'boom'),
);

/** A record's fate: refused, or one of up to three appends. */
const fate = fc.oneof(
  { weight: 1, arbitrary: fc.record({ refused: fc.constant(true), partition: fc.option(fc.nat(3)), error: failure }) },
  { weight: 6, arbitrary: fc.record({ refused: fc.constant(false), group: fc.nat(2) }) },
);

const append = fc.record({
  partition: fc.nat(5),
  kind: fc.constantFrom('ok', 'ok', 'acks0', 'replay', 'error'),
  firstOffset: fc.oneof(fc.nat(1000), fc.constant(Number.MAX_SAFE_INTEGER - 10)),
  error: failure,
});

const result = fc
  .tuple(fc.array(fate, { minLength: 1, maxLength: 12 }), fc.array(append, { minLength: 3, maxLength: 3 }))
  .map(([fates, appends]): { result: ProduceResult; count: number } => {
    const refused: ProduceResult['refused'] = new Map();
    const indexes: number[][] = [[], [], []];
    fates.forEach((f, i) => {
      if (f.refused) refused.set(i, { partition: f.partition, error: f.error });
      else indexes[f.group].push(i);
    });
    const appended: AppendedGroup[] = [];
    appends.forEach((a, g) => {
      if (indexes[g].length === 0) return;
      const n = indexes[g].length;
      const info = {
        firstOffset: a.firstOffset,
        lastOffset: a.firstOffset + n - 1,
        logAppendTimeMs: -1,
        maxTimestampMs: 5,
        recordCount: n,
        ...(a.kind === 'replay' ? { duplicate: true, baseTimestampMs: 5 } : {}),
      };
      appended.push({
        partition: a.partition,
        indexes: indexes[g],
        info: a.kind === 'acks0' || a.kind === 'error' ? null : info,
        error: a.kind === 'error' ? a.error : null,
      });
    });
    return { result: { refused, appended }, count: fates.length };
  });

/** The session's rule for the full path: every record failing is the first one's error. */
function thrownByFullPath(outcomes: ReturnType<typeof produceOutcomes>): BrookError | null {
  const failed = outcomes.filter((outcome) => !outcome.ok);
  return failed.length === outcomes.length && !failed[0].ok ? failed[0].error : null;
}

describe('resultAckFrame', () => {
  it('writes the ack the full path writes for the same produce result', () => {
    fc.assert(
      fc.property(
        result,
        fc.oneof(fc.integer(), fc.string({ minLength: 1, maxLength: 80 })),
        ({ result, count }, id) => {
          const outcomes = produceOutcomes(result, count, () => 5);
          expect(resultAckFrame(id, result, count).toString('utf8')).toBe(ackFrame(id, outcomes));
          expect(allFailedError(result, count)).toBe(thrownByFullPath(outcomes));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('writes offsets of every size and the replay marker', () => {
    const appended = (firstOffset: number, duplicate: boolean): ProduceResult => ({
      refused: new Map(),
      appended: [
        {
          partition: 12,
          indexes: [0, 1],
          info: {
            firstOffset,
            lastOffset: firstOffset + 1,
            logAppendTimeMs: -1,
            maxTimestampMs: 1,
            recordCount: 2,
            duplicate,
          },
          error: null,
        },
      ],
    });
    for (const offset of [0, 8, 9, 10, 99, 100, 123456789, 2 ** 31, Number.MAX_SAFE_INTEGER - 1]) {
      expect(JSON.parse(resultAckFrame('a', appended(offset, false), 2).toString('utf8'))).toEqual({
        op: 'ack',
        id: 'a',
        offsets: [
          { partition: 12, offset },
          { partition: 12, offset: offset + 1 },
        ],
      });
    }
    expect(JSON.parse(resultAckFrame(1, appended(5, true), 2).toString('utf8')).replayed).toBe(true);
  });
});
