// Records serialised once per broker, not once per consumer: WebSocket subscriptions and SSE streams of the same
// partition in the same format read the same batches, so the JSON text of each record (Brook's record shape plus
// `topic`) is cached per batch and shared. Keyed by topic, partition, format and the batch's base offset, CRC and
// size, so a batch rewritten in place (compaction) is a different key. A batch's texts are kept joined by commas
// in one UTF-8 Buffer (EncodedBatch), so a run of records within one batch is a view of it, shared by every
// stream that asks for those records, and the cached texts are no JS-heap strings for the garbage collector to
// copy. Each batch's text is written into one scratch buffer the cache keeps (at most SCRATCH_BYTES_MAX) and then
// copied at its exact length: a buffer of twice the batch's size a batch, dropped at once, made W5's broker free
// 10 MB of external memory a second in scavenges. String and binary batches are written straight from their bytes
// (stored-batch-json.ts: no record object a record); the other formats through decodeRecords' records. Least
// recently used entries are evicted past RECORD_JSON_CACHE_BYTES_MAX (the bytes they hold), and an entry no stream
// asked for in RECORD_JSON_CACHE_IDLE_MS is dropped (at the next encode). Why the second bound: streams near the log
// end (caught up, or a few frames behind) ask for a batch within milliseconds of each other and never again, and a
// text kept for seconds (32 MB of a 10,000 records/s stream is 3 s) outlived two young-generation collections: V8
// promoted its Buffer, and promoted external memory goes only in a mark-compact. W5's broker then ran one every
// 0.4-0.8 s (V8 counts the external memory allocated since the last mark-compact against the old generation's
// headroom; see BENCHMARKS.md). Streams that shared one read and ask for the same records get the same EncodedRun.
// Pure: no I/O; records in a schema format are decoded with the registry's schemas (`schemas`), which the stream
// brings up to date first (prepare).
import { batchesIn, decodeRecords, lastOffsetOf } from '../../partition-log/record-batch.js';
import type { ReadFormat } from '../record-format.js';
import { JsonTextBuffer, jsonSizeHint, writeRecordJson } from '../record-json.js';
import type { SchemaLookup } from '../schemas/record-codec.js';
import { isBytesFormat, writeStoredBatchJson, type WrittenBatch } from '../stored-batch-json.js';
import { isSchemaReadFormat } from '../schemas/schema-fields.js';
import { type Clock, systemClock } from '../../common/clock.js';

/** The registry's schemas, as the cache decodes with them and the streams refresh them before a read is encoded. */
export interface StreamSchemas {
  readonly lookup: SchemaLookup;
  /** Resolves once every schema id the batches name is known here, if the registry has it. */
  prepare(batches: Buffer): Promise<void>;
}

export const RECORD_JSON_CACHE_BYTES_MAX = 32 * 1024 * 1024;
/** An entry no stream asked for in this long is dropped: shorter than the time between two young-generation
 *  collections of a streaming broker (0.4-1 s in W5 once its young generation has grown to 16 MB). */
export const RECORD_JSON_CACHE_IDLE_MS = 100;
const ENTRY_OVERHEAD_BYTES = 64;
/** Largest scratch buffer kept between batches; a batch whose text needs more gets a buffer of its own. */
export const SCRATCH_BYTES_MAX = 1024 * 1024;

export interface EncodedRecord {
  offset: number;
  /** The record as JSON text. */
  json: string;
}

/**
 * One stored batch's records as JSON: their texts joined by commas in one UTF-8 Buffer (off the JS heap, so the
 * cache's texts cost the young-generation collector nothing to keep), each record's offset, and where each text
 * starts (`starts[i]`; `starts[count]` is one past the end, as if a comma followed the last).
 */
class EncodedBatch {
  constructor(
    readonly json: Buffer,
    readonly offsets: Float64Array,
    readonly starts: Uint32Array,
    /** When a stream last asked for it (monotonic ms). */
    public usedMs: number,
  ) {}

  get count(): number {
    return this.offsets.length;
  }

  get bytes(): number {
    return this.json.length + this.offsets.byteLength + this.starts.byteLength + ENTRY_OVERHEAD_BYTES;
  }

  /** Records [from, to) joined by commas: a view of this batch's Buffer. */
  joined(from: number, to: number): Buffer {
    return this.json.subarray(this.starts[from], this.starts[to] - 1);
  }

  text(index: number): string {
    return this.json.toString('utf8', this.starts[index], this.starts[index + 1] - 1);
  }
}

interface Piece {
  batch: EncodedBatch;
  from: number;
  to: number;
}

/** Consecutive records of one partition, as handed to every stream that asked for the same ones. */
export class EncodedRun {
  private joined: Buffer | null = null;
  private texts: EncodedRecord[] | null = null;
  readonly count: number;

  constructor(private readonly pieces: Piece[]) {
    let count = 0;
    for (const { from, to } of pieces) count += to - from;
    this.count = count;
  }

  /** The offset of the last record (-1 when the run is empty). */
  get lastOffset(): number {
    const last = this.pieces.at(-1);
    return last === undefined ? -1 : last.batch.offsets[last.to - 1];
  }

  /** The records one by one, with their JSON as strings (SSE events); built once per run. */
  get records(): EncodedRecord[] {
    if (this.texts === null) {
      this.texts = [];
      for (const { batch, from, to } of this.pieces) {
        for (let i = from; i < to; i++) this.texts.push({ offset: batch.offsets[i], json: batch.text(i) });
      }
    }
    return this.texts;
  }

