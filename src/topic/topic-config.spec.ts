import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  brokerDefaultsFromEnv,
  describeTopicConfigs,
  JAVA_LONG_MAX,
  parseTopicConfigValue,
  resolveTopicConfig,
  TOPIC_CONFIGS,
  topicConfigDefinition,
  validateTopicConfigs,
} from './topic-config.js';

describe('TOPIC_CONFIGS table', () => {
  it('has Kafka defaults', () => {
    const defaults = Object.fromEntries(TOPIC_CONFIGS.map((d) => [d.name, d.default]));
    expect(defaults).toEqual({
      'cleanup.policy': 'delete',
      'delete.retention.ms': '86400000',
      'file.delete.delay.ms': '60000',
      'flush.messages': JAVA_LONG_MAX,
      'flush.ms': JAVA_LONG_MAX,
      'index.interval.bytes': '4096',
      'max.compaction.lag.ms': JAVA_LONG_MAX,
      'max.message.bytes': '1048588',
      'message.timestamp.type': 'CreateTime',
      'min.cleanable.dirty.ratio': '0.5',
      'min.compaction.lag.ms': '0',
      'min.insync.replicas': '1',
      preallocate: 'false',
      'retention.bytes': '-1',
      'retention.ms': '604800000',
      'segment.bytes': '1073741824',
      'segment.index.bytes': '10485760',
      'segment.ms': '604800000',
      'unclean.leader.election.enable': 'false',
    });
  });

  it("maps each config to Kafka's broker config name and a BROOK_ variable", () => {
    const primary = Object.fromEntries(TOPIC_CONFIGS.map((d) => [d.name, d.brokerSynonyms[0]!.name]));
    expect(primary).toEqual({
      'cleanup.policy': 'log.cleanup.policy',
      'delete.retention.ms': 'log.cleaner.delete.retention.ms',
      'file.delete.delay.ms': 'log.segment.delete.delay.ms',
      'flush.messages': 'log.flush.interval.messages',
      'flush.ms': 'log.flush.interval.ms',
      'index.interval.bytes': 'log.index.interval.bytes',
      'max.compaction.lag.ms': 'log.cleaner.max.compaction.lag.ms',
      'max.message.bytes': 'message.max.bytes',
      'message.timestamp.type': 'log.message.timestamp.type',
      'min.cleanable.dirty.ratio': 'log.cleaner.min.cleanable.ratio',
      'min.compaction.lag.ms': 'log.cleaner.min.compaction.lag.ms',
      'min.insync.replicas': 'min.insync.replicas',
      preallocate: 'log.preallocate',
      'retention.bytes': 'log.retention.bytes',
      'retention.ms': 'log.retention.ms',
      'segment.bytes': 'log.segment.bytes',
      'segment.index.bytes': 'log.index.size.max.bytes',
      'segment.ms': 'log.roll.ms',
      'unclean.leader.election.enable': 'unclean.leader.election.enable',
    });
    expect(topicConfigDefinition('retention.ms')!.brokerSynonyms.map((s) => s.env)).toEqual([
      'BROOK_LOG_RETENTION_MS',
      'BROOK_LOG_RETENTION_MINUTES',
      'BROOK_LOG_RETENTION_HOURS',
    ]);
    expect(topicConfigDefinition('max.message.bytes')!.brokerSynonyms[0]!.env).toBe('BROOK_MESSAGE_MAX_BYTES');
  });

  it('has every default valid by its own rule, and a doc line', () => {
    for (const def of TOPIC_CONFIGS) {
      expect(parseTopicConfigValue(def.name, def.default)).toMatchObject({ ok: true, normalized: def.default });
      expect(def.doc.length).toBeGreaterThan(10);
    }
  });

  it('is sorted by name', () => {
    const names = TOPIC_CONFIGS.map((d) => d.name);
    expect(names).toEqual([...names].sort());
  });
});

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

