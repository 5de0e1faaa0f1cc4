// The seed documents' session with Kafka's tools, replayed with the built `brook` CLI against a real broker
// process: create, list and describe a topic, produce two lines, read them back from the beginning, consume
// them as a group and describe its lag, reset its offsets to earliest, grow the topic, set retention.ms, and
// delete it. The failure paths scripts rely on (exit codes, one-line errors) and the console clients' edges are in
// cli-failures.e2e.ts.
import { describe, expect, it } from 'vitest';
import { brokerForSuite } from './support/broker-process.js';
import { brook, FAST_GROUPS } from './support/brook-cli.js';

describe('brook CLI: the seed session', () => {
  const suite = brokerForSuite({ env: FAST_GROUPS });
  // host:port without a scheme, as Kafka's tools take it
  const run = (args: string[], input?: string) =>
    brook([...args, '--bootstrap-server', `127.0.0.1:${suite.broker.port}`], { input });

  it('creates topic test with 1 partition and replication factor 1', async () => {
    const result = await run([
      'topics',
      '--create',
      '--topic',
      'test',
      '--partitions',
      '1',
      '--replication-factor',
      '1',
    ]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('Created topic test.\n');
    expect(result.code).toBe(0);
    const again = await run(['topics', '--create', '--topic', 'test']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe("brook: Topic 'test' already exists. (error 40002)\n");
    expect((await run(['topics', '--create', '--topic', 'test', '--if-not-exists'])).code).toBe(0);
  });

  it('lists it', async () => {
    const result = await run(['topics', '--list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('test\n');
    const table = await run(['topics', '--list', '--output', 'table']);
    expect(table.stdout).toBe('TOPIC  PARTITIONS  REPLICATION-FACTOR\ntest   1           1\n');
    const json = await run(['topics', '--list', '--output', 'json']);
    expect(JSON.parse(json.stdout)).toEqual([
      { topic_name: 'test', partitions_count: 1, replication_factor: 1, is_internal: false },
    ]);
  });

  it('describes it', async () => {
    const result = await run(['topics', '--describe', '--topic', 'test']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'Topic: test\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: \n' +
        '\tTopic: test\tPartition: 0\tLeader: 0\tReplicas: 0\tIsr: 0\tElr: N/A\tLastKnownElr: N/A\n',
    );
    const table = await run(['topics', '--describe', '--topic', 'test', '--output', 'table']);
    expect(table.stdout).toContain('PARTITION  LEADER  REPLICAS  ISR\n0          0       0         0\n');
  });

  it('produces the lines "test" and "hello boy" from stdin', async () => {
    const result = await run(['console-producer', '--topic', 'test'], 'test\nhello boy\n');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('reads them back with --from-beginning --max-messages 2', async () => {
    const result = await run(['console-consumer', '--topic', 'test', '--from-beginning', '--max-messages', '2']);
    expect(result.stdout).toBe('test\nhello boy\n');
    expect(result.stderr).toBe('Processed a total of 2 messages\n');
    expect(result.code).toBe(0);
  });

  it('prints keys, offsets and timestamps with --property, from a given partition and offset', async () => {
    const before = Date.now();
    const result = await run([
      'console-consumer',
      '--topic',
      'test',
      '--partition',
      '0',
      '--offset',
      '1',
      '--max-messages',
      '1',
      '--property',
      'print.key=true',
      '--property',
      'print.offset=true',
      '--property',
      'print.timestamp=true',
      '--property',
      'key.separator=|',
    ]);
    expect(result.code).toBe(0);
    const match = /^CreateTime:(\d+)\|Offset:1\|null\|hello boy\n$/.exec(result.stdout);
    expect(match, result.stdout).not.toBeNull();
    expect(Number(match?.[1])).toBeLessThanOrEqual(before);
  });

  it('consumes as a group, committing what it printed, and describes the group with its lag', async () => {
    const consume = await run([
      'console-consumer',
      '--topic',
      'test',
      '--group',
      'seed',
      '--from-beginning',
      '--max-messages',
      '1',
    ]);
    expect(consume.stdout).toBe('test\n');
    expect(consume.code).toBe(0);
    const describe = await run(['consumer-groups', '--describe', '--group', 'seed']);
    expect(describe.code).toBe(0);
    expect(describe.stderr).toBe("\nConsumer group 'seed' has no active members.\n");
    // kafka-consumer-groups' columns, which scripts split on white space
    const [blank, header, row] = describe.stdout.split('\n');
    expect(blank).toBe('');
    expect(header.split(/\s+/)).toEqual([
      'GROUP',
      'TOPIC',
      'PARTITION',
      'CURRENT-OFFSET',
      'LOG-END-OFFSET',
      'LAG',
      'CONSUMER-ID',
      'HOST',
      'CLIENT-ID',
    ]);
    expect(row.split(/\s+/)).toEqual(['seed', 'test', '0', '1', '2', '1', '-', '-', '-']);
    const list = await run(['consumer-groups', '--list']);
    expect(list.stdout).toBe('seed\n');
    const states = await run(['consumer-groups', '--list', '--state']);
    expect(states.stdout.split('\n').map((line) => line.trim().split(/\s+/))).toEqual([
      ['GROUP', 'STATE'],
      ['seed', 'Empty'],
      [''],
    ]);
    expect((await run(['consumer-groups', '--list', '--state', 'Stable'])).stdout).toBe(
      `${'GROUP'.padEnd(25)} ${'STATE'.padEnd(20)}\n`,
    );
    const json = await run(['consumer-groups', '--list', '--output', 'json']);
    expect(JSON.parse(json.stdout).map((group: { consumer_group_id: string }) => group.consumer_group_id)).toEqual([
      'seed',
    ]);
  });

  it('resets the group to earliest: a dry run first, then --execute', async () => {
    const dryRun = await run([
      'consumer-groups',
      '--reset-offsets',
      '--group',
      'seed',
      '--topic',
      'test',
      '--to-earliest',
    ]);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stderr).toContain('No action will be performed as the --execute option is missing');
    const plan =
      `\n${'GROUP'.padEnd(15)} ${'TOPIC'.padEnd(15)} ${'PARTITION'.padEnd(10)} NEW-OFFSET` +
      `\n${'seed'.padEnd(15)} ${'test'.padEnd(15)} ${'0'.padEnd(10)} 0\n`;
    expect(dryRun.stdout).toBe(plan);
    const lagAfterDryRun = JSON.parse(
      (await run(['consumer-groups', '--describe', '--group', 'seed', '--output', 'json'])).stdout,
    );
    expect(lagAfterDryRun.lags[0].current_offset).toBe(1);

    const execute = await run([
      'consumer-groups',
      '--reset-offsets',
      '--group',
      'seed',
      '--topic',
      'test',
      '--to-earliest',
      '--execute',
    ]);
    expect(execute.stdout).toBe(plan);
    expect(execute.stderr).toBe('');
    const lag = JSON.parse(
      (await run(['consumer-groups', '--describe', '--group', 'seed', '--output', 'json'])).stdout,
    );
    expect(lag.lags.map((row: { current_offset: number; lag: number }) => [row.current_offset, row.lag])).toEqual([
      [0, 2],
    ]);
    const again = await run(['console-consumer', '--topic', 'test', '--group', 'seed', '--max-messages', '2']);
    expect(again.stdout).toBe('test\nhello boy\n');
  });

  it('deletes the group', async () => {
    const result = await run(['consumer-groups', '--delete', '--group', 'seed']);
    expect(result.stdout).toBe("Deletion of requested consumer groups ('seed') was successful.\n");
    expect(result.code).toBe(0);
    const gone = await run(['consumer-groups', '--describe', '--group', 'seed']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^brook: .*seed.*\n$/);
  });

  it('alters the topic to 3 partitions', async () => {
    const result = await run(['topics', '--alter', '--topic', 'test', '--partitions', '3']);
    expect(result.code).toBe(0);
    const described = JSON.parse((await run(['topics', '--describe', '--topic', 'test', '--output', 'json'])).stdout);
    expect(described.partitions_count).toBe(3);
    expect(described.partitions.map((p: { partition_id: number }) => p.partition_id)).toEqual([0, 1, 2]);
  });

  it('sets retention.ms=1000 with configs --alter --add-config and shows it in --describe', async () => {
    const alter = await run([
      'configs',
      '--entity-type',
      'topics',
      '--entity-name',
      'test',
      '--alter',
      '--add-config',
      'retention.ms=1000',
    ]);
    expect(alter.stdout).toBe('Completed updating config for topic test.\n');
    expect(alter.code).toBe(0);
    const describe = await run(['configs', '--entity-type', 'topics', '--entity-name', 'test', '--describe']);
    expect(describe.stdout).toMatch(
      /^Dynamic configs for topic test are:\n {2}retention\.ms=1000 sensitive=false synonyms=\{DYNAMIC_TOPIC_CONFIG:retention\.ms=1000[^\n]*\}\n$/,
    );
    const table = await run(['configs', '--topic', 'test', '--describe', '--output', 'table']);
    expect(table.stdout).toBe('TOPIC  CONFIG        VALUE  SOURCE\ntest   retention.ms  1000   DYNAMIC_TOPIC_CONFIG\n');
    const topic = await run(['topics', '--describe', '--topic', 'test']);
    expect(topic.stdout).toContain('PartitionCount: 3\tReplicationFactor: 1\tConfigs: retention.ms=1000\n');
  });

  it('resets a config with --delete-config', async () => {
    await run(['configs', '--topic', 'test', '--alter', '--add-config', 'segment.ms=600000']);
    const reset = await run(['configs', '--topic', 'test', '--alter', '--delete-config', 'segment.ms']);
    expect(reset.code).toBe(0);
    const configs = JSON.parse((await run(['configs', '--topic', 'test', '--describe', '--output', 'json'])).stdout);
    expect(configs.map((config: { name: string }) => config.name)).toEqual(['retention.ms']);
  });

  it('deletes the topic', async () => {
    const result = await run(['topics', '--delete', '--topic', 'test']);
    expect(result.stdout).toBe('Deleted topic test.\n');
    expect(result.code).toBe(0);
    expect((await run(['topics', '--list', '--exclude-internal'])).stdout).toBe('');
    expect((await run(['topics', '--list'])).stdout).toBe('__consumer_offsets\n');
    const gone = await run(['topics', '--describe', '--topic', 'test']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^brook: .*not found.*\(error 40401\)\n$/);
    expect((await run(['topics', '--delete', '--topic', 'test', '--if-exists'])).code).toBe(0);
  });
});
