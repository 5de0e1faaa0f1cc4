// Records serialised once per broker, not once per consumer: WebSocket subscriptions and SSE streams of the same
// partition in the same format read the same batches, so the JSON text of each record (Brook's record shape plus
// `topic`) is cached per batch and shared. Keyed by topic, partition, format and the batch's base offset, CRC and
// size, so a batch rewritten in place (compaction) is a different key. Least recently used entries are evicted
// past RECORD_JSON_CACHE_BYTES_MAX (string bytes counted as UTF-16). Streams that shared one read and ask for the
// same records get the same EncodedRun, whose joined JSON is built once. Pure: no I/O; records in a schema format
// are decoded with the registry's schemas (`schemas`), which the stream brings up to date first (prepare).
import { batchesIn, decodeRecords, lastOffsetOf } from '../../partition-log/record-batch.js';
import type { ReadFormat } from '../record-format.js';
import { JsonTextBuffer, recordJson } from '../record-json.js';
import type { SchemaLookup } from '../schemas/record-codec.js';
import { isSchemaReadFormat } from '../schemas/schema-fields.js';

/** The registry's schemas, as the cache decodes with them and the streams refresh them before a read is encoded. */
export interface StreamSchemas {
  readonly lookup: SchemaLookup;
  /** Resolves once every schema id the batches name is known here, if the registry has it. */
  prepare(batches: Buffer): Promise<void>;
}

export const RECORD_JSON_CACHE_BYTES_MAX = 32 * 1024 * 1024;
const ENTRY_OVERHEAD_BYTES = 64;

export interface EncodedRecord {
  offset: number;
  /** The record as JSON text. */
  json: string;
}

/** Consecutive records of one partition, as handed to every stream that asked for the same ones. */
export class EncodedRun {
  private joined: Buffer | null = null;

  constructor(readonly records: EncodedRecord[]) {}

  /** The records' JSON joined by commas (the inside of a JSON array), UTF-8; built once per run. */
  get joinedJson(): Buffer {
    if (this.joined === null) {
      let bytes = 0;
      for (const record of this.records) bytes += record.json.length + 1;
      const out = new JsonTextBuffer(bytes);
      for (let i = 0; i < this.records.length; i++) {
        if (i > 0) out.append(',');
        out.append(this.records[i].json);
      }
      this.joined = out.toBuffer();
    }
    return this.joined;
  }
}

interface Entry {
  records: EncodedRecord[];
  bytes: number;
}

interface Encoded {
  run: EncodedRun;
  nextOffset: number | null;
}

export class RecordJsonCache {
  private readonly entries = new Map<string, Entry>();
  /** Results per read buffer: streams that shared a read (SharedReads) and ask for the same records share one run. */
  private readonly runs = new WeakMap<Buffer, Map<string, Encoded>>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(
    readonly bytesMax = RECORD_JSON_CACHE_BYTES_MAX,
    private readonly schemas: StreamSchemas | null = null,
  ) {}

  /** Before encoding `batches` in `format`: brings the schemas they name up to date (schema formats only). */
  async prepare(batches: Buffer, format: ReadFormat): Promise<void> {
    if (this.schemas !== null && isSchemaReadFormat(format)) await this.schemas.prepare(batches);
  }

  get sizeBytes(): number {
    return this.bytes;
  }

  /** The records in `batches` from `fromOffset` on, at most `maxRecords`; nextOffset is the first not taken. */
  encode(
    batches: Buffer,
    topic: string,
    partition: number,
    format: ReadFormat,
    fromOffset: number,
    maxRecords: number,
  ): Encoded {
    const request = `${topic}\u0000${partition}\u0000${format}\u0000${fromOffset}\u0000${maxRecords}`;
    let results = this.runs.get(batches);
    if (results === undefined) this.runs.set(batches, (results = new Map()));
    let encoded = results.get(request);
    if (encoded === undefined) {
      encoded = this.encodeRecords(batches, topic, partition, format, fromOffset, maxRecords);
      results.set(request, encoded);
    }
    return encoded;
  }

  private encodeRecords(
    batches: Buffer,
    topic: string,
    partition: number,
    format: ReadFormat,
    fromOffset: number,
    maxRecords: number,
  ): Encoded {
    const records: EncodedRecord[] = [];
    for (const { header, position } of batchesIn(batches)) {
      if (lastOffsetOf(header) < fromOffset) continue;
      const key = `${topic}\u0000${partition}\u0000${format}\u0000${header.baseOffset}\u0000${header.crc}\u0000${header.sizeBytes}`;
      let entry = this.entries.get(key);
      if (entry === undefined) {
        this.misses++;
        entry = this.encodeBatch(batches.subarray(position, position + header.sizeBytes), topic, partition, format);
        this.entries.set(key, entry);
        this.bytes += entry.bytes;
        this.evict();
      } else {
        this.hits++;
        this.entries.delete(key);
        this.entries.set(key, entry);
      }
      for (const record of entry.records) {
        if (record.offset < fromOffset) continue;
        if (records.length >= maxRecords) return { run: new EncodedRun(records), nextOffset: record.offset };
        records.push(record);
      }
    }
    return { run: new EncodedRun(records), nextOffset: null };
  }

  private encodeBatch(batch: Buffer, topic: string, partition: number, format: ReadFormat): Entry {
    let bytes = ENTRY_OVERHEAD_BYTES;
    const records = decodeRecords(batch).map((record) => {
      const json = recordJson(record, partition, format, topic, this.schemas?.lookup);
      bytes += json.length * 2 + ENTRY_OVERHEAD_BYTES;
      return { offset: record.offset, json };
    });
    return { records, bytes };
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.bytesMax) return;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
    }
  }
}
