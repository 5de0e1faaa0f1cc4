// A topic's records as Server-Sent Events (GET .../records:stream), read with fetch streaming so that the
// user's Authorization header is sent; each `data:` is one record (base64 keys and values with format=binary,
// decoded JSON with a schema format).
import { authHeaders, errorFrom, FETCH_CREDENTIALS, noteUnauthorized } from './client';
import { SseParser } from './sse-parser';
import { toConsoleRecord, type ConsoleRecord, type DecodeFormat } from '../lib/records';

export interface RecordStreamOptions {
  clusterId: string;
  topic: string;
  from: 'earliest' | 'latest';
  format: DecodeFormat;
  signal: AbortSignal;
  onRecords(records: ConsoleRecord[]): void;
}

/** Reads until the stream ends or `signal` aborts; rejects with the broker's error when it refuses the stream. */
export async function streamRecords(options: RecordStreamOptions): Promise<void> {
  const path = `/v3/clusters/${encodeURIComponent(options.clusterId)}/topics/${encodeURIComponent(options.topic)}/records:stream`;
  const auth = authHeaders();
  const response = await fetch(`${path}?from=${options.from}&format=${options.format}`, {
    headers: { accept: 'text/event-stream', ...auth },
    signal: options.signal,
    credentials: FETCH_CREDENTIALS,
  });
  noteUnauthorized(response, auth.authorization ?? null);
  if (!response.ok || response.body === null) {
    const body: unknown = await response.json().catch(() => null);
    throw errorFrom(response, body);
  }
  const parser = new SseParser();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) return;
    const records = parser
      .push(value)
      .filter((event) => event.event === 'message')
      .map((event) => toConsoleRecord(JSON.parse(event.data), options.format));
    if (records.length > 0) options.onRecords(records);
  }
}
