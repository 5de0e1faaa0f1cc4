// One stored batch's records walked in place (layout in record-batch-layout.ts), for a writer that copies their
// fields' bytes somewhere else (the record JSON of WebSocket and SSE streams, record-json-cache.ts): one cursor a
// batch and no object or Buffer view a record. After next() the cursor's fields describe the current record: its
// offset and timestamp (as decodeRecords gives them, LogAppendTime included) and where its key and value lie in
// `body` (the batch's records section, decompressed once). Each step checks what decodeRecords checks (a record
// running past its batch, a bad header count, a null header key, trailing bytes, bytes after the last record) and
// throws the same CorruptBatchError; compressed batches inflate under the same bound.
import {
  BATCH_BYTES_MAX,
  CorruptBatchError,
  timestampTypeOf,
  TimestampType,
  type BatchHeader,
  type RecordHeader,
} from './record-batch-layout.js';
import { recordsSectionOf } from './record-batch-reader.js';
import { VarintReader } from './varint.js';

export class RecordCursor {
  /** The batch's records section: key and value positions are indexes into it. */
  readonly body: Buffer;
  readonly count: number;
  offset = 0;
  timestamp = 0;
  keyStart = 0;
  /** -1: a null key. */
  keyLength = -1;
  valueStart = 0;
  /** -1: a null value. */
  valueLength = -1;
  headerCount = 0;
  private headersStart = 0;
  private index = 0;
  private readonly header: BatchHeader;
  private readonly logAppendTime: boolean;
  private readonly reader: VarintReader;

  constructor(batch: Buffer, maxDecompressedBytes = BATCH_BYTES_MAX) {
    const { header, body } = recordsSectionOf(batch, maxDecompressedBytes);
    this.header = header;
    this.body = body;
    this.count = header.recordCount;
    this.logAppendTime = timestampTypeOf(header) === TimestampType.LogAppendTime;
    this.reader = new VarintReader(body, 0, body.length);
  }

  /** Steps to the next record; false after the last one. */
  next(): boolean {
    if (this.index === this.count) {
      if (this.reader.position !== this.body.length) {
        throw new CorruptBatchError('batch has bytes after its last record');
      }
      return false;
    }
    try {
      this.readRecord();
    } catch (error) {
      // VarintReader reports a field running past its record as a RangeError (as decodeRecords turns it).
      if (error instanceof RangeError) throw new CorruptBatchError(error.message);
      throw error;
    }
    this.index++;
    return true;
  }

  /** The current record's headers (decoded: objects, for the rare record that has any). */
  headers(): RecordHeader[] {
    const reader = new VarintReader(this.body, this.headersStart, this.body.length);
    const headers = new Array<RecordHeader>(this.headerCount);
    for (let h = 0; h < this.headerCount; h++) {
      const key = reader.readBytes();
      if (key === null) throw new CorruptBatchError('null header key');
      headers[h] = { key: key.toString('utf8'), value: reader.readBytes() };
    }
    return headers;
  }

  private readRecord(): void {
    const reader = this.reader;
    const i = this.index;
    reader.moveTo(reader.position, this.body.length);
    const length = reader.readVarint();
    const end = reader.position + length;
    if (length < 0 || end > this.body.length) throw new CorruptBatchError(`record ${i} runs past its batch`);
    reader.moveTo(reader.position, end);
    reader.readInt8();
    const timestampDelta = reader.readVarint();
    const offsetDelta = reader.readVarint();
    this.keyLength = reader.skipBytes();
    this.keyStart = reader.position - Math.max(this.keyLength, 0);
    this.valueLength = reader.skipBytes();
    this.valueStart = reader.position - Math.max(this.valueLength, 0);
    const headerCount = reader.readVarint();
    if (headerCount < 0 || headerCount > length) throw new CorruptBatchError(`bad header count ${headerCount}`);
    this.headerCount = headerCount;
    this.headersStart = reader.position;
    for (let h = 0; h < headerCount; h++) {
      if (reader.skipBytes() === -1) throw new CorruptBatchError('null header key');
      reader.skipBytes();
    }
    if (reader.position !== end) throw new CorruptBatchError(`record ${i} has trailing bytes`);
    this.offset = this.header.baseOffset + offsetDelta;
    this.timestamp = this.logAppendTime ? this.header.maxTimestamp : this.header.baseTimestamp + timestampDelta;
  }
}
