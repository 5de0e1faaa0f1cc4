import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JAVA_LONG_MAX, TOPIC_CONFIGS } from './topic-config-table.js';
import { parseTopicConfigValue } from './topic-config-values.js';

describe('parseTopicConfigValue', () => {
  const ok = (name: string, raw: string) => parseTopicConfigValue(name, raw);

  it('rejects unknown names', () => {
    expect(ok('retention.mss', '1')).toEqual({ ok: false, message: 'Unknown topic config name: retention.mss' });
    expect(ok('__proto__', '1')).toEqual({ ok: false, message: 'Unknown topic config name: __proto__' });
    expect(ok('toString', '1')).toEqual({ ok: false, message: 'Unknown topic config name: toString' });
  });

  it('parses longs like Java, trimming blanks', () => {
    expect(ok('retention.ms', ' 1000 ')).toEqual({ ok: true, value: 1000, normalized: '1000' });
    expect(ok('retention.ms', '+5')).toEqual({ ok: true, value: 5, normalized: '5' });
    expect(ok('retention.ms', '-1')).toEqual({ ok: true, value: -1, normalized: '-1' });
    expect(ok('retention.bytes', '-9223372036854775808')).toEqual({
      ok: true,
      value: Number.MIN_SAFE_INTEGER,
      normalized: '-9223372036854775808',
    });
  });

  it("words errors as Kafka's ConfigException", () => {
    expect(ok('retention.ms', 'abc')).toEqual({
      ok: false,
      message: 'Invalid value abc for configuration retention.ms: Not a number of type LONG',
    });
    expect(ok('retention.ms', '-2')).toEqual({
      ok: false,
      message: 'Invalid value -2 for configuration retention.ms: Value must be at least -1',
    });
    expect(ok('segment.bytes', '13')).toEqual({
      ok: false,
      message: 'Invalid value 13 for configuration segment.bytes: Value must be at least 14',
    });
    expect(ok('min.insync.replicas', 'two')).toEqual({
      ok: false,
      message: 'Invalid value two for configuration min.insync.replicas: Not a number of type INT',
    });
    expect(ok('min.cleanable.dirty.ratio', '1.5')).toEqual({
      ok: false,
      message: 'Invalid value 1.5 for configuration min.cleanable.dirty.ratio: Value must be no more than 1',
    });
    expect(ok('preallocate', 'yes')).toEqual({
      ok: false,
      message: 'Invalid value yes for configuration preallocate: Expected value to be either true or false',
    });
    expect(ok('message.timestamp.type', 'createtime')).toEqual({
      ok: false,
      message:
        'Invalid value createtime for configuration message.timestamp.type: String must be one of: CreateTime, LogAppendTime',
    });
    expect(ok('cleanup.policy', 'delete,purge')).toEqual({
      ok: false,
      message: 'Invalid value delete,purge for configuration cleanup.policy: String must be one of: compact, delete',
    });
  });

  it("rejects numbers outside Java's int and long ranges and non-decimal forms", () => {
    expect(ok('segment.bytes', '2147483647')).toMatchObject({ ok: true, value: 2147483647 });
    expect(ok('segment.bytes', '2147483648')).toMatchObject({ ok: false });
    expect(ok('retention.ms', JAVA_LONG_MAX)).toMatchObject({ ok: true, value: Number.MAX_SAFE_INTEGER });
    expect(ok('retention.ms', '9223372036854775808')).toMatchObject({ ok: false });
    for (const bad of ['', ' ', '1.0', '1e3', '0x10', '1_000', '١٢', 'NaN', 'Infinity', '--1', '1 000']) {
      expect(ok('retention.ms', bad)).toMatchObject({ ok: false });
    }
  });

  it('clamps longs beyond safe integers, keeping the exact string', () => {
    expect(ok('flush.messages', JAVA_LONG_MAX)).toEqual({
      ok: true,
      value: Number.MAX_SAFE_INTEGER,
      normalized: JAVA_LONG_MAX,
    });
    expect(ok('flush.ms', '9007199254740993')).toEqual({
      ok: true,
      value: Number.MAX_SAFE_INTEGER,
      normalized: '9007199254740993',
    });
  });

  it('parses doubles and prints them as Java does', () => {
    expect(ok('min.cleanable.dirty.ratio', '0.25')).toEqual({ ok: true, value: 0.25, normalized: '0.25' });
    expect(ok('min.cleanable.dirty.ratio', '1')).toEqual({ ok: true, value: 1, normalized: '1.0' });
    expect(ok('min.cleanable.dirty.ratio', '0')).toEqual({ ok: true, value: 0, normalized: '0.0' });
    expect(ok('min.cleanable.dirty.ratio', '.5')).toEqual({ ok: true, value: 0.5, normalized: '0.5' });
    expect(ok('min.cleanable.dirty.ratio', '1e-4')).toEqual({ ok: true, value: 0.0001, normalized: '1.0E-4' });
    for (const bad of ['NaN', 'Infinity', '-0.1', 'half', '', '1e400']) {
      expect(ok('min.cleanable.dirty.ratio', bad)).toMatchObject({ ok: false });
    }
  });

  it('parses booleans in any case', () => {
    expect(ok('preallocate', 'TRUE')).toEqual({ ok: true, value: true, normalized: 'true' });
    expect(ok('unclean.leader.election.enable', ' False ')).toEqual({ ok: true, value: false, normalized: 'false' });
  });

  it('parses lists', () => {
    expect(ok('cleanup.policy', 'compact, delete')).toEqual({
      ok: true,
      value: ['compact', 'delete'],
      normalized: 'compact,delete',
    });
    expect(ok('cleanup.policy', '')).toEqual({ ok: true, value: [], normalized: '' });
    expect(ok('cleanup.policy', 'compact,,delete')).toMatchObject({ ok: false });
    expect(ok('cleanup.policy', 'Compact')).toMatchObject({ ok: false });
  });

  it('checks every range bound of the table', () => {
    const bounds: Array<[string, string, string]> = [
      ['segment.ms', '0', '1'],
      ['segment.index.bytes', '3', '4'],
      ['index.interval.bytes', '-1', '0'],
      ['max.message.bytes', '-1', '0'],
      ['min.insync.replicas', '0', '1'],
      ['delete.retention.ms', '-1', '0'],
      ['min.compaction.lag.ms', '-1', '0'],
      ['max.compaction.lag.ms', '0', '1'],
      ['flush.messages', '0', '1'],
      ['flush.ms', '-1', '0'],
      ['file.delete.delay.ms', '-1', '0'],
      ['retention.ms', '-2', '-1'],
      ['segment.bytes', '13', '14'],
    ];
    for (const [name, bad, good] of bounds) {
      expect(ok(name, bad), `${name}=${bad}`).toMatchObject({ ok: false });
      expect(ok(name, good), `${name}=${good}`).toMatchObject({ ok: true });
    }
    expect(ok('retention.bytes', '-123')).toMatchObject({ ok: true, value: -123 });
  });

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TOPIC_CONFIGS.map((d) => d.name)), fc.string(), (name, raw) => {
        const r = parseTopicConfigValue(name, raw);
        if (!r.ok) expect(r.message).toContain(`for configuration ${name}`);
        else expect(parseTopicConfigValue(name, r.normalized)).toEqual(r);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads "-0" as 0 for a double (a random run of the property above once found this)', () => {
    const parsed = parseTopicConfigValue('min.cleanable.dirty.ratio', '-0');
    expect(parsed).toEqual({ ok: true, value: 0, normalized: '0.0' });
    expect(Object.is((parsed as { value: number }).value, 0)).toBe(true);
  });

  it('rejects a non-string value', () => {
    expect(parseTopicConfigValue('retention.ms', 5 as unknown as string)).toMatchObject({ ok: false });
  });
});