describe('validateTopicConfigs', () => {
  it('returns normalized overrides', () => {
    expect(
      validateTopicConfigs([
        { name: 'retention.ms', value: ' 1000' },
        { name: 'cleanup.policy', value: 'compact , delete' },
      ]),
    ).toEqual({ ok: true, configs: { 'retention.ms': '1000', 'cleanup.policy': 'compact,delete' } });
    expect(validateTopicConfigs([])).toEqual({ ok: true, configs: {} });
  });

  it('returns the first error', () => {
    expect(
      validateTopicConfigs([
        { name: 'retention.ms', value: '1000' },
        { name: 'nope', value: '1' },
        { name: 'segment.bytes', value: 'x' },
      ]),
    ).toEqual({ ok: false, message: 'Unknown topic config name: nope' });
    expect(validateTopicConfigs([{ name: 'segment.bytes', value: 'x' }])).toEqual({
      ok: false,
      message: 'Invalid value x for configuration segment.bytes: Not a number of type INT',
    });
  });

  it('rejects null values and duplicates', () => {
    expect(
      validateTopicConfigs([
        { name: 'retention.ms', value: null },
        { name: 'segment.ms', value: null },
      ]),
    ).toEqual({ ok: false, message: 'Null value not supported for topic configs: retention.ms,segment.ms' });
    expect(
      validateTopicConfigs([
        { name: 'retention.ms', value: '1' },
        { name: 'retention.ms', value: '2' },
      ]),
    ).toEqual({ ok: false, message: 'Duplicate topic config name: retention.ms' });
  });

  it('rejects min.compaction.lag.ms above max.compaction.lag.ms, with broker defaults merged', () => {
    expect(
      validateTopicConfigs([
        { name: 'min.compaction.lag.ms', value: '10' },
        { name: 'max.compaction.lag.ms', value: '5' },
      ]),
    ).toEqual({
      ok: false,
      message: 'conflict topic config setting min.compaction.lag.ms (10) > max.compaction.lag.ms (5)',
    });
    expect(
      validateTopicConfigs([{ name: 'min.compaction.lag.ms', value: '10' }], {
        'log.cleaner.max.compaction.lag.ms': '9',
      }),
    ).toMatchObject({ ok: false });
    expect(validateTopicConfigs([{ name: 'min.compaction.lag.ms', value: '10' }])).toMatchObject({ ok: true });
  });
});

describe('resolveTopicConfig', () => {
  it("gives Kafka's defaults with nothing set", () => {
    expect(resolveTopicConfig({}, {})).toEqual({
      cleanupPolicyCompact: false,
      cleanupPolicyDelete: true,
      deleteRetentionMs: 86400000,
      fileDeleteDelayMs: 60000,
      flushMessages: Number.MAX_SAFE_INTEGER,
      flushMs: Number.MAX_SAFE_INTEGER,
      indexIntervalBytes: 4096,
      maxCompactionLagMs: Number.MAX_SAFE_INTEGER,
      maxMessageBytes: 1048588,
      messageTimestampType: 'CreateTime',
      minCleanableDirtyRatio: 0.5,
      minCompactionLagMs: 0,
      minInsyncReplicas: 1,
      preallocate: false,
      retentionBytes: -1,
      retentionMs: 604800000,
      segmentBytes: 1073741824,
      segmentIndexBytes: 10485760,
      segmentMs: 604800000,
      uncleanLeaderElectionEnable: false,
    });
  });

  it('prefers the topic override, then the broker synonyms in order, then the default', () => {
    expect(resolveTopicConfig({ 'retention.ms': '1000' }, { 'log.retention.ms': '2000' }).retentionMs).toBe(1000);
    expect(resolveTopicConfig({}, { 'log.retention.ms': '2000', 'log.retention.hours': '1' }).retentionMs).toBe(2000);
    expect(resolveTopicConfig({}, { 'log.retention.minutes': '2', 'log.retention.hours': '1' }).retentionMs).toBe(
      120000,
    );
    expect(resolveTopicConfig({}, { 'log.retention.hours': '1' }).retentionMs).toBe(3600000);
    expect(resolveTopicConfig({}, { 'log.retention.hours': '-1' }).retentionMs).toBe(-1);
    expect(resolveTopicConfig({}, { 'log.roll.hours': '2' }).segmentMs).toBe(7200000);
    expect(resolveTopicConfig({}, { 'log.flush.scheduler.interval.ms': '500' }).flushMs).toBe(500);
    expect(resolveTopicConfig({}, { 'message.max.bytes': '2000000' }).maxMessageBytes).toBe(2000000);
  });

  it('maps every field', () => {
    const r = resolveTopicConfig(
      {
        'cleanup.policy': 'compact',
        'delete.retention.ms': '1',
        'file.delete.delay.ms': '2',
        'flush.messages': '3',
        'flush.ms': '4',
        'index.interval.bytes': '5',
        'max.compaction.lag.ms': '600',
        'max.message.bytes': '7',
        'message.timestamp.type': 'LogAppendTime',
        'min.cleanable.dirty.ratio': '0.75',
        'min.compaction.lag.ms': '8',
        'min.insync.replicas': '2',
        preallocate: 'true',
        'retention.bytes': '9',
        'retention.ms': '10',
        'segment.bytes': '1024',
        'segment.index.bytes': '4096',
        'segment.ms': '11',
        'unclean.leader.election.enable': 'true',
      },
      {},
    );
    expect(r).toEqual({
      cleanupPolicyCompact: true,
      cleanupPolicyDelete: false,
      deleteRetentionMs: 1,
      fileDeleteDelayMs: 2,
      flushMessages: 3,
      flushMs: 4,
      indexIntervalBytes: 5,
      maxCompactionLagMs: 600,
      maxMessageBytes: 7,
      messageTimestampType: 'LogAppendTime',
      minCleanableDirtyRatio: 0.75,
      minCompactionLagMs: 8,
      minInsyncReplicas: 2,
      preallocate: true,
      retentionBytes: 9,
      retentionMs: 10,
      segmentBytes: 1024,
      segmentIndexBytes: 4096,
      segmentMs: 11,
      uncleanLeaderElectionEnable: true,
    });
  });

  it('handles both and no cleanup policies', () => {
    const both = resolveTopicConfig({ 'cleanup.policy': 'delete,compact' }, {});
    expect([both.cleanupPolicyCompact, both.cleanupPolicyDelete]).toEqual([true, true]);
    const none = resolveTopicConfig({ 'cleanup.policy': '' }, {});
    expect([none.cleanupPolicyCompact, none.cleanupPolicyDelete]).toEqual([false, false]);
  });

  it('ignores broker configs that are not topic synonyms, and throws on bad input', () => {
    expect(resolveTopicConfig({}, { 'log.retention.check.interval.ms': '1' }).retentionMs).toBe(604800000);
    expect(() => resolveTopicConfig({ nope: '1' }, {})).toThrow('Unknown topic config name: nope');
    expect(() => resolveTopicConfig({ 'retention.ms': 'x' }, {})).toThrow(
      'Invalid value x for configuration retention.ms: Not a number of type LONG',
    );
    expect(() => resolveTopicConfig({}, { 'log.segment.bytes': '1' })).toThrow(/log\.segment\.bytes/);
  });
});

