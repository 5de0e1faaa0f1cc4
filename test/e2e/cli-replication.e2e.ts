// The replication tools of the built `brook` CLI against three brokers and a real redis-server (issues 7 and 8):
// `reassign-partitions` --generate, --execute, --verify (exit 5 while in progress, 0 once complete), --list and
// --cancel with Kafka's JSON files; `leader-election` PREFERRED for one partition and for all; the records are
// still there after the move; one-line errors with exit 1 for what the broker refuses.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brook } from './support/brook-cli.js';
import { TestCluster, waitUntil } from './support/cluster.js';
import { REPLICATION_ENV } from './support/replication.js';
import { partitionReplicas } from './support/reassignment.js';

let cluster: TestCluster;
let clusterId: string;
let dir: string;

beforeAll(async () => {
  cluster = await TestCluster.start(3, REPLICATION_ENV);
  clusterId = await cluster.brokers[0].clusterId();
  dir = mkdtempSync(join(tmpdir(), 'brook-cli-replication-'));
});

afterAll(async () => {
  await cluster?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], input?: string) =>
  brook([...args, '--bootstrap-server', cluster.brokers[1].url], { input, timeoutMs: 30_000 });

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('brook reassign-partitions and leader-election', () => {
  it('moves a partition with the Kafka workflow and elects the preferred leader', async () => {
    const created = await run([
      'topics',
      '--create',
      '--topic',
      'moving',
      '--partitions',
      '2',
      '--replication-factor',
      '2',
    ]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    await waitUntil(
      'moving in sync',
      async () =>
        (await partitionReplicas(cluster.brokers[0], clusterId, 'moving', 0)).isr.length === 2 &&
        (await partitionReplicas(cluster.brokers[0], clusterId, 'moving', 1)).isr.length === 2,
      15_000,
    );
    const produced = await run(['console-producer', '--topic', 'moving'], 'one\ntwo\n');
    expect(produced.code, produced.stderr).toBe(0);

    const generated = await run([
      'reassign-partitions',
      '--generate',
      '--topics-to-move-json-file',
      file('topics.json', { version: 1, topics: [{ topic: 'moving' }] }),
      '--broker-list',
      '1,2,3',
    ]);
    expect(generated.code, generated.stderr).toBe(0);
    const [currentTitle, currentJson, , proposedTitle, proposedJson] = generated.stdout.split('\n');
    expect(currentTitle).toBe('Current partition replica assignment');
    expect(proposedTitle).toBe('Proposed partition reassignment configuration');
    expect(JSON.parse(currentJson).partitions).toHaveLength(2);
    for (const entry of JSON.parse(proposedJson).partitions) expect(entry.replicas).toHaveLength(2);

    // partition 0 moves to the broker it is not on; partition 1 swaps its replicas (a new preferred leader)
    const zero = await partitionReplicas(cluster.brokers[0], clusterId, 'moving', 0);
    const one = await partitionReplicas(cluster.brokers[0], clusterId, 'moving', 1);
    const spare = [1, 2, 3].find((broker) => !zero.replicas.includes(broker))!;
    const plan = [
      { topic: 'moving', partition: 0, replicas: [spare, zero.replicas[1]] },
      { topic: 'moving', partition: 1, replicas: [one.replicas[1], one.replicas[0]] },
    ];
    const planFile = file('plan.json', { version: 1, partitions: plan });
    const executed = await run(['reassign-partitions', '--execute', '--reassignment-json-file', planFile]);
    expect(executed.code, executed.stderr).toBe(0);
    expect(executed.stdout).toContain('Save this to use as the --reassignment-json-file option during rollback');
    expect(executed.stdout).toContain('Successfully started partition reassignments for moving-0,moving-1');

    const verified = await waitUntil(
      'the reassignment verified complete',
      async () => {
        const result = await run(['reassign-partitions', '--verify', '--reassignment-json-file', planFile]);
        expect([0, 5]).toContain(result.code);
        if (result.code === 5) expect(result.stdout).toContain('is still in progress.');
        return result.code === 0 ? result : null;
      },
      45_000,
    );
    expect(verified.stdout).toBe(
      'Status of partition reassignment:\n' +
        'Reassignment of partition moving-0 is completed.\n' +
        'Reassignment of partition moving-1 is completed.\n',
    );
    expect((await run(['reassign-partitions', '--list'])).stdout).toBe('No partition reassignments found.\n');
    expect(JSON.parse((await run(['reassign-partitions', '--list', '--output', 'json'])).stdout)).toEqual([]);
    const cancelled = await run(['reassign-partitions', '--cancel', '--reassignment-json-file', planFile]);
    expect(cancelled.stdout).toBe('None of the specified partition reassignments are active.\n');

    const described = await run(['topics', '--describe', '--topic', 'moving', '--output', 'json']);
    const partitions = JSON.parse(described.stdout).partitions as Array<{ replicas: number[]; leader: number }>;
    expect(partitions.map((partition) => partition.replicas)).toEqual(plan.map((entry) => entry.replicas));

    const elected = await run([
      'leader-election',
      '--election-type',
      'PREFERRED',
      '--topic',
      'moving',
      '--partition',
      '1',
    ]);
    expect(elected.code, elected.stderr).toBe(0);
    expect(elected.stdout).toBe('Successfully completed leader election (PREFERRED) for partitions moving-1\n');
    const all = await run([
      'leader-election',
      '--election-type',
      'preferred',
      '--all-topic-partitions',
      '--output',
      'json',
    ]);
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ topic_name: 'moving', partition_id: 1, error: 'ELECTION_NOT_NEEDED' }),
      ]),
    );

    const consumed = await run([
      'console-consumer',
      '--topic',
      'moving',
      '--from-beginning',
      '--max-messages',
      '2',
      '--timeout-ms',
      '15000',
    ]);
    expect(consumed.stdout.split('\n').filter(Boolean).sort()).toEqual(['one', 'two']);
  });

  it('answers what the broker refuses in one line with exit 1', async () => {
    const badPlan = file('bad.json', { version: 1, partitions: [{ topic: 'moving', partition: 0, replicas: [1, 9] }] });
    const refused = await run(['reassign-partitions', '--execute', '--reassignment-json-file', badPlan]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'brook: The replicas of moving-0 name brokers that are not registered (not alive): 9. (error 40002)\n',
    );
    const mismatch = await run(['reassign-partitions', '--verify', '--reassignment-json-file', badPlan]);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stdout).toContain('There is no active reassignment of partition moving-0, but replica set is');
    const unknown = await run([
      'leader-election',
      '--election-type',
      'PREFERRED',
      '--topic',
      'nope',
      '--partition',
      '0',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain(
      'Error completing leader election (PREFERRED) for partition: nope-0: UNKNOWN_TOPIC_OR_PARTITION',
    );
  });
});
