import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseParser } from './sse-parser';

describe('SseParser', () => {
  it('parses events with ids, named events and comments', () => {
    const parser = new SseParser();
    const events = parser.push(': keep-alive\nid: 0:1\ndata: {"a":1}\n\nevent: assigned\ndata: x\ndata: y\n\n');
    expect(events).toEqual([
      { event: 'message', data: '{"a":1}', id: '0:1' },
      { event: 'assigned', data: 'x\ny', id: '0:1' },
    ]);
  });

  it('gives the same events however the text is split, with LF, CR or CRLF line ends', () => {
    const eventArb = fc.record({
      data: fc.string({ unit: fc.constantFrom('a', 'b', '{', '"', ' ', ':') }),
      id: fc.string({ unit: fc.constantFrom('0', '1', ':') }),
    });
    fc.assert(
      fc.property(
        fc.array(eventArb, { maxLength: 5 }),
        fc.constantFrom('\n', '\r', '\r\n'),
        fc.array(fc.nat()),
        (list, eol, cuts) => {
          const text = list.map((e) => `id: ${e.id}${eol}data: ${e.data}${eol}${eol}`).join('');
          const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
          const parser = new SseParser();
          const events = [];
          let from = 0;
          for (const point of [...points, text.length]) {
            events.push(...parser.push(text.slice(from, point)));
            from = point;
          }
          expect(events).toEqual(list.map((e) => ({ event: 'message', data: e.data, id: e.id })));
        },
      ),
    );
  });

  it('refuses a line over the bound instead of growing without end', () => {
    const parser = new SseParser();
    expect(() => parser.push('data: ' + 'x'.repeat(16 * 1024 * 1024))).toThrow(/longer than/);
  });
});