describe('describeTopicConfigs', () => {
  it('lists every config with Kafka sources and synonyms', () => {
    const list = describeTopicConfigs({ 'cleanup.policy': 'compact' }, { 'log.retention.ms': '1000' });
    expect(list.map((c) => c.name)).toEqual(TOPIC_CONFIGS.map((d) => d.name));
    const byName = Object.fromEntries(list.map((c) => [c.name, c]));
    expect(byName['cleanup.policy']).toEqual({
      name: 'cleanup.policy',
      value: 'compact',
      isDefault: false,
      isReadOnly: false,
      isSensitive: false,
      source: 'DYNAMIC_TOPIC_CONFIG',
      synonyms: [
        { name: 'cleanup.policy', value: 'compact', source: 'DYNAMIC_TOPIC_CONFIG' },
        { name: 'log.cleanup.policy', value: 'delete', source: 'DEFAULT_CONFIG' },
      ],
    });
    expect(byName['retention.ms']).toEqual({
      name: 'retention.ms',
      value: '1000',
      isDefault: false,
      isReadOnly: false,
      isSensitive: false,
      source: 'STATIC_BROKER_CONFIG',
      synonyms: [
        { name: 'log.retention.ms', value: '1000', source: 'STATIC_BROKER_CONFIG' },
        { name: 'log.retention.hours', value: '168', source: 'DEFAULT_CONFIG' },
      ],
    });
    expect(byName['flush.messages']).toEqual({
      name: 'flush.messages',
      value: JAVA_LONG_MAX,
      isDefault: true,
      isReadOnly: false,
      isSensitive: false,
      source: 'DEFAULT_CONFIG',
      synonyms: [{ name: 'log.flush.interval.messages', value: JAVA_LONG_MAX, source: 'DEFAULT_CONFIG' }],
    });
  });

  it('shows a broker value in its own unit among synonyms and converted as the value', () => {
    const [segmentMs] = describeTopicConfigs({}, { 'log.roll.hours': '1' }).filter((c) => c.name === 'segment.ms');
    expect(segmentMs).toMatchObject({
      value: '3600000',
      source: 'STATIC_BROKER_CONFIG',
      isDefault: false,
      synonyms: [
        { name: 'log.roll.hours', value: '1', source: 'STATIC_BROKER_CONFIG' },
        { name: 'log.roll.hours', value: '168', source: 'DEFAULT_CONFIG' },
      ],
    });
  });

  it('is consistent with resolveTopicConfig', () => {
    const overrides = { 'segment.bytes': '1048576', preallocate: 'true' };
    const brokerDefaults = { 'log.retention.bytes': '5000' };
    const resolved = resolveTopicConfig(overrides, brokerDefaults);
    const described = Object.fromEntries(describeTopicConfigs(overrides, brokerDefaults).map((c) => [c.name, c.value]));
    expect(described['segment.bytes']).toBe(String(resolved.segmentBytes));
    expect(described['retention.bytes']).toBe(String(resolved.retentionBytes));
    expect(described['preallocate']).toBe(String(resolved.preallocate));
  });
});

