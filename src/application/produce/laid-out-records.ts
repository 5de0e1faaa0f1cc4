// What the edges' produce scanners (the v2 binary and schema body scanners under http/, the WebSocket produce frame
// scanner under ws/) make of a request they understood: the records, laid out as one batch's records section with
// each key's and value's place in it (ProduceService.produceScanned takes them as they are), and the growth of those
// columns and that buffer while a scanner fills them.

/** Positions are kept in Int32Arrays: a batch past 2 GiB is left to the full path. */
export const POSITION_MAX = 0x7fffffff;

/**
 * The most bytes a laid-out record's framing takes besides its key and value bytes: length, attributes, timestamp
 * and offset deltas, key and value lengths (varints), header count.
 */
export const RECORD_FRAMING_BYTES_MAX = 5 + 1 + 1 + 5 + 5 + 5 + 1;

/**
 * The records of a produce request a scanner understood. `data` holds them as the records section of one
 * batch (every record, in order, with offset delta = its index and timestamp delta 0) in [BATCH_HEADER_BYTES,
 * `end`), the header's place left free before it; record i's key is data[keyAt[i], keyAt[i] + keyLength[i]) or
 * null when keyLength[i] is -1, its value likewise. `partitions[i]` is the record's own partition field (null when
 * absent or null); `partitions` itself is null when no record names one. `keyed` is false when no record has a key.
 */
export class LaidOutRecords {
  constructor(
    readonly count: number,
    readonly data: Buffer,
    readonly end: number,
    readonly keyAt: Int32Array,
    readonly keyLength: Int32Array,
    readonly valueAt: Int32Array,
    readonly valueLength: Int32Array,
    readonly partitions: Array<number | null> | null,
    readonly keyed: boolean,
  ) {}

  key(i: number): Buffer | null {
    const length = this.keyLength[i];
    return length < 0 ? null : this.data.subarray(this.keyAt[i], this.keyAt[i] + length);
  }

  value(i: number): Buffer | null {
    const length = this.valueLength[i];
    return length < 0 ? null : this.data.subarray(this.valueAt[i], this.valueAt[i] + length);
  }
}

/** `column` copied into a column of `capacity` records. */
export function withCapacity(column: Int32Array<ArrayBuffer>, capacity: number): Int32Array<ArrayBuffer> {
  const copy = new Int32Array(capacity);
  copy.set(column);
  return copy;
}

/** `data` with room for `needed` bytes (doubled at least, never past Int32), its first `written` kept. */
export function grownData(data: Buffer, written: number, needed: number): Buffer<ArrayBuffer> {
  const grown = Buffer.allocUnsafe(Math.min(POSITION_MAX, Math.max(2 * data.length, needed)));
  data.copy(grown, 0, 0, written);
  return grown;
}
