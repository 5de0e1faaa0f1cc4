import { describe, expect, it } from 'vitest';
import {
  formatLagTable,
  formatResetTable,
  parseDatetime,
  parseResetTopics,
  resetRequest,
} from './consumer-group-plan.js';
import { UsageError } from './errors.js';

describe('parseResetTopics', () => {
  it('reads topic and topic:partitions', () => {
    expect(parseResetTopics(['test', 'orders:0,2'])).toEqual([
      { topic_name: 'test' },
      { topic_name: 'orders', partitions: [0, 2] },
    ]);
  });

  it.each(['t:', 't:a', ':1', 't:1,,2'])('rejects %j', (value) => {
    expect(() => parseResetTopics([value])).toThrow(UsageError);
  });
});

describe('parseDatetime', () => {
  it('reads ISO-8601 with a zone, and without one as local time like Kafka', () => {
    expect(parseDatetime('2026-11-29T12:00:00.000Z')).toBe(Date.UTC(2026, 10, 29, 12));
    expect(parseDatetime('2026-11-29T12:00:00+01:00')).toBe(Date.UTC(2026, 10, 29, 11));
    expect(parseDatetime('2026-11-29T12:00')).toBe(new Date(2026, 10, 29, 12).getTime());
  });

  it.each(['yesterday', '2026-11-29', '1764417600000', '2026-13-40T99:00:00'])('rejects %j', (value) => {
    expect(() => parseDatetime(value)).toThrow(UsageError);
  });
});

describe('resetRequest', () => {
  it('builds the body for each target', () => {
    expect(resetRequest({ topic: ['test'], toEarliest: true, execute: true })).toEqual({
      request: { to: 'earliest', topics: [{ topic_name: 'test' }], dry_run: false },
      dryRunByDefault: false,
    });
    expect(resetRequest({ allTopics: true, toOffset: 5, dryRun: true }).request).toEqual({
      to: 'offset',
      offset: 5,
      dry_run: true,
    });
    expect(resetRequest({ allTopics: true, toLatest: true, execute: true }).request.to).toBe('latest');
    expect(resetRequest({ allTopics: true, toDatetime: '2026-11-29T12:00:00Z', execute: true }).request).toEqual({
      to: 'timestamp',
      timestamp: Date.UTC(2026, 10, 29, 12),
      dry_run: false,
    });
  });

  it('is a dry run when neither --dry-run nor --execute is given, and says so', () => {
    expect(resetRequest({ allTopics: true, toEarliest: true })).toEqual({
      request: { to: 'earliest', dry_run: true },
      dryRunByDefault: true,
    });
  });

  it.each([
    [{ allTopics: true }, /exactly one of --to-earliest/],
    [{ allTopics: true, toEarliest: true, toLatest: true }, /exactly one of --to-earliest/],
    [{ toEarliest: true }, /--topic <topic\[:partitions\]> or --all-topics/],
    [{ topic: ['t'], allTopics: true, toEarliest: true }, /--topic <topic\[:partitions\]> or --all-topics/],
    [{ allTopics: true, toEarliest: true, dryRun: true, execute: true }, /--dry-run or --execute, not both/],
  ])('rejects %j', (flags, message) => {
    expect(() => resetRequest(flags)).toThrow(message);
  });
});

describe('tables', () => {
  it('prints lag per partition as kafka-consumer-groups --describe does, sorted', () => {
    const row = {
      consumer_group_id: 'g',
      topic_name: 'test',
      current_offset: 1,
      log_end_offset: 2,
      lag: 1,
      consumer_id: '',
      instance_id: null,
      client_id: '',
    };
    expect(
      formatLagTable([
        { ...row, partition_id: 1 },
        { ...row, partition_id: 0, consumer_id: 'c-1', client_id: 'x' },
      ]),
    ).toBe(`GROUP  TOPIC  PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  CLIENT-ID
g      test   0          1               2               1    c-1          x
g      test   1          1               2               1    -            -
`);
  });

  it('prints the reset plan', () => {
    expect(formatResetTable('g', [{ topic_name: 'test', partition_id: 0, current_offset: 2, new_offset: 0 }])).toBe(
      'GROUP  TOPIC  PARTITION  CURRENT-OFFSET  NEW-OFFSET\ng      test   0          2               0\n',
    );
  });
});
