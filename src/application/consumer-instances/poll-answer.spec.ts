import { describe, expect, it } from 'vitest';
import { PollAnswer } from './poll-answer.js';

describe('PollAnswer', () => {
  it('is [] when nothing was added', () => {
    const answer = new PollAnswer();
    answer.reading(Buffer.alloc(0), 1024);
    expect(answer.count).toBe(0);
    expect(answer.finish().toString('utf8')).toBe('[]');
  });

  it('is the JSON array of the texts added, in order, across reads larger and smaller than announced', () => {
    const texts = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ offset: i, value: 'é😀'.repeat(i % 7) }));
    const answer = new PollAnswer();
    answer.reading(Buffer.alloc(10), 1 << 20); // announces far less than what follows: the buffer grows
    for (const text of texts.slice(0, 1500)) answer.add(text);
    answer.reading(Buffer.alloc(1 << 16), 100);
    for (const text of texts.slice(1500)) answer.add(text);
    expect(answer.count).toBe(2000);
    expect(JSON.parse(answer.finish().toString('utf8'))).toEqual(texts.map((text) => JSON.parse(text)));
  });

  it('takes records added without an announced read', () => {
    const answer = new PollAnswer();
    answer.add('{"a":1}');
    answer.add('{"b":"ü"}');
    expect(answer.finish().toString('utf8')).toBe('[{"a":1},{"b":"ü"}]');
  });
});
