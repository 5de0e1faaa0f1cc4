// The incremental parser against a full parse: over generated sequences of store changes (puts that repeat or
// change a text, deletes, a key deleted and created again at version 1, a state or config of a topic without an
// assignment, an assignment whose name is not its key's, a value that is not JSON), every load must equal
// (toStrictEqual: same values, same array holes) what parsing every value again gives, `changed` must say whether
// any key, text or version differs from the previous good load, and what is reused must be what was reused for:
// the same parsed state for the same text, the same TopicMetadata for a topic none of whose keys changed.
// BROOK_SOAK=1 runs many more sequences.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  PARTITION_STATE_PREFIX,
  TOPICS_PREFIX,
  TOPIC_CONFIGS_PREFIX,
  partitionStateKey,
  topicConfigKey,
  topicKey,
} from '../coordination/cluster-keys.js';
import { compareCoordinationKeys, type KeyedVersionedValue } from '../coordination/coordination-store.js';
import type { PartitionState, TopicAssignment, TopicMetadata } from './cluster-metadata.js';
import { IncrementalMetadataParser } from './incremental-metadata-parser.js';

const NUM_RUNS = process.env.BROOK_SOAK === '1' ? 1_000 : 100;
const TOPICS = ['a', 'b', 'c'];
const PARTITIONS_MAX = 4;

/** The metadata cache's parse before it was made incremental: every value parsed again. */
function parseAll(
  assignments: readonly KeyedVersionedValue[],
  states: readonly KeyedVersionedValue[],
  configs: readonly KeyedVersionedValue[],
): Map<string, TopicMetadata> {
  const topics = new Map<string, TopicMetadata>();
  for (const entry of assignments) {
    const assignment = JSON.parse(entry.value) as TopicAssignment;
    topics.set(assignment.name, { assignment, states: [], stateVersions: [], configs: {} });
  }
  for (const entry of states) {
    const rest = entry.key.slice(PARTITION_STATE_PREFIX.length);
    const slash = rest.lastIndexOf('/');
    const metadata = topics.get(rest.slice(0, slash));
    if (metadata === undefined) continue;
    metadata.states[Number(rest.slice(slash + 1))] = JSON.parse(entry.value) as PartitionState;
    metadata.stateVersions[Number(rest.slice(slash + 1))] = entry.version;
  }
  for (const entry of configs) {
    const metadata = topics.get(entry.key.slice(TOPIC_CONFIGS_PREFIX.length));
    if (metadata !== undefined) metadata.configs = JSON.parse(entry.value) as Record<string, string>;
  }
  return topics;
}

type Change =
  | { kind: 'assignment'; topic: string; name: string; partitions: number }
  | { kind: 'state'; topic: string; partition: number; leader: number; leaderEpoch: number; adding: boolean }
  | { kind: 'config'; topic: string; retention: number | null }
  | { kind: 'delete'; which: 'assignment' | 'state' | 'config'; topic: string; partition: number }
  | { kind: 'garbage'; topic: string; partition: number }
  | { kind: 'rewrite'; pick: number }
  | { kind: 'load' };

const topicArb = fc.constantFrom(...TOPICS);
const partitionArb = fc.integer({ min: 0, max: PARTITIONS_MAX });
const changeArb: fc.Arbitrary<Change> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('assignment' as const),
      topic: topicArb,
      name: fc.oneof({ weight: 9, arbitrary: fc.constant('') }, { weight: 1, arbitrary: topicArb }),
      partitions: fc.integer({ min: 0, max: PARTITIONS_MAX }),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('state' as const),
      topic: topicArb,
      partition: partitionArb,
      leader: fc.integer({ min: -1, max: 2 }),
      leaderEpoch: fc.integer({ min: 0, max: 1 }),
      adding: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('config' as const),
      topic: topicArb,
      retention: fc.option(fc.integer({ min: 1, max: 2 })),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('delete' as const),
      which: fc.constantFrom('assignment' as const, 'state' as const, 'config' as const),
      topic: topicArb,
      partition: partitionArb,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('garbage' as const), topic: topicArb, partition: partitionArb }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('rewrite' as const), pick: fc.nat() }) },
  { weight: 5, arbitrary: fc.constant({ kind: 'load' as const }) },
);

/** A store's value keys with the store's version rule: a put adds one, a key created again starts at 1. */
class FakeStore {
  private readonly entries = new Map<string, { value: string; version: number }>();

  put(key: string, value: string): void {
    this.entries.set(key, { value, version: (this.entries.get(key)?.version ?? 0) + 1 });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Puts the same text again into one of the keys (a new version of an unchanged value), if there is any. */
  rewrite(pick: number): void {
    const keys = [...this.entries.keys()];
    if (keys.length > 0) this.put(keys[pick % keys.length], this.entries.get(keys[pick % keys.length])!.value);
  }

  list(prefix: string): KeyedVersionedValue[] {
    return [...this.entries]
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, { value, version }]) => ({ key, value, version }))
      .sort((x, y) => compareCoordinationKeys(x.key, y.key));
  }
}