  /**
   * The records' JSON joined by commas (the inside of a JSON array), UTF-8: a view of the cached batch when the
   * run lies in one batch, else built once per run.
   */
  get joinedJson(): Buffer {
    if (this.joined === null) {
      const parts = this.pieces.map(({ batch, from, to }) => batch.joined(from, to));
      if (parts.length === 1) this.joined = parts[0];
      else {
        const withCommas: Buffer[] = [];
        for (const part of parts) withCommas.push(...(withCommas.length > 0 ? [COMMA, part] : [part]));
        this.joined = Buffer.concat(withCommas);
      }
    }
    return this.joined;
  }
}

const COMMA = Buffer.from(',');

interface Encoded {
  run: EncodedRun;
  nextOffset: number | null;
}

export class RecordJsonCache {
  private readonly entries = new Map<string, EncodedBatch>();
  /** Results per read buffer: streams that shared a read (SharedReads) and ask for the same records share one run. */
  private readonly runs = new WeakMap<Buffer, Map<string, Encoded>>();
  private bytes = 0;
  private scratch = new JsonTextBuffer(0);
  hits = 0;
  misses = 0;

  constructor(
    readonly bytesMax = RECORD_JSON_CACHE_BYTES_MAX,
    private readonly schemas: StreamSchemas | null = null,
    private readonly clock: Clock = systemClock,
    readonly idleMs = RECORD_JSON_CACHE_IDLE_MS,
  ) {}

  /** Whether `prepare` has anything to do for this format (schema formats: their schemas fetched). */
  preparesFor(format: ReadFormat): boolean {
    return this.schemas !== null && isSchemaReadFormat(format);
  }

  /** Before encoding `batches` in `format`: brings the schemas they name up to date (schema formats only). */
  async prepare(batches: Buffer, format: ReadFormat): Promise<void> {
    if (this.schemas !== null && isSchemaReadFormat(format)) await this.schemas.prepare(batches);
  }

  get sizeBytes(): number {
    return this.bytes;
  }

  /** Memory the scratch buffer keeps between batches (at most SCRATCH_BYTES_MAX). */
  get scratchBytes(): number {
    return this.scratch.capacityBytes;
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
    const pieces: Piece[] = [];
    let taken = 0;
    const nowMs = this.clock.monotonicMs();
    this.dropIdle(nowMs);
    for (const { header, position } of batchesIn(batches)) {
      if (lastOffsetOf(header) < fromOffset) continue;
      const key = `${topic}\u0000${partition}\u0000${format}\u0000${header.baseOffset}\u0000${header.crc}\u0000${header.sizeBytes}`;
      let batch = this.entries.get(key);
      if (batch === undefined) {
        this.misses++;
        const stored = batches.subarray(position, position + header.sizeBytes);
        batch = this.encodeBatch(stored, topic, partition, format, nowMs);
        this.entries.set(key, batch);
        this.bytes += batch.bytes;
        this.evict();
      } else {
        this.hits++;
        batch.usedMs = nowMs;
        this.entries.delete(key);
        this.entries.set(key, batch);
      }
      let from = 0;
      while (from < batch.count && batch.offsets[from] < fromOffset) from++;
      const to = Math.min(batch.count, from + maxRecords - taken);
      if (to > from) pieces.push({ batch, from, to });
      taken += to - from;
      if (to < batch.count) return { run: new EncodedRun(pieces), nextOffset: batch.offsets[to] };
    }
    return { run: new EncodedRun(pieces), nextOffset: null };
  }

  private encodeBatch(
    stored: Buffer,
    topic: string,
    partition: number,
    format: ReadFormat,
    usedMs: number,
  ): EncodedBatch {
    const sizeHint = jsonSizeHint(stored);
    const out = sizeHint <= SCRATCH_BYTES_MAX ? this.scratch : new JsonTextBuffer(sizeHint);
    out.clear(sizeHint);
    const { offsets, starts } = isBytesFormat(format)
      ? writeStoredBatchJson(out, stored, topic, partition, format)
      : this.writeDecodedRecords(out, stored, topic, partition, format);
    // a copy of the exact length, so that the cache holds no unused room (and the scratch can take the next batch)
    const text = out.toBuffer();
    const json = Buffer.allocUnsafeSlow(text.length);
    json.set(text); // Buffer.from(text) took twice as long (a zero-filled copy)
    if (this.scratch.capacityBytes > SCRATCH_BYTES_MAX) this.scratch = new JsonTextBuffer(0);
    return new EncodedBatch(json, offsets, starts, usedMs);
  }

  /** The formats whose key and value are decoded (json, the schema formats): through each record's object. */
  private writeDecodedRecords(
    out: JsonTextBuffer,
    stored: Buffer,
    topic: string,
    partition: number,
    format: ReadFormat,
  ): WrittenBatch {
    const records = decodeRecords(stored);
    const offsets = new Float64Array(records.length);
    const starts = new Uint32Array(records.length + 1);
    for (let i = 0; i < records.length; i++) {
      if (i > 0) out.append(',');
      starts[i] = out.byteLength;
      offsets[i] = records[i].offset;
      writeRecordJson(out, records[i], partition, format, topic, this.schemas?.lookup);
    }
    starts[records.length] = out.byteLength + 1;
    return { offsets, starts };
  }

  /** Drops the entries no stream asked for in idleMs (the map is in order of last use: they come first). */
  private dropIdle(nowMs: number): void {
    for (const [key, batch] of this.entries) {
      if (nowMs - batch.usedMs < this.idleMs) return;
      this.entries.delete(key);
      this.bytes -= batch.bytes;
    }
  }

  private evict(): void {
    for (const [key, batch] of this.entries) {
      if (this.bytes <= this.bytesMax) return;
      this.entries.delete(key);
      this.bytes -= batch.bytes;
    }
  }
}
