import { describe, expect, it } from 'vitest';
import { loadBrokerConfig } from './broker-config.js';
import { BROKER_CONFIGS, brokerConfigDefinition } from './broker-config-table.js';
import {
  applyBrokerConfigChanges,
  checkTopicDefaults,
  describeBrokerConfigs,
  describeClusterDefaults,
  effectiveBrokerSettings,
  startLayer,
} from './broker-configs.js';
import { describeTopicConfigs, resolveTopicConfig } from './topic-config.js';

const config = loadBrokerConfig({
  BROOK_DATA_DIR: '/tmp/brook-test',
  BROOK_NUM_PARTITIONS: '2',
  BROOK_LOG_RETENTION_HOURS: '10',
});

describe('broker config table', () => {
  it('is sorted by name, names each config once, and reads only run-time settings as dynamic', () => {
    const names = BROKER_CONFIGS.map((definition) => definition.name);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
    expect(brokerConfigDefinition('num.partitions')?.dynamic).toBe(true);
    expect(brokerConfigDefinition('log.retention.ms')?.dynamic).toBe(true);
    expect(brokerConfigDefinition('message.max.bytes')?.dynamic).toBe(true);
    expect(brokerConfigDefinition('broker.id')?.dynamic).toBe(false);
    // also the flush scheduler's interval, read once at start-up
    expect(brokerConfigDefinition('log.flush.scheduler.interval.ms')?.dynamic).toBe(false);
  });
});

describe('describeBrokerConfigs', () => {
  const start = startLayer(config);

  it('gives each config the source of its value: environment, then default', () => {
    const described = describeBrokerConfigs(start, {}, {});
    const byName = new Map(described.map((entry) => [entry.name, entry]));
    expect(byName.get('num.partitions')).toMatchObject({
      value: '2',
      source: 'STATIC_BROKER_CONFIG',
      isDefault: false,
      isReadOnly: false,
      synonyms: [
        { name: 'num.partitions', value: '2', source: 'STATIC_BROKER_CONFIG' },
        { name: 'num.partitions', value: '1', source: 'DEFAULT_CONFIG' },
      ],
    });
    expect(byName.get('default.replication.factor')).toMatchObject({
      value: '1',
      source: 'DEFAULT_CONFIG',
      isDefault: true,
    });
    expect(byName.get('broker.id')).toMatchObject({ value: '0', isReadOnly: true });
    expect(byName.get('log.retention.ms')).toMatchObject({ value: null, source: 'DEFAULT_CONFIG' });
    expect(byName.get('log.retention.hours')).toMatchObject({ value: '10', source: 'STATIC_BROKER_CONFIG' });
    expect(described.every((entry) => !entry.isSensitive)).toBe(true);
  });

  it("puts the broker's dynamic value above the cluster-wide one, and both above the environment", () => {
    const described = describeBrokerConfigs(start, { 'num.partitions': '3' }, { 'num.partitions': '4' });
    expect(described.find((entry) => entry.name === 'num.partitions')).toMatchObject({
      value: '4',
      source: 'DYNAMIC_BROKER_CONFIG',
      synonyms: [
        { value: '4', source: 'DYNAMIC_BROKER_CONFIG' },
        { value: '3', source: 'DYNAMIC_DEFAULT_BROKER_CONFIG' },
        { value: '2', source: 'STATIC_BROKER_CONFIG' },
        { value: '1', source: 'DEFAULT_CONFIG' },
      ],
    });
  });

  it('lists as cluster defaults only the ones set', () => {
    expect(describeClusterDefaults({})).toEqual([]);
    expect(describeClusterDefaults({ 'log.retention.ms': '5000' })).toEqual([
      {
        name: 'log.retention.ms',
        value: '5000',
        isDefault: false,
        isReadOnly: false,
        isSensitive: false,
        source: 'DYNAMIC_DEFAULT_BROKER_CONFIG',
        synonyms: [{ name: 'log.retention.ms', value: '5000', source: 'DYNAMIC_DEFAULT_BROKER_CONFIG' }],
      },
    ]);
  });
});

