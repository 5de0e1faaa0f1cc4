// An incremental parser of the Server-Sent Events wire format (WHATWG HTML, "event stream interpretation"):
// lines ending in LF, CR or CRLF; `field: value` lines; a blank line ends an event; lines starting with `:` are
// comments (the broker's keep-alives). The console reads SSE through fetch so that the Authorization header is
// sent (EventSource cannot send it), and feeds the decoded text here chunk by chunk.
export interface SseEvent {
  event: string;
  data: string;
  id: string | null;
}

/** A line longer than this is a broken stream, not a record (the broker's records are far smaller). */
export const SSE_LINE_CHARS_MAX = 16 * 1024 * 1024;

export class SseParser {
  private pending = '';
  private event = '';
  private data: string[] = [];
  private id: string | null = null;
  /** The last chunk ended in CR: a LF starting the next one is the rest of a CRLF. */
  private afterCr = false;

  /** Feeds a chunk of text; returns the events it completed. */
  push(chunk: string): SseEvent[] {
    if (this.afterCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
    if (chunk.length > 0) this.afterCr = false;
    this.pending += chunk;
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.pending.length; i++) {
      const char = this.pending[i];
      if (char !== '\n' && char !== '\r') continue;
      const line = this.pending.slice(start, i);
      if (char === '\r' && this.pending[i + 1] === '\n') i++;
      else if (char === '\r' && i + 1 === this.pending.length) this.afterCr = true;
      start = i + 1;
      const event = this.line(line);
      if (event !== null) events.push(event);
    }
    this.pending = this.pending.slice(start);
    if (this.pending.length > SSE_LINE_CHARS_MAX)
      throw new Error(`an event stream line is longer than ${SSE_LINE_CHARS_MAX} characters`);
    return events;
  }

  private line(line: string): SseEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
    return null;
  }

  private dispatch(): SseEvent | null {
    const event =
      this.data.length === 0 ? null : { event: this.event || 'message', data: this.data.join('\n'), id: this.id };
    this.event = '';
    this.data = [];
    return event;
  }
}
