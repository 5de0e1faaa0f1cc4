// The fast reading of a REST Proxy v2 produce body in a schema format (v2-schema-produce.ts has the format): a
// byte-level scan of the raw body that checks its JSON syntax and the records' shape and notes where each record's
// key and value text lies, so that the values can be encoded from their text once their schemas are known
// (wire-format-spans.ts, encodeWireFormatTextSpans) with no JSON tree of the whole body.
//
// Like the binary scanner (v2-binary/v2-binary-body.ts) it takes a strict subset of what the full path (parseJson,
// then v2SchemaRecords' checks) takes and means the same by it: valid UTF-8 and JSON no deeper than JSON_DEPTH_MAX,
// an object whose members are records (an array of one or more objects) and the schema members (each read with
// JSON.parse of its text, as the full path reads them), at most once each; records whose members are key, value and
// partition (null, or a plain integer of up to 15 digits, no "-0"), at most once each. Other members are skipped,
// as the full path ignores them, when their names have no escape. Anything else (any JSON error, an escape in a
// member name, a repeated member, a record of another shape) answers null, and the caller parses the body the full
// way, which answers it exactly as before. v2-schema-body.property.spec.ts checks this on generated bodies.
import { isUtf8 } from 'node:buffer';
import {
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  isDigit,
  LOWER_N,
  MINUS,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  skipJsonString,
  skipJsonValue,
  skipWhitespace,
  ZERO,
  type SkipNotes,
} from '../../application/schemas/json-text.js';
import { type FieldTexts, KEY_ESCAPED, VALUE_ESCAPED } from '../../application/schemas/wire-format-spans.js';

/** The body members besides records that v2-schema-produce.ts reads. */
export type SchemaMember = 'key_schema' | 'key_schema_id' | 'value_schema' | 'value_schema_id';
const SCHEMA_MEMBERS: ReadonlySet<string> = new Set(['key_schema', 'key_schema_id', 'value_schema', 'value_schema_id']);

const RECORDS = Buffer.from('"records"', 'latin1');
const KEY = Buffer.from('"key"', 'latin1');
const VALUE = Buffer.from('"value"', 'latin1');
const PARTITION = Buffer.from('"partition"', 'latin1');

/** Partitions of up to this many digits are read here (always a safe integer). */
const PARTITION_DIGITS_MAX = 15;
/** Records the columns have room for at first (doubled as needed). */
const COLUMNS_INITIAL = 1024;

/** A v2 schema-format produce body the scanner understood: its schema members and its records' texts. */
export class ScannedSchemaBody {
  constructor(
    /** The body, owned by this object (scanV2SchemaBody's caller writes it no more). */
    readonly text: Buffer,
    /** The schema members present, as JSON.parse reads them. */
    readonly members: ReadonlyMap<SchemaMember, unknown>,
    readonly count: number,
    /** The keys' and values' texts; a key or value that is null or absent has keyAt (valueAt) -1. */
    readonly fields: FieldTexts,
    /** Each record's partition member (null when absent or null); null when no record has one. */
    readonly partitions: Array<number | null> | null,
  ) {}

  member(name: SchemaMember): unknown {
    return this.members.get(name);
  }

  /** Whether any record has a key (value) that is not null. */
  has(field: 'key' | 'value'): boolean {
    const at = field === 'key' ? this.fields.keyAt : this.fields.valueAt;
    for (let i = 0; i < this.count; i++) if (at[i] >= 0) return true;
    return false;
  }
}

/** Thrown inside the scan for anything it does not take; scanV2SchemaBody answers null. */
const NOT_UNDERSTOOD = new Error('not understood by the v2 schema body scanner');

/**
 * Scans a v2 schema-format produce body; null when the full path should read it (see the header). `depthMax` is the
 * full path's bound on nesting (a deeper body is left to it to refuse). The answer keeps `body`, which nothing may
 * write after (the body parser gives it a buffer of its own).
 */
