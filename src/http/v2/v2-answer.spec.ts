// The v2 answer's memory is reused once its response is written: an answer taken from AnswerBuffers is the same
// bytes as a freshly allocated one, no two answers in use share memory, and given-back memory is what the next
// answer is written in.
import { describe, expect, it } from 'vitest';
import { AnswerBuffers, consecutiveOffsetsAnswer } from './v2-answer.js';

const naive = (partition: number, first: number, count: number) =>
  JSON.stringify({
    offsets: Array.from({ length: count }, (_, k) => ({
      partition,
      offset: first < 0 ? first : first + k,
      error_code: null,
      error: null,
    })),
    key_schema_id: null,
    value_schema_id: null,
  });

describe('consecutiveOffsetsAnswer', () => {
  it('counts every digit column up, across carries and digit-count changes', () => {
    const firsts = [0, 1, 8, 9, 10, 89, 99, 990, 999, 1000, 9_990, 99_999, 123_456, 99_999_990, 2 ** 53 - 3000];
    for (const first of firsts) {
      for (const count of [1, 2, 9, 10, 11, 99, 100, 101, 1000, 1001, 2500]) {
        expect(consecutiveOffsetsAnswer(7, first, count).toString('latin1'), `${first} ${count}`).toBe(
          naive(7, first, count),
        );
      }
    }
  });
});

describe('AnswerBuffers', () => {
  it('gives buffers of the size asked, never the same memory to two answers in use', () => {
    const buffers = new AnswerBuffers();
    const a = buffers.take(66_000);
    const b = buffers.take(66_000);
    expect(a.length).toBe(66_000);
    expect(b.buffer).not.toBe(a.buffer);
    buffers.release(a);
    buffers.release(a); // twice: kept once
    expect(buffers.size).toBe(1);
    const c = buffers.take(60_000);
    expect(c.buffer).toBe(a.buffer);
    expect(c.length).toBe(60_000);
    expect(buffers.take(60_000).buffer).not.toBe(a.buffer);
  });

  it('keeps no more than it was told to, and no large buffers', () => {
    const buffers = new AnswerBuffers(2);
    const taken = [1, 2, 3].map(() => buffers.take(1000));
    for (const buffer of taken) buffers.release(buffer);
    expect(buffers.size).toBe(2);
    buffers.release(buffers.take(2 * 1024 * 1024));
    expect(buffers.size).toBe(1); // one taken and not given back: the large one was not kept
    // memory smaller than asked is not used
    const small = new AnswerBuffers();
    small.release(small.take(100));
    expect(small.take(100_000).length).toBe(100_000);
  });

  it('answers in reused memory with the same bytes as in new memory', () => {
    const buffers = new AnswerBuffers();
    for (const [first, count] of [
      [0, 1000],
      [99_500, 1000],
      [-1, 1000],
      [7, 3],
      [123_456_789, 2500],
    ]) {
      const answer = consecutiveOffsetsAnswer(3, first, count, buffers);
      expect(answer.equals(consecutiveOffsetsAnswer(3, first, count))).toBe(true);
      const parsed = JSON.parse(answer.toString('latin1')) as { offsets: Array<{ offset: number }> };
      expect(parsed.offsets).toHaveLength(count);
      expect(parsed.offsets[count - 1].offset).toBe(first < 0 ? -1 : first + count - 1);
      buffers.release(answer);
    }
  });
});
