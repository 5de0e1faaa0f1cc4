// Each expected text is what the Kafka tool prints for the same data, written out from its format strings.
import { describe, expect, it } from 'vitest';
import {
  kafkaAcls,
  kafkaCancelled,
  kafkaConfigDescription,
  kafkaGroupDescription,
  kafkaGroupList,
  kafkaGroupStates,
  kafkaQuotaDescription,
  kafkaReassignmentList,
  kafkaResetPlan,
  kafkaTopicDescription,
  kafkaTopicList,
} from './kafka-output.js';

describe('kafka-topics', () => {
  it('--list prints one name per line', () => {
    expect(kafkaTopicList(['__consumer_offsets', 'orders'])).toBe('__consumer_offsets\norders\n');
    expect(kafkaTopicList([])).toBe('');
  });

  it('--describe prints the summary line, then a tab-led line per partition', () => {
    const text = kafkaTopicDescription({
      topic_name: 'orders',
      partitions_count: 2,
      replication_factor: 2,
      configs: { 'retention.ms': '1000', 'cleanup.policy': 'compact' },
      partitions: [
        { partition_id: 1, leader: null, replicas: [2, 1], isr: [], reassignment: null },
        { partition_id: 0, leader: 1, replicas: [1, 2], isr: [1, 2], reassignment: { adding: [3], removing: [2] } },
      ],
    });
    expect(text).toBe(
      'Topic: orders\tPartitionCount: 2\tReplicationFactor: 2\tConfigs: cleanup.policy=compact,retention.ms=1000\n' +
        '\tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\tAdding Replicas: 3\tRemoving Replicas: 2' +
        '\tElr: N/A\tLastKnownElr: N/A\n' +
        '\tTopic: orders\tPartition: 1\tLeader: none\tReplicas: 2,1\tIsr: \tElr: N/A\tLastKnownElr: N/A\n',
    );
  });

  it('--describe is parsed by the usual field regular expressions', () => {
    const text = kafkaTopicDescription({
      topic_name: 't',
      partitions_count: 1,
      replication_factor: 1,
      configs: {},
      partitions: [{ partition_id: 0, leader: 3, replicas: [3], isr: [3] }],
    });
    expect(/PartitionCount: (\d+)/.exec(text)?.[1]).toBe('1');
    expect(/Partition: 0\tLeader: (\d+)/.exec(text)?.[1]).toBe('3');
    expect(text.split('\n')[0]).toBe('Topic: t\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: ');
  });
});

describe('kafka-consumer-groups', () => {
  it('--list prints one group per line; --list --state a GROUP and STATE table in Kafka widths', () => {
    expect(kafkaGroupList(['a', 'b'])).toBe('a\nb\n');
    const table = kafkaGroupStates([
      { group: 'billing', state: 'STABLE' },
      { group: 'audit', state: 'EMPTY' },
    ]);
    expect(table).toBe(
      `${'GROUP'.padEnd(25)} ${'STATE'.padEnd(20)}\n` +
        `${'billing'.padEnd(25)} ${'Stable'.padEnd(20)}\n` +
        `${'audit'.padEnd(25)} ${'Empty'.padEnd(20)}\n`,
    );
  });

  it('--describe prints the state note on stderr and the offsets after a blank line', () => {
    const { stdout, stderr } = kafkaGroupDescription('seed', 'EMPTY', [
      {
        topic_name: 'test',
        partition_id: 1,
        current_offset: -1,
        log_end_offset: 5,
        lag: 5,
        consumer_id: '',
        client_id: '',
      },
      {
        topic_name: 'test',
        partition_id: 0,
        current_offset: 1,
        log_end_offset: 2,
        lag: 1,
        consumer_id: 'worker-1',
        client_id: 'worker-1',
      },
    ]);
    expect(stderr).toBe("\nConsumer group 'seed' has no active members.\n");
    const row = (cells: string[]) =>
      `\n${cells[0].padEnd(15)} ${cells[1].padEnd(15)} ${cells[2].padEnd(10)} ${cells[3].padEnd(15)} ` +
      `${cells[4].padEnd(15)} ${cells[5].padEnd(15)} ${cells[6].padEnd(15)} ${cells[7].padEnd(15)} ${cells[8]}`;
    expect(stdout).toBe(
      row([
        'GROUP',
        'TOPIC',
        'PARTITION',
        'CURRENT-OFFSET',
        'LOG-END-OFFSET',
        'LAG',
        'CONSUMER-ID',
        'HOST',
        'CLIENT-ID',
      ]) +
        row(['seed', 'test', '0', '1', '2', '1', 'worker-1', '-', 'worker-1']) +
        row(['seed', 'test', '1', '-', '5', '-', '-', '-', '-']) +
        '\n',
    );
    const columns = stdout.split('\n')[2].trim().split(/\s+/);
    expect(columns).toEqual(['seed', 'test', '0', '1', '2', '1', 'worker-1', '-', 'worker-1']);
  });

  it('--describe notes a rebalance, says nothing of a stable group, and prints no table without rows', () => {
    expect(kafkaGroupDescription('g', 'PREPARING_REBALANCE', []).stderr).toBe(
      "\nWarning: Consumer group 'g' is rebalancing.\n",
    );
    expect(kafkaGroupDescription('g', 'STABLE', [])).toEqual({ stdout: '', stderr: '' });
  });

  it('--reset-offsets prints GROUP TOPIC PARTITION NEW-OFFSET', () => {
    expect(kafkaResetPlan('seed', [{ topic_name: 'test', partition_id: 0, new_offset: 0 }])).toBe(
      `\n${'GROUP'.padEnd(15)} ${'TOPIC'.padEnd(15)} ${'PARTITION'.padEnd(10)} NEW-OFFSET` +
        `\n${'seed'.padEnd(15)} ${'test'.padEnd(15)} ${'0'.padEnd(10)} 0\n`,
    );
    expect(kafkaResetPlan('seed', [])).toBe('\n');
  });
});

