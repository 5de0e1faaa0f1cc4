import { describe, expect, it } from 'vitest';
import { ratePerSecond, sumOfMetric } from './prometheus-text';

const TEXT = [
  '# HELP brook_topic_messages_in_total Records appended',
  '# TYPE brook_topic_messages_in_total counter',
  'brook_topic_messages_in_total{topic="a"} 5',
  'brook_topic_messages_in_total{topic="b"} 7',
  'brook_topic_messages_in_totally_other 100',
  'brook_sse_streams 2',
].join('\n');

describe('prometheus text', () => {
  it('sums every series of one metric and nothing of a longer name', () => {
    expect(sumOfMetric(TEXT, 'brook_topic_messages_in_total')).toBe(12);
    expect(sumOfMetric(TEXT, 'brook_sse_streams')).toBe(2);
    expect(sumOfMetric(TEXT, 'brook_missing')).toBeNull();
  });

  it('turns two samples into a rate, none across a reset', () => {
    expect(ratePerSecond({ atMs: 0, value: 10 }, { atMs: 2000, value: 30 })).toBe(10);
    expect(ratePerSecond({ atMs: 0, value: 10 }, { atMs: 2000, value: 3 })).toBeNull();
    expect(ratePerSecond({ atMs: 0, value: 10 }, { atMs: 0, value: 30 })).toBeNull();
  });
});
