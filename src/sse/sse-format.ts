// Server-Sent Events of GET .../topics/{t}/records:stream, the pure part: one event per record, whose `id:` is
// the record's position `partition:offset` and whose `data:` is the record JSON (the record shape of Brook's read,
// plus `topic`), and the parsing of `Last-Event-ID` on reconnect. A browser's EventSource sends back the id of the
// last event it saw, so a one-partition topic resumes exactly. For several partitions Brook also accepts a comma
// list of positions (`0:41,1:17,2:9`), which clients that track positions themselves send; a partition not named
// starts where `from` says.
import { errors } from '../common/brook-error.js';
import type { EncodedRecord } from '../application/streaming/record-json-cache.js';

/** The events of records of one partition, concatenated; each ends with a blank line. */
export function recordEvents(partition: number, records: EncodedRecord[]): string {
  let text = '';
  for (const record of records) text += `id: ${partition}:${record.offset}\ndata: ${record.json}\n\n`;
  return text;
}

export const HEARTBEAT_EVENT = ': heartbeat\n\n';

export function errorEvent(errorCode: number, message: string): string {
  return `event: error\ndata: ${JSON.stringify({ error_code: errorCode, message })}\n\n`;
}

/** A throttle began: the stream is over the principal's consumer quota and waits about `waitMs`. */
export function throttledEvent(quota: string, waitMs: number): string {
  return `event: throttled\ndata: ${JSON.stringify({ quota, wait_ms: waitMs })}\n\n`;
}

/** Partition -> the offset to resume from (one past the position named), from a Last-Event-ID header. */
export function parseLastEventId(header: string | undefined, partitions: number): Map<number, number> {
  const resume = new Map<number, number>();
  if (header === undefined || header.trim() === '') return resume;
  for (const position of header.split(',')) {
    const match = /^\s*(\d{1,9}):(\d{1,16})\s*$/.exec(position);
    if (match === null)
      throw errors.badRequest(`Last-Event-ID must be partition:offset[,partition:offset...], got '${header}'.`);
    const partition = Number(match[1]);
    const offset = Number(match[2]);
    if (partition >= partitions) throw errors.partitionNotFound(partition);
    if (!Number.isSafeInteger(offset + 1)) throw errors.badRequest(`Last-Event-ID offset ${match[2]} is too large.`);
    if (resume.has(partition)) throw errors.badRequest(`Last-Event-ID names partition ${partition} twice.`);
    resume.set(partition, offset + 1);
  }
  return resume;
}
