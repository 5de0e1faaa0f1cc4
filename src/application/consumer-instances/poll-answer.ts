// The body of one v2 poll's answer: a JSON array of records in Brook's record shape (record-json.ts), each record's
// text written into one UTF-8 Buffer as soon as it is read. Texts are not kept until the end: the 10,000 texts of
// a 1 MiB poll of 100-byte records, held together, outlived the young generation, and the collector's work on them
// cost more than writing them (a broker profile under the G1 benchmark). The buffer is made when the first stored
// records are read, sized for them, so that a poll waiting for records holds none.
import { JsonTextBuffer } from '../record-json.js';

/** Room made per stored byte read: a 100-byte binary record takes about 110 bytes stored and 260 as JSON. */
const JSON_BYTES_PER_STORED_BYTE = 3;

export class PollAnswer {
  private out: JsonTextBuffer | null = null;
  private records = 0;

  get count(): number {
    return this.records;
  }

  /**
   * Stored batches whose records are about to be added, up to `budgetBytes` of keys and values: room is made for
   * their text at once (binary records take about 2.5 times their stored size as JSON), so that the buffer is
   * copied rarely while it grows.
   */
  reading(batches: Buffer, budgetBytes: number): void {
    if (batches.length === 0) return;
    const expected = JSON_BYTES_PER_STORED_BYTE * Math.min(batches.length, budgetBytes) + 1024;
    if (this.out === null) {
      this.out = new JsonTextBuffer(expected);
      this.out.append('[');
    } else {
      this.out.reserve(expected);
    }
  }

  add(recordJson: string): void {
    if (this.out === null) {
      this.out = new JsonTextBuffer(recordJson.length + 2);
      this.out.append('[');
    }
    if (this.records > 0) this.out.append(',');
    this.out.append(recordJson);
    this.records++;
  }

  /** The array's text, UTF-8; nothing may be added after. */
  finish(): Buffer {
    if (this.out === null) return Buffer.from('[]');
    this.out.append(']');
    return this.out.toBuffer();
  }
}
