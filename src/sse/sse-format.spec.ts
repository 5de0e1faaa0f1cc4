import { describe, expect, it } from 'vitest';
import { parseLastEventId, recordEvents } from './sse-format.js';

describe('SSE format', () => {
  it('writes one event per record with the position as id', () => {
    const record = { topic: 't', partition: 2, offset: 7, timestamp: 1, key: null, value: 'v', headers: [] };
    const json = JSON.stringify(record);
    expect(
      recordEvents(2, [
        { offset: 7, json },
        { offset: 8, json },
      ]),
    ).toBe(`id: 2:7\ndata: ${json}\n\nid: 2:8\ndata: ${json}\n\n`);
  });

  it('resumes one past each position named in Last-Event-ID', () => {
    expect(parseLastEventId(undefined, 3)).toEqual(new Map());
    expect(parseLastEventId('1:41', 3)).toEqual(new Map([[1, 42]]));
    expect(parseLastEventId('0:5, 2:0', 3)).toEqual(
      new Map([
        [0, 6],
        [2, 1],
      ]),
    );
  });

  it('rejects malformed or impossible positions', () => {
    expect(() => parseLastEventId('abc', 1)).toThrow(/partition:offset/);
    expect(() => parseLastEventId('0:-1', 1)).toThrow(/partition:offset/);
    expect(() => parseLastEventId('3:1', 3)).toThrow(/Partition 3 not found/);
    expect(() => parseLastEventId('0:1,0:2', 3)).toThrow(/twice/);
    expect(() => parseLastEventId('0:9999999999999999', 1)).toThrow(/too large/);
  });
});
