import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deletedPartitions, missingPartitions, type TopicShape, type TopicShapes } from './deleted-partitions.js';

const shapes = (entries: Record<string, TopicShape>): TopicShapes => new Map(Object.entries(entries));
const keys = (partitions: Array<{ topic: string; partition: number }>) =>
  partitions.map(({ topic, partition }) => `${topic}:${partition}`).sort();

describe('deletedPartitions', () => {
  it('finds the partitions of deleted topics, of topics created again, and partitions lost', () => {
    const before = shapes({
      kept: { topicId: 'k', partitions: 2 },
      gone: { topicId: 'g', partitions: 2 },
      again: { topicId: 'a1', partitions: 3 },
      fewer: { topicId: 'f', partitions: 3 },
    });
    const after = shapes({
      kept: { topicId: 'k', partitions: 4 },
      again: { topicId: 'a2', partitions: 1 },
      fewer: { topicId: 'f', partitions: 1 },
      added: { topicId: 'n', partitions: 1 },
    });
    expect(keys(deletedPartitions(before, after))).toEqual([
      'again:0',
      'again:1',
      'again:2',
      'fewer:1',
      'fewer:2',
      'gone:0',
      'gone:1',
    ]);
  });

  it('finds nothing when nothing was removed', () => {
    const same = shapes({ t: { topicId: 'x', partitions: 3 } });
    expect(deletedPartitions(same, same)).toEqual([]);
    expect(deletedPartitions(new Map(), same)).toEqual([]);
  });

  it('is exactly the partitions of before that after does not have under the same topic id', () => {
    const shape = fc.record({ topicId: fc.constantFrom('a', 'b'), partitions: fc.integer({ min: 0, max: 4 }) });
    const topics = fc.dictionary(fc.constantFrom('t1', 't2', 't3'), shape);
    fc.assert(
      fc.property(topics, topics, (b, a) => {
        const before = shapes(b);
        const after = shapes(a);
        const model: string[] = [];
        for (const [topic, old] of before) {
          for (let p = 0; p < old.partitions; p++) {
            const now = after.get(topic);
            if (now === undefined || now.topicId !== old.topicId || p >= now.partitions) model.push(`${topic}:${p}`);
          }
        }
        expect(keys(deletedPartitions(before, after))).toEqual(model.sort());
      }),
    );
  });
});

describe('missingPartitions', () => {
  it('keeps the stored partitions the current topics do not have', () => {
    const current = shapes({ t: { topicId: 'x', partitions: 2 } });
    const stored = [
      { topic: 't', partition: 0 },
      { topic: 't', partition: 2 },
      { topic: 'u', partition: 0 },
    ];
    expect(keys(missingPartitions(stored, current))).toEqual(['t:2', 'u:0']);
  });
});
