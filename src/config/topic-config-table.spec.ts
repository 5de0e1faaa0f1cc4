import { describe, expect, it } from 'vitest';
import { JAVA_LONG_MAX, TOPIC_CONFIGS, topicConfigDefinition } from './topic-config-table.js';
import { parseTopicConfigValue } from './topic-config-values.js';

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
