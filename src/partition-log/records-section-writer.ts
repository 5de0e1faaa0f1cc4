// Writes a batch's records section in place while its records' keys and values are being encoded: the layout of
// record-batch-builder.ts's encodeSpansBatch (each record: its body length varint, attributes 0, timestamp delta 0,
// offset delta = its index, key length varint and key, value length varint and value, header count 0), after
// BATCH_HEADER_BYTES left free for frameSpansBatch, with no intermediate buffer to frame from.
//
// A key's or value's bytes are written by the caller at `at` between beginField and endField, before their length
// is known; so are a record's, between beginRecord and endRecord. Each length varint's place is reserved with the
// size the same field (record) took in the previous record, the usual case for a request's records, which are
// mostly alike; when the length needs another size the bytes written since are moved once (copyWithin).
import { BATCH_HEADER_BYTES } from './record-batch-layout.js';
import { varintSize, writeVarint } from './varint.js';

/** Positions are kept in Int32Arrays (as the scanned records' are). */
const SECTION_BYTES_MAX = 0x7fff_ffff;
/** The most bytes of a record's framing besides its key's and value's length varints. */
const RECORD_FIXED_BYTES_MAX = 5 + 1 + 1 + 5 + 1;
/** A length varint of a field or record body (below 2 GiB). */
const LENGTH_BYTES_MAX = 5;

/** The records section of one batch being written: data[BATCH_HEADER_BYTES, at) holds the records so far. */
export class RecordsSectionWriter {
  data: Buffer;
  at = BATCH_HEADER_BYTES;
  private recordAt = 0;
  private recordLengthBytes = 1;
  private readonly fieldLengthBytes = [1, 1];
  private fieldLengthAt = 0;
  private fieldSlot = 0;

  /** `expectedBytes`: what the records are expected to take (the buffer grows past it as needed). */
  constructor(expectedBytes: number) {
    this.data = Buffer.allocUnsafe(Math.min(SECTION_BYTES_MAX, BATCH_HEADER_BYTES + Math.max(expectedBytes, 64)));
  }

  /** Room for `bytes` more bytes at `at`, what is written so far kept. */
  ensure(bytes: number): void {
    const needed = this.at + bytes;
    if (needed <= this.data.length) return;
    if (needed > SECTION_BYTES_MAX) throw new RangeError(`a batch's records exceed ${SECTION_BYTES_MAX} bytes`);
    const grown = Buffer.allocUnsafe(Math.min(SECTION_BYTES_MAX, Math.max(needed, 2 * this.data.length)));
    this.data.copy(grown, 0, 0, this.at);
    this.data = grown;
  }

  /** Starts record `offsetDelta` (its index in the batch): its framing up to its key. */
  beginRecord(offsetDelta: number): void {
    this.ensure(this.recordLengthBytes + RECORD_FIXED_BYTES_MAX + LENGTH_BYTES_MAX);
    this.recordAt = this.at;
    const data = this.data;
    let at = this.at + this.recordLengthBytes;
    data[at++] = 0; // attributes
    data[at++] = 0; // timestamp delta 0
    this.at = writeVarint(data, at, offsetDelta);
  }

  /** A null key or value (length -1). */
  nullField(): void {
    this.ensure(1);
    this.at = writeVarint(this.data, this.at, -1);
  }

  /** Reserves the length of the key (slot 0) or value (slot 1) to be written next; answers where its bytes start. */
  beginField(slot: 0 | 1): number {
    const lengthBytes = this.fieldLengthBytes[slot];
    this.ensure(lengthBytes);
    this.fieldSlot = slot;
    this.fieldLengthAt = this.at;
    this.at += lengthBytes;
    return this.at;
  }

  /** Drops what was written since the last beginField, its length's place with it. */
  abandonField(): void {
    this.at = this.fieldLengthAt;
  }

  /** Ends the field whose bytes start at `start` (beginField's answer) and end at `at`; answers where they start. */
  endField(start: number): number {
    const length = this.at - start;
    const reserved = start - this.fieldLengthAt;
    const lengthBytes = varintSize(length);
    const moved = this.moved(start, lengthBytes - reserved);
    this.fieldLengthBytes[this.fieldSlot] = lengthBytes;
    writeVarint(this.data, this.fieldLengthAt, length);
    return start + moved;
  }

  /** Ends the record begun last (its header count, then its length); answers how far its bytes moved. */
  endRecord(): number {
    this.ensure(1);
    this.data[this.at++] = 0; // header count 0
    const bodyAt = this.recordAt + this.recordLengthBytes;
    const lengthBytes = varintSize(this.at - bodyAt);
    const moved = this.moved(bodyAt, lengthBytes - this.recordLengthBytes);
    this.recordLengthBytes = lengthBytes;
    writeVarint(this.data, this.recordAt, this.at - bodyAt - moved);
    return moved;
  }

  /** Moves the bytes from `start` to `at` by `by` (either way); answers `by`. */
  private moved(start: number, by: number): number {
    if (by === 0) return 0;
    if (by > 0) this.ensure(by);
    this.data.copyWithin(start + by, start, this.at);
    this.at += by;
    return by;
  }
}