describe('kafka-configs', () => {
  it('--describe prints the title and one line per config with its synonyms', () => {
    const text = kafkaConfigDescription('test', false, [
      {
        name: 'retention.ms',
        value: '1000',
        is_sensitive: false,
        synonyms: [
          { name: 'retention.ms', value: '1000', source: 'DYNAMIC_TOPIC_CONFIG' },
          { name: 'log.retention.hours', value: '168', source: 'DEFAULT_CONFIG' },
        ],
      },
    ]);
    expect(text).toBe(
      'Dynamic configs for topic test are:\n' +
        '  retention.ms=1000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:retention.ms=1000, ' +
        'DEFAULT_CONFIG:log.retention.hours=168}\n',
    );
    expect(kafkaConfigDescription('test', true, [])).toBe('All configs for topic test are:\n');
  });

  it('hides sensitive values as null', () => {
    const text = kafkaConfigDescription('t', false, [
      { name: 'secret', value: 'x', is_sensitive: true, synonyms: [{ name: 'secret', value: 'x', source: 'X' }] },
    ]);
    expect(text).toContain('  secret=null sensitive=true synonyms={X:secret=null}\n');
  });

  it('--describe --entity-type users prints the quotas as doubles', () => {
    expect(
      kafkaQuotaDescription('alice', { producer_byte_rate: 1048576, consumer_byte_rate: null, request_rate: 2.5 }),
    ).toBe("Quota configs for user-principal 'alice' are producer_byte_rate=1048576.0, request_rate=2.5\n");
    expect(kafkaQuotaDescription('<default>', { request_rate: 50 })).toBe(
      'Quota configs for the default user-principal are request_rate=50.0\n',
    );
  });
});

describe('kafka-acls', () => {
  it('prints each resource pattern with its entries', () => {
    const acl = {
      resource_type: 'TOPIC',
      resource_name: 'orders',
      pattern_type: 'LITERAL',
      principal: 'User:alice',
      host: '*',
      permission: 'ALLOW',
    };
    expect(
      kafkaAcls('Current', [
        { ...acl, operation: 'READ' },
        { ...acl, operation: 'WRITE' },
      ]),
    ).toBe(
      'Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=orders, patternType=LITERAL)`: \n' +
        ' \t(principal=User:alice, host=*, operation=READ, permissionType=ALLOW)\n' +
        '\t(principal=User:alice, host=*, operation=WRITE, permissionType=ALLOW) \n\n',
    );
    expect(kafkaAcls('Adding', [{ ...acl, operation: 'READ' }])).toMatch(/^Adding ACLs for resource `ResourcePattern/);
    expect(kafkaAcls('Current', [])).toBe('');
  });
});

describe('kafka-reassign-partitions', () => {
  it('--list prints each reassignment, or that there is none', () => {
    expect(kafkaReassignmentList([])).toBe('No partition reassignments found.\n');
    expect(
      kafkaReassignmentList([
        { topic: 'foo', partition: 1, target: [2, 3], adding: [3], removing: [1] },
        { topic: 'bar', partition: 0, target: [2], adding: [], removing: [] },
      ]),
    ).toBe('Current partition reassignments:\nbar-0: replicas: 2.\nfoo-1: replicas: 2,3,1. adding: 3. removing: 1.\n');
  });

  it('--cancel names the cancelled partitions, singular for one, or says none was active', () => {
    expect(kafkaCancelled([])).toBe('None of the specified partition reassignments are active.\n');
    expect(kafkaCancelled(['t-0'])).toBe('Successfully cancelled partition reassignment for: t-0\n');
    expect(kafkaCancelled(['t-0', 't-1'])).toBe('Successfully cancelled partition reassignments for: t-0,t-1\n');
  });
});