export function scanV2SchemaBody(body: Buffer, depthMax: number): ScannedSchemaBody | null {
  if (body.length === 0 || !isUtf8(body)) return null;
  try {
    return new SchemaBodyScan(body, depthMax).body();
  } catch (error) {
    if (error === NOT_UNDERSTOOD) return null;
    throw error;
  }
}

function expect(condition: boolean): void {
  if (!condition) throw NOT_UNDERSTOOD;
}

class SchemaBodyScan {
  private count = 0;
  private keyAt = new Int32Array(COLUMNS_INITIAL);
  private keyEnd = new Int32Array(COLUMNS_INITIAL);
  private valueAt = new Int32Array(COLUMNS_INITIAL);
  private valueEnd = new Int32Array(COLUMNS_INITIAL);
  private escaped = new Uint8Array(COLUMNS_INITIAL);
  /** Each record's partition member, NaN when absent or null; made when a record first has one. */
  private partition: Float64Array | null = null;
  private readonly notes: SkipNotes = { escaped: false };
  /** The closing quote of the member name read last. */
  private nameEnd = 0;

  constructor(
    private readonly text: Buffer,
    private readonly depthMax: number,
  ) {}

  body(): ScannedSchemaBody {
    const text = this.text;
    const members = new Map<SchemaMember, unknown>();
    let records = false;
    let i = skipWhitespace(text, 0);
    expect(text[i] === OPEN_BRACE);
    i = skipWhitespace(text, i + 1);
    if (text[i] !== CLOSE_BRACE) {
      for (;;) {
        const nameAt = i;
        i = this.member(nameAt);
        if (this.named(nameAt, RECORDS)) {
          expect(!records);
          records = true;
          i = this.records(i);
        } else {
          const end = this.skipValue(i, 1);
          const name = text.toString('utf8', nameAt + 1, this.nameEnd);
          if (SCHEMA_MEMBERS.has(name)) {
            expect(!members.has(name as SchemaMember));
            members.set(name as SchemaMember, JSON.parse(text.toString('utf8', i, end)));
          }
          i = end;
        }
        i = skipWhitespace(text, i);
        if (text[i] === CLOSE_BRACE) break;
        expect(text[i] === COMMA);
        i = skipWhitespace(text, i + 1);
      }
    }
    expect(records && skipWhitespace(text, i + 1) === text.length);
    const count = this.count;
    const fields: FieldTexts = {
      text,
      keyAt: this.keyAt.subarray(0, count),
      keyEnd: this.keyEnd.subarray(0, count),
      valueAt: this.valueAt.subarray(0, count),
      valueEnd: this.valueEnd.subarray(0, count),
      escaped: this.escaped.subarray(0, count),
    };
    let partitions: Array<number | null> | null = null;
    const partition = this.partition;
    if (partition !== null) {
      partitions = new Array<number | null>(count);
      for (let r = 0; r < count; r++) partitions[r] = Number.isNaN(partition[r]) ? null : partition[r];
    }
    return new ScannedSchemaBody(text, members, count, fields, partitions);
  }

  /**
   * The member (its name with no escapes) at `at`: `nameEnd` is set to its name's closing quote; answers where its
   * value starts.
   */
  private member(at: number): number {
    const text = this.text;
    expect(text[at] === QUOTE);
    this.notes.escaped = false;
    const end = skipJsonString(text, at, this.notes);
    expect(end > 0 && !this.notes.escaped);
    this.nameEnd = end - 1;
    const colon = skipWhitespace(text, end);
    expect(text[colon] === COLON);
    return skipWhitespace(text, colon + 1);
  }

  /** Whether the member name that starts at `at` (its quote) is `name` (quoted). */
  private named(at: number, name: Buffer): boolean {
    if (this.nameEnd - at + 1 !== name.length) return false;
    for (let i = 1; i < name.length - 1; i++) if (this.text[at + i] !== name[i]) return false;
    return true;
  }