describe('applyBrokerConfigChanges', () => {
  it('sets normalized values and deletes', () => {
    expect(
      applyBrokerConfigChanges({ 'num.partitions': '3' }, [
        { name: 'num.partitions', value: null, operation: 'DELETE' },
        { name: 'auto.create.topics.enable', value: 'TRUE', operation: 'SET' },
        { name: 'log.retention.ms', value: ' 60000 ', operation: 'SET' },
      ]),
    ).toEqual({ ok: true, configs: { 'auto.create.topics.enable': 'true', 'log.retention.ms': '60000' } });
  });

  it('refuses unknown, read-only, repeated and invalid ones, changing nothing', () => {
    const refuse = (name: string, value: string | null) =>
      applyBrokerConfigChanges({}, [{ name, value, operation: 'SET' }]);
    expect(refuse('no.such.config', '1')).toMatchObject({ ok: false, kind: 'unknown' });
    expect(refuse('broker.id', '1')).toMatchObject({
      ok: false,
      kind: 'read-only',
      message: 'Cannot update these configs dynamically: broker.id',
    });
    expect(refuse('num.partitions', '0')).toMatchObject({ ok: false, kind: 'invalid' });
    expect(refuse('num.partitions', null)).toMatchObject({ ok: false, kind: 'invalid' });
    expect(refuse('log.retention.hours', 'soon')).toMatchObject({ ok: false, kind: 'invalid' });
    expect(
      applyBrokerConfigChanges({}, [
        { name: 'num.partitions', value: '2', operation: 'SET' },
        { name: 'num.partitions', value: '3', operation: 'SET' },
      ]),
    ).toMatchObject({ ok: false, kind: 'invalid' });
  });

  it('refuses topic defaults that contradict each other once merged', () => {
    expect(checkTopicDefaults(config, { 'log.cleaner.min.compaction.lag.ms': '10' }, {})).toBeNull();
    expect(
      checkTopicDefaults(
        config,
        { 'log.cleaner.min.compaction.lag.ms': '10' },
        { 'log.cleaner.max.compaction.lag.ms': '5' },
      ),
    ).toMatch(/min.compaction.lag.ms/);
  });
});

describe('effectiveBrokerSettings', () => {
  it('applies the dynamic layers to what the broker acts on', () => {
    const settings = effectiveBrokerSettings(
      config,
      { 'num.partitions': '6', 'log.retention.ms': '5000', 'auto.create.topics.enable': 'true' },
      { 'default.replication.factor': '2' },
    );
    expect(settings).toMatchObject({ numPartitions: 6, defaultReplicationFactor: 2, autoCreateTopicsEnable: true });
    // log.retention.ms outranks the environment's log.retention.hours, as in Kafka
    expect(resolveTopicConfig({}, settings.topicConfigDefaults).retentionMs).toBe(5000);
    expect(resolveTopicConfig({ 'retention.ms': '7' }, settings.topicConfigDefaults).retentionMs).toBe(7);
    const retention = describeTopicConfigs({}, settings.topicConfigDefaults, settings.topicDefaultSources).find(
      (entry) => entry.name === 'retention.ms',
    );
    expect(retention).toMatchObject({ value: '5000', source: 'DYNAMIC_DEFAULT_BROKER_CONFIG' });
  });

  it('keeps the start-up settings without dynamic ones, and skips a stored value it finds invalid', () => {
    expect(effectiveBrokerSettings(config, {}, {})).toMatchObject({
      numPartitions: 2,
      defaultReplicationFactor: 1,
      autoCreateTopicsEnable: false,
      topicConfigDefaults: { 'log.retention.hours': '10' },
    });
    expect(effectiveBrokerSettings(config, { 'num.partitions': '3' }, { 'num.partitions': 'many' }).numPartitions).toBe(
      3,
    );
  });
});
