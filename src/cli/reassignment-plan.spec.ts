import { describe, expect, it } from 'vitest';
import { UsageError } from './errors.js';
import {
  formatReassignmentJson,
  parseBrokerList,
  parseElectionJson,
  parseReassignmentJson,
  parseTopicsToMoveJson,
  proposeAssignment,
  verify,
  verifyLine,
} from './reassignment-plan.js';

describe('reassignment files', () => {
  it("reads Kafka's reassignment JSON (log_dirs ignored) and writes it back", () => {
    const text =
      '{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[2,3,4],"log_dirs":["any","any","any"]}]}';
    const parsed = parseReassignmentJson(text, 'plan.json');
    expect(parsed).toEqual([{ topic: 't', partition: 0, replicas: [2, 3, 4] }]);
    expect(formatReassignmentJson(parsed)).toBe(text);
  });

  it.each([
    ['not json', /not valid JSON/],
    ['[]', /must hold a JSON object/],
    ['{"version":2,"partitions":[]}', /unsupported version 2/],
    ['{"partitions":[]}', /non-empty "partitions"/],
    ['{"partitions":[{"partition":0,"replicas":[1]}]}', /topic is missing/],
    ['{"partitions":[{"topic":"t","partition":-1,"replicas":[1]}]}', /partition must be/],
    ['{"partitions":[{"topic":"t","partition":0,"replicas":[]}]}', /non-empty list of broker ids/],
    [
      '{"partitions":[{"topic":"t","partition":0,"replicas":[1]},{"topic":"t","partition":0,"replicas":[2]}]}',
      /more than once/,
    ],
  ])('refuses %s', (text, message) => {
    expect(() => parseReassignmentJson(text, 'plan.json')).toThrow(message);
    expect(() => parseReassignmentJson(text, 'plan.json')).toThrow(UsageError);
  });

  it('reads the topics to move, the election file and the broker list', () => {
    expect(parseTopicsToMoveJson('{"version":1,"topics":[{"topic":"a"},{"topic":"b"},{"topic":"a"}]}', 'f')).toEqual([
      'a',
      'b',
    ]);
    expect(parseElectionJson('{"partitions":[{"topic":"a","partition":1}]}', 'f')).toEqual([
      { topic: 'a', partition: 1 },
    ]);
    expect(parseBrokerList('1, 2,3')).toEqual([1, 2, 3]);
    expect(() => parseBrokerList('1,x')).toThrow(/broker ids/);
    expect(() => parseBrokerList('1,1')).toThrow(/twice/);
  });
});

describe('--generate', () => {
  it('keeps each topic replication factor and uses only the listed brokers, spread evenly', () => {
    const current = [0, 1, 2, 3].map((partition) => ({ topic: 't', partition, replicas: [1, 2, 3] }));
    const proposed = proposeAssignment(current, [3, 4, 5, 6], () => 0);
    expect(proposed.map((entry) => entry.partition)).toEqual([0, 1, 2, 3]);
    for (const entry of proposed) {
      expect(entry.replicas).toHaveLength(3);
      expect(new Set(entry.replicas).size).toBe(3);
      for (const broker of entry.replicas) expect([3, 4, 5, 6]).toContain(broker);
    }
    expect(new Set(proposed.map((entry) => entry.replicas[0])).size).toBe(4);
    expect(() => proposeAssignment(current, [1, 2], () => 0)).toThrow(/replication factor 3/);
  });
});

describe('--verify', () => {
  it('tells complete, in progress and neither apart', () => {
    const wanted = [
      { topic: 't', partition: 0, replicas: [2, 3, 4] },
      { topic: 't', partition: 1, replicas: [2, 3, 4] },
      { topic: 't', partition: 2, replicas: [2, 3, 4] },
    ];
    const current: Record<number, number[]> = { 0: [2, 3, 4], 1: [2, 3, 4, 1], 2: [1, 2, 3] };
    const results = verify(wanted, new Set(['t-1']), (_, partition) => current[partition]);
    expect(results.map((result) => result.status)).toEqual(['complete', 'in_progress', 'mismatch']);
    expect(results.map(verifyLine)).toEqual([
      'Reassignment of partition t-0 is completed.',
      'Reassignment of partition t-1 is still in progress.',
      'There is no active reassignment of partition t-2, but replica set is 1,2,3 rather than 2,3,4.',
    ]);
  });
});