  /** The end of the JSON value at `at` inside `depth` containers; notes.escaped tells whether it has escapes. */
  private skipValue(at: number, depth: number): number {
    this.notes.escaped = false;
    const end = skipJsonValue(this.text, at, depth, this.depthMax, this.notes);
    expect(end > 0);
    return end;
  }

  /** The records array (one or more records) at `at`; answers its end. */
  private records(at: number): number {
    const text = this.text;
    expect(text[at] === OPEN_BRACKET);
    let i = skipWhitespace(text, at + 1);
    for (;;) {
      i = this.record(i);
      i = skipWhitespace(text, i);
      if (text[i] === CLOSE_BRACKET) return i + 1;
      expect(text[i] === COMMA);
      i = skipWhitespace(text, i + 1);
    }
  }

  /** One record at `at` (inside the body and the records array), noted as record `count`; answers its end. */
  private record(at: number): number {
    const text = this.text;
    expect(text[at] === OPEN_BRACE);
    const index = this.count++;
    this.room(index);
    this.keyAt[index] = -1;
    this.valueAt[index] = -1;
    this.escaped[index] = 0;
    if (this.partition !== null) this.partition[index] = NaN;
    let seen = 0;
    let i = skipWhitespace(text, at + 1);
    if (text[i] === CLOSE_BRACE) return i + 1;
    for (;;) {
      const nameAt = i;
      const valueAt = this.member(nameAt);
      const key = this.named(nameAt, KEY);
      if (key || this.named(nameAt, VALUE)) {
        const bit = key ? KEY_ESCAPED : VALUE_ESCAPED;
        expect((seen & bit) === 0);
        seen |= bit;
        i = this.skipValue(valueAt, 3);
        if (!isNull(text, valueAt)) {
          (key ? this.keyAt : this.valueAt)[index] = valueAt;
          (key ? this.keyEnd : this.valueEnd)[index] = i;
          if (this.notes.escaped) this.escaped[index] |= bit;
        }
      } else if (this.named(nameAt, PARTITION)) {
        expect((seen & 4) === 0);
        seen |= 4;
        i = this.partitionMember(index, valueAt);
      } else {
        i = this.skipValue(valueAt, 3);
      }
      i = skipWhitespace(text, i);
      if (text[i] === CLOSE_BRACE) return i + 1;
      expect(text[i] === COMMA);
      i = skipWhitespace(text, i + 1);
    }
  }

  /** A partition member's value: null, or a plain integer (no fraction, exponent or "-0"). */
  private partitionMember(index: number, at: number): number {
    const text = this.text;
    if (isNull(text, at)) return this.skipValue(at, 3);
    let i = at;
    const negative = text[i] === MINUS;
    if (negative) i++;
    const digitsAt = i;
    let value = 0;
    while (isDigit(text[i])) value = value * 10 + (text[i++] - ZERO);
    const digits = i - digitsAt;
    expect(digits > 0 && digits <= PARTITION_DIGITS_MAX && (text[digitsAt] !== ZERO || digits === 1));
    expect(!(negative && value === 0) && this.skipValue(at, 3) === i);
    if (this.partition === null) this.partition = new Float64Array(this.keyAt.length).fill(NaN);
    this.partition[index] = negative ? -value : value;
    return i;
  }

  /** Room in the columns for record `index`. */
  private room(index: number): void {
    if (index < this.keyAt.length) return;
    const capacity = 2 * this.keyAt.length;
    const grown = (column: Int32Array) => {
      const copy = new Int32Array(capacity);
      copy.set(column);
      return copy;
    };
    this.keyAt = grown(this.keyAt);
    this.keyEnd = grown(this.keyEnd);
    this.valueAt = grown(this.valueAt);
    this.valueEnd = grown(this.valueEnd);
    const escaped = new Uint8Array(capacity);
    escaped.set(this.escaped);
    this.escaped = escaped;
    if (this.partition !== null) {
      const partition = new Float64Array(capacity);
      partition.set(this.partition);
      this.partition = partition;
    }
  }
}

function isNull(text: Buffer, at: number): boolean {
  return text[at] === LOWER_N;
}
