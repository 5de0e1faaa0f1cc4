import { describe, expect, it } from 'vitest';
import { JAVA_LONG_MAX, TOPIC_CONFIGS } from './topic-config-table.js';
import {
  brokerDefaultsFromEnv,
  describeTopicConfigs,
  resolveTopicConfig,
  validateTopicConfigs,
} from './topic-config.js';

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