function apply(store: FakeStore, change: Exclude<Change, { kind: 'load' }>): void {
  switch (change.kind) {
    case 'assignment': {
      const assignment: TopicAssignment = {
        topicId: `${change.topic}-id`,
        name: change.name === '' ? change.topic : change.name,
        replicas: Array.from({ length: change.partitions }, (_, p) => [1, 1 + (p % 2)]),
      };
      store.put(topicKey(change.topic), JSON.stringify(assignment));
      return;
    }
    case 'state': {
      const state: PartitionState = {
        leader: change.leader,
        leaderEpoch: change.leaderEpoch,
        isr: change.leader < 0 ? [] : [change.leader],
        isrBrokerEpochs: change.leader < 0 ? {} : { [change.leader]: 7 },
        controllerEpoch: 1,
        ...(change.adding ? { addingReplicas: [2] } : {}),
      };
      store.put(partitionStateKey(change.topic, change.partition), JSON.stringify(state));
      return;
    }
    case 'config':
      store.put(
        topicConfigKey(change.topic),
        JSON.stringify(change.retention === null ? {} : { 'retention.ms': String(change.retention) }),
      );
      return;
    case 'delete': {
      const keys = {
        assignment: topicKey(change.topic),
        state: partitionStateKey(change.topic, change.partition),
        config: topicConfigKey(change.topic),
      };
      store.delete(keys[change.which]);
      return;
    }
    case 'garbage':
      store.put(partitionStateKey(change.topic, change.partition), '{"leader": 1,');
      return;
    case 'rewrite':
      store.rewrite(change.pick);
      return;
  }
}

interface Lists {
  assignments: KeyedVersionedValue[];
  states: KeyedVersionedValue[];
  configs: KeyedVersionedValue[];
}

function listsOf(store: FakeStore): Lists {
  return {
    assignments: store.list(TOPICS_PREFIX),
    states: store.list(PARTITION_STATE_PREFIX),
    configs: store.list(TOPIC_CONFIGS_PREFIX),
  };
}

function sameLists(a: Lists, b: Lists): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

describe('IncrementalMetadataParser', () => {
  it('gives what a full parse gives, reports every change, and reuses only what did not change', () => {
    fc.assert(
      fc.property(fc.array(changeArb, { minLength: 1, maxLength: 60 }), (changes) => {
        const store = new FakeStore();
        const parser = new IncrementalMetadataParser();
        let previous: { lists: Lists; topics: Map<string, TopicMetadata> } | null = null;
        for (const change of [...changes, { kind: 'load' as const }]) {
          if (change.kind !== 'load') {
            apply(store, change);
            continue;
          }
          const lists = listsOf(store);
          let expected: Map<string, TopicMetadata>;
          try {
            expected = parseAll(lists.assignments, lists.states, lists.configs);
          } catch {
            expect(() => parser.load(lists.assignments, lists.states, lists.configs)).toThrow();
            previous = null;
            continue;
          }
          const { topics, changed } = parser.load(lists.assignments, lists.states, lists.configs);
          expect(topics).toStrictEqual(expected);
          expect([...topics.keys()]).toEqual([...expected.keys()]);
          expect(changed).toBe(previous === null || !sameLists(previous.lists, lists));
          if (previous !== null) expectReuse(previous, { lists, topics });
          previous = { lists, topics };
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('takes nothing from a load that failed: a topic changed in it is built again at the next load', () => {
    const store = new FakeStore();
    const parser = new IncrementalMetadataParser();
    const load = () => {
      const lists = listsOf(store);
      return parser.load(lists.assignments, lists.states, lists.configs);
    };
    for (const topic of ['a', 'b']) {
      apply(store, { kind: 'assignment', topic, name: '', partitions: 1 });
      apply(store, { kind: 'state', topic, partition: 0, leader: 1, leaderEpoch: 0, adding: false });
    }
    load();
    apply(store, { kind: 'state', topic: 'a', partition: 0, leader: 2, leaderEpoch: 1, adding: false });
    apply(store, { kind: 'garbage', topic: 'b', partition: 0 });
    expect(load).toThrow();
    apply(store, { kind: 'state', topic: 'b', partition: 0, leader: 1, leaderEpoch: 0, adding: false });
    const after = load();
    expect(after.changed).toBe(true);
    expect(after.topics.get('a')!.states[0]).toMatchObject({ leader: 2, leaderEpoch: 1 });
    expect(after.topics.get('a')!.stateVersions).toEqual([2]);
  });
});

/** Same text, same parsed object; a topic none of whose keys changed keeps its TopicMetadata. */
function expectReuse(
  before: { lists: Lists; topics: Map<string, TopicMetadata> },
  after: { lists: Lists; topics: Map<string, TopicMetadata> },
): void {
  const statesBefore = new Map(before.lists.states.map((entry) => [entry.key, entry]));
  for (const [name, topic] of after.topics) {
    const old = before.topics.get(name);
    if (old === undefined) continue;
    topic.states.forEach((state, partition) => {
      const key = partitionStateKey(name, partition);
      const text = after.lists.states.find((entry) => entry.key === key)!.value;
      if (statesBefore.get(key)?.value === text && old.states[partition] !== undefined) {
        expect(state).toBe(old.states[partition]);
      }
    });
    const keysOf = (lists: Lists) =>
      JSON.stringify([
        lists.assignments.filter((entry) => JSON.parse(entry.value).name === name),
        lists.states.filter((entry) => entry.key.startsWith(`${PARTITION_STATE_PREFIX}${name}/`)),
        lists.configs.filter((entry) => entry.key === topicConfigKey(name)),
      ]);
    if (keysOf(before.lists) === keysOf(after.lists)) expect(topic).toBe(old);
  }
}
