// The controller's reassignment driver over a real (embedded) coordination store and metadata cache: a persisted
// command is followed to completion as the ISR changes, a driver started afresh (a new controller) resumes from
// the stored state alone, a command lost with the store's data is recovered from the partition-state markers, a
// command of a deleted topic is dropped, and a deposed controller's step is fenced.
import { Logger } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadBrokerConfig } from '../config/broker-config.js';
import {
  CONTROLLER_EPOCH_KEY,
  REASSIGNMENTS_PREFIX,
  partitionStateKey,
  reassignmentKey,
  topicKey,
} from '../coordination/cluster-keys.js';
import { CoordinationFencedError } from '../coordination/coordination-errors.js';
import { EmbeddedCoordinationStore } from '../coordination/embedded-store.js';
import type { PartitionState, TopicAssignment } from '../topic/cluster-metadata.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import { admitMember } from '../topic/replica-incarnations.js';
import type { ReassignmentCommand } from './reassignment.js';
import { ReassignmentDriver } from './reassignment-driver.js';

/** Broker b runs as incarnation (broker epoch) 10 * b. */
const LIVE = new Map([1, 2, 3, 4].map((broker) => [broker, 10 * broker]));

let dataDir: string;
let store: EmbeddedCoordinationStore;
let metadata: MetadataCache;
let epoch: number;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'brook-reassignment-driver-'));
  store = await EmbeddedCoordinationStore.open(dataDir);
  metadata = new MetadataCache(store, loadBrokerConfig({ BROOK_DATA_DIR: dataDir }));
  epoch = await store.increment(CONTROLLER_EPOCH_KEY);
  const assignment: TopicAssignment = { topicId: 'id-1', name: 't', replicas: [[1, 2, 3]] };
  await writeState({
    leader: 1,
    leaderEpoch: 0,
    isr: [1, 2, 3],
    isrBrokerEpochs: { 1: 10, 2: 20, 3: 30 },
    controllerEpoch: epoch,
  });
  await store.put(topicKey('t'), JSON.stringify(assignment));
  await metadata.reload();
});

afterEach(async () => {
  metadata.onModuleDestroy();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function writeState(state: PartitionState): Promise<void> {
  await store.put(partitionStateKey('t', 0), JSON.stringify(state));
}

async function command(target: number[]): Promise<void> {
  const stored: ReassignmentCommand = { topic: 't', partition: 0, topicId: 'id-1', target, original: [1, 2, 3] };
  await store.put(reassignmentKey('t', 0), JSON.stringify(stored));
}

const driver = () => new ReassignmentDriver(store, metadata, new Logger('test'), () => true);

/** Steps until nothing more is written; returns the number of passes that wrote. */
async function runToQuiet(on: ReassignmentDriver): Promise<number> {
  let passes = 0;
  while (await on.step(epoch, LIVE)) {
    await metadata.reload();
    passes++;
    if (passes > 20) throw new Error('the driver does not settle');
  }
  return passes;
}

function partition() {
  const topic = metadata.topic('t')!;
  return { replicas: topic.assignment.replicas[0], state: topic.states[0] };
}

/** The leader lets the new replica into the ISR once it caught up (what a leader's own ISR write does). */
async function replicaCatchesUp(broker: number): Promise<void> {
  const { state } = partition();
  await writeState(admitMember(state, broker, 10 * broker));
  await metadata.reload();
}

describe('ReassignmentDriver', () => {
  it('follows a command to the end as the ISR changes, and a new driver resumes it from the store', async () => {
    await command([2, 3, 4]);
    const first = driver();
    await runToQuiet(first);
    expect(first.inProgress).toBe(true);
    expect(partition().replicas).toEqual([2, 3, 4, 1]);
    expect(partition().state).toMatchObject({ leader: 1, addingReplicas: [4], removingReplicas: [1] });

    // the controller changes: a new driver, nothing in memory
    const next = driver();
    await replicaCatchesUp(4);
    await runToQuiet(next);
    expect(partition().replicas).toEqual([2, 3, 4]);
    expect(partition().state).toEqual({
      leader: 2,
      leaderEpoch: 1,
      isr: [2, 3, 4],
      isrBrokerEpochs: { 2: 20, 3: 30, 4: 40 },
      controllerEpoch: epoch,
    });
    expect(await store.list(REASSIGNMENTS_PREFIX)).toEqual([]);
    expect(next.inProgress).toBe(false);
  });

  it('recovers a command lost with the store from the markers in the partition state', async () => {
    await command([2, 3, 4]);
    await runToQuiet(driver());
    await store.delete(reassignmentKey('t', 0));
    await replicaCatchesUp(4);
    await runToQuiet(driver());
    expect(partition().replicas).toEqual([2, 3, 4]);
    expect(await store.list(REASSIGNMENTS_PREFIX)).toEqual([]);
  });

  it('scans the partitions for markers once per metadata change while none has any, and recovers from new ones', async () => {
    const quiet = driver();
    const walks = vi.spyOn(metadata.allTopics(), 'forEach');
    expect(await quiet.step(epoch, LIVE)).toBe(false);
    expect(await quiet.step(epoch, LIVE)).toBe(false);
    expect(walks).toHaveBeenCalledTimes(1);
    // a state that marks a reassignment without its command (lost with the store): the new metadata is scanned
    const { state } = partition();
    await writeState({ ...state, addingReplicas: [4], removingReplicas: [1] });
    await store.put(topicKey('t'), JSON.stringify({ topicId: 'id-1', name: 't', replicas: [[2, 3, 4, 1]] }));
    await metadata.reload();
    await quiet.step(epoch, LIVE);
    expect((await store.list(REASSIGNMENTS_PREFIX)).map((entry) => JSON.parse(entry.value))).toEqual([
      { topic: 't', partition: 0, topicId: 'id-1', target: [2, 3, 4], original: [2, 3, 1] },
    ]);
  });

  it('drops the command of a topic deleted (or created again under the same name)', async () => {
    await command([2, 3, 4]);
    await store.put(topicKey('t'), JSON.stringify({ topicId: 'id-2', name: 't', replicas: [[1, 2, 3]] }));
    await metadata.reload();
    await runToQuiet(driver());
    expect(await store.list(REASSIGNMENTS_PREFIX)).toEqual([]);
    expect(partition().replicas).toEqual([1, 2, 3]);
  });

  it("fences a deposed controller's step", async () => {
    await command([2, 3, 4]);
    await store.increment(CONTROLLER_EPOCH_KEY);
    await expect(driver().step(epoch, LIVE)).rejects.toBeInstanceOf(CoordinationFencedError);
    expect(partition().replicas).toEqual([1, 2, 3]);
  });
});