describe('brokerDefaultsFromEnv', () => {
  it('reads BROOK_ upper snake case variables and normalizes them', () => {
    expect(
      brokerDefaultsFromEnv({
        BROOK_LOG_RETENTION_MS: ' 3600000 ',
        BROOK_LOG_SEGMENT_BYTES: '1048576',
        BROOK_MESSAGE_MAX_BYTES: '2097152',
        BROOK_LOG_CLEANUP_POLICY: 'compact, delete',
        BROOK_MIN_INSYNC_REPLICAS: '2',
        BROOK_LOG_MESSAGE_TIMESTAMP_TYPE: 'LogAppendTime',
        BROOK_LOG_CLEANER_DELETE_RETENTION_MS: '1000',
        BROOK_LOG_CLEANER_MIN_COMPACTION_LAG_MS: '0',
        BROOK_LOG_CLEANER_MIN_CLEANABLE_RATIO: '0.1',
        BROOK_UNCLEAN_LEADER_ELECTION_ENABLE: 'TRUE',
        BROOK_LOG_FLUSH_INTERVAL_MESSAGES: '1',
        BROOK_LOG_FLUSH_INTERVAL_MS: '1000',
        BROOK_LOG_ROLL_MS: '60000',
        BROOK_LOG_RETENTION_BYTES: '-1',
        BROOK_LOG_INDEX_INTERVAL_BYTES: '100',
        BROOK_LOG_INDEX_SIZE_MAX_BYTES: '4096',
        BROOK_PORT: '8082',
        BROOK_LOG_RETENTION_HOURS: '',
        PATH: '/usr/bin',
      }),
    ).toEqual({
      'log.retention.ms': '3600000',
      'log.segment.bytes': '1048576',
      'message.max.bytes': '2097152',
      'log.cleanup.policy': 'compact,delete',
      'min.insync.replicas': '2',
      'log.message.timestamp.type': 'LogAppendTime',
      'log.cleaner.delete.retention.ms': '1000',
      'log.cleaner.min.compaction.lag.ms': '0',
      'log.cleaner.min.cleanable.ratio': '0.1',
      'unclean.leader.election.enable': 'true',
      'log.flush.interval.messages': '1',
      'log.flush.interval.ms': '1000',
      'log.roll.ms': '60000',
      'log.retention.bytes': '-1',
      'log.index.interval.bytes': '100',
      'log.index.size.max.bytes': '4096',
    });
    expect(brokerDefaultsFromEnv({})).toEqual({});
  });

  it('feeds resolveTopicConfig', () => {
    const defaults = brokerDefaultsFromEnv({ BROOK_LOG_RETENTION_HOURS: '24', BROOK_LOG_SEGMENT_BYTES: '1048576' });
    const r = resolveTopicConfig({}, defaults);
    expect(r.retentionMs).toBe(86400000);
    expect(r.segmentBytes).toBe(1048576);
  });

  it('throws an error naming the variable on a bad value', () => {
    expect(() => brokerDefaultsFromEnv({ BROOK_LOG_RETENTION_MS: 'abc' })).toThrow(
      'Invalid environment variable BROOK_LOG_RETENTION_MS (log.retention.ms): Invalid value abc for configuration log.retention.ms: Not a number of type LONG',
    );
    expect(() => brokerDefaultsFromEnv({ BROOK_LOG_SEGMENT_BYTES: '10' })).toThrow(
      /BROOK_LOG_SEGMENT_BYTES.*at least 14/,
    );
    expect(() => brokerDefaultsFromEnv({ BROOK_LOG_ROLL_HOURS: '0' })).toThrow(/BROOK_LOG_ROLL_HOURS/);
    expect(() => brokerDefaultsFromEnv({ BROOK_LOG_RETENTION_HOURS: '1.5' })).toThrow(/BROOK_LOG_RETENTION_HOURS/);
    expect(() => brokerDefaultsFromEnv({ BROOK_LOG_CLEANUP_POLICY: 'keep' })).toThrow(/BROOK_LOG_CLEANUP_POLICY/);
    expect(() =>
      brokerDefaultsFromEnv({
        BROOK_LOG_CLEANER_MIN_COMPACTION_LAG_MS: '10',
        BROOK_LOG_CLEANER_MAX_COMPACTION_LAG_MS: '5',
      }),
    ).toThrow(/min\.compaction\.lag\.ms \(10\) > max\.compaction\.lag\.ms \(5\)/);
  });
});
