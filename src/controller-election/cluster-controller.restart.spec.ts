// A single broker restarted (a new incarnation, DESIGN.md §1) gets every partition it led moved to a new leader epoch
// by its own controller before it serves. Those moves are one pass: the metadata listeners (the log manager, the
// replica manager) are told the moved states once, all of them, not in waves of a few hundred (issue 23: at 10,000
// partitions each telling walked every partition and rewrote the metadata snapshot).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ControllerStack, startControllerStack } from '../../test/support/controller-stack.js';
import { loadBrokerConfig } from '../config/broker-config.js';
import { EmbeddedCoordinationStore } from '../coordination/embedded-store.js';
import type { TopicMetadata } from '../topic/cluster-metadata.js';

/** More partitions than any wave of writes the controller used to issue (256). */
const PARTITIONS = 700;
const SETTLE_WAIT_MS = 60_000;

const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** One start of the broker on `dataDir`, as BrokerLifecycle orders it, up to the controller's settling. */
async function start(
  dataDir: string,
  onTold: (topics: ReadonlyMap<string, TopicMetadata>) => void,
): Promise<ControllerStack<EmbeddedCoordinationStore>> {
  const config = loadBrokerConfig({ BROOK_DATA_DIR: dataDir });
  const stack = await startControllerStack(await EmbeddedCoordinationStore.open(dataDir), config, onTold);
  await stack.cluster.settle(SETTLE_WAIT_MS);
  return stack;
}

function leaderEpochs(topic: TopicMetadata | undefined): number[] {
  return (topic?.states ?? []).map((state) => state.leaderEpoch);
}

describe('a restarted single broker', () => {
  it("is told its partitions' new leader epochs in one telling, every partition in it", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'brook-controller-restart-'));
    dirs.push(dataDir);
    const first = await start(dataDir, () => undefined);
    await first.controller.createTopic({ name: 'many', partitions: PARTITIONS, replicationFactor: 1, configs: [] });
    await first.metadata.reload();
    const before = leaderEpochs(first.metadata.topic('many'));
    expect(before).toHaveLength(PARTITIONS);
    await first.close();

    // what each telling of the restarted broker holds: how many partitions are already in a new leader epoch
    const moved: number[] = [];
    const second = await start(dataDir, (topics) => {
      const epochs = leaderEpochs(topics.get('many'));
      moved.push(epochs.filter((epoch, partition) => epoch > before[partition]).length);
    });
    await second.metadata.reload();
    const after = leaderEpochs(second.metadata.topic('many'));
    await second.close();

    expect(after.every((epoch, partition) => epoch > before[partition])).toBe(true);
    // told first what the store held before the moves, then the moves: never a part of them
    expect(moved.filter((count) => count > 0 && count < PARTITIONS)).toEqual([]);
    expect(moved.filter((count) => count === PARTITIONS)).toHaveLength(1);
  });
});
