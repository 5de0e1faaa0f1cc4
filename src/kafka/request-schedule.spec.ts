import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestSchedule, type ScheduledRequest } from './request-schedule.js';

type Step = { kind: 'arrive'; exclusive: boolean } | { kind: 'finish'; pick: number } | { kind: 'take' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('arrive' as const), exclusive: fc.boolean() }),
  fc.record({ kind: fc.constant('finish' as const), pick: fc.nat() }),
  fc.constant({ kind: 'take' as const }),
);

describe('RequestSchedule', () => {
  it('starts exclusive requests alone, pipelined ones behind no unfinished exclusive, and answers in arrival order', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        const schedule = new RequestSchedule<number, number>({ inFlightMax: 1_000, inFlightBytesMax: 1e9 });
        const entries: ScheduledRequest<number, number>[] = [];
        const released: number[] = [];
        const running = () => entries.filter((entry) => entry.started && !entry.finished);
        for (const next of steps) {
          if (next.kind === 'arrive') entries.push(schedule.arrive(entries.length, next.exclusive, 10));
          else if (next.kind === 'take') {
            for (const entry of schedule.takeStartable(0)) {
              const before = entries.slice(0, entry.request);
              if (entry.exclusive) expect(before.every((earlier) => earlier.finished)).toBe(true);
              else expect(before.some((earlier) => earlier.exclusive && !earlier.finished)).toBe(false);
            }
            const active = running();
            if (active.some((entry) => entry.exclusive)) expect(active).toHaveLength(1);
          } else {
            const candidates = running();
            if (candidates.length === 0) continue;
            const entry = candidates[next.pick % candidates.length];
            released.push(...schedule.finish(entry, entry.request));
          }
        }
        // everything answered so far is a prefix of the arrivals, in order, each once
        expect(released).toEqual(released.map((_, index) => index));
        const finishedPrefix = entries.findIndex((entry) => !entry.finished);
        expect(released.length).toBe(finishedPrefix === -1 ? entries.length : finishedPrefix);
      }),
    );
  });

  it('releases a finished request only after those that arrived before it, and drops answers of null', () => {
    const schedule = new RequestSchedule<string, string>({ inFlightMax: 10, inFlightBytesMax: 1e9 });
    const first = schedule.arrive('produce-1', false, 1);
    const second = schedule.arrive('produce-acks-0', false, 1);
    const third = schedule.arrive('produce-3', false, 1);
    expect(schedule.takeStartable(0)).toEqual([first, second, third]);
    expect(schedule.finish(third, 'answer-3')).toEqual([]);
    expect(schedule.finish(second, null)).toEqual([]);
    expect(schedule.finish(first, 'answer-1')).toEqual(['answer-1', 'answer-3']);
    expect(schedule.held).toBe(0);
  });

  it('starts nothing while muted, then everything that waited', () => {
    const schedule = new RequestSchedule<string, string>({ inFlightMax: 10, inFlightBytesMax: 1e9 });
    schedule.mute(100);
    const waiting = schedule.arrive('fetch', false, 1);
    expect(schedule.takeStartable(99)).toEqual([]);
    expect(schedule.takeStartable(100)).toEqual([waiting]);
  });

  it('is full at the request bound, and at the byte bound once it holds more than one request', () => {
    const schedule = new RequestSchedule<string, string>({ inFlightMax: 3, inFlightBytesMax: 100 });
    schedule.arrive('huge', false, 500);
    expect(schedule.full).toBe(false); // one request of any size (up to the frame bound) is always taken
    const second = schedule.arrive('small', false, 1);
    expect(schedule.full).toBe(true);
    const [first] = schedule.takeStartable(0);
    schedule.finish(first, 'a');
    expect(schedule.full).toBe(false);
    schedule.arrive('x', false, 1);
    schedule.arrive('y', false, 1);
    expect(schedule.full).toBe(true);
    schedule.finish(second, 'b');
    expect(schedule.full).toBe(false);
  });
});
