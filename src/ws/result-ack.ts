// The `ack` frame of a scanned produce frame (produce-frame-scanner.ts), written from the produce's result (its
// refusals and one append per partition) without an outcome object per record: the same text as
// ws-protocol.ts's ackFrame of the outcomes ProduceService.produce() builds for the same result, as its UTF-8 bytes:
// the session sends them as the text frame they are, with no string of the ack (~4 KB for 100 records) made on the
// JS heap and encoded again by `ws`.
import type { BrookError } from '../common/brook-error.js';
import { outcomeField } from '../common/brook-error.js';
import { isReplay, type ProduceResult } from '../application/produce/produce.service.js';
import { errorFrameCode, type FrameId } from './ws-protocol.js';

/** The bytes of an ok entry besides its two numbers: {"partition":,"offset":}, and a comma. */
const OK_ENTRY_BYTES = 27;
/** The most characters of a JavaScript number printed as an integer (a sign and 16 digits, or a safe integer's). */
const INTEGER_CHARS_MAX = 17;
/**
 * An ok entry's fixed text, as bytes: written with Buffer.write piece by piece (four strings a record), the ack of
 * W5's 100 records took 43-75 us, on the path between the write's completion and the records frame it wakes.
 */
const PARTITION_PIECE = Buffer.from('{"partition":');
const OFFSET_PIECE = Buffer.from(',"offset":');
const COMMA = 0x2c;
const CLOSING_BRACE = 0x7d;

/** Text written into a growing buffer, its UTF-8 bytes read back. */
class AckText {
  private bytes: Buffer;
  private at = 0;

  constructor(bytesHint: number) {
    this.bytes = Buffer.allocUnsafe(bytesHint);
  }

  text(text: string): void {
    this.room(Buffer.byteLength(text));
    this.at += this.bytes.write(text, this.at, 'utf8');
  }

  /** Text already held as UTF-8 bytes (the fixed pieces of an ok entry): copied, no string encoded. */
  piece(bytes: Buffer): void {
    this.room(bytes.length);
    this.bytes.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** One ASCII character, by its code. */
  character(code: number): void {
    this.room(1);
    this.bytes[this.at++] = code;
  }

  /** A safe integer as JSON.stringify writes it. */
  integer(value: number): void {
    this.room(INTEGER_CHARS_MAX);
    const bytes = this.bytes;
    let rest = value;
    if (rest < 0) {
      bytes[this.at++] = 0x2d;
      rest = -rest;
    }
    let digits = 1;
    for (let power = 10; power <= rest; power *= 10) digits++;
    for (let i = this.at + digits - 1; i >= this.at; i--) {
      bytes[i] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    this.at += digits;
  }

  /** The text's bytes: a view of the buffer written into. */
  written(): Buffer {
    return this.bytes.subarray(0, this.at);
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.bytes.length, this.at + bytes));
    this.bytes.copy(grown, 0, 0, this.at);
    this.bytes = grown;
  }
}

function errorEntry(partition: number | null, error: BrookError): string {
  return JSON.stringify({
    partition,
    offset: null,
    error_code: errorFrameCode(error),
    message: error.message,
    ...outcomeField(error),
  });
}

/**
 * The error a produce of `count` records fails with when every record failed (the first record's, as the session
 * throws it for the full path), or null when some record was appended.
 */
export function allFailedError(result: ProduceResult, count: number): BrookError | null {
  let failed = result.refused.size;
  let first = result.refused.get(0)?.error ?? null;
  for (const group of result.appended) {
    if (group.error === null) return null;
    failed += group.indexes.length;
    if (group.indexes[0] === 0) first = group.error;
  }
  return failed === count ? first : null;
}

/** The ack of a produce of `count` records with `result`: ackFrame(id, produceOutcomes(result, ...)), as UTF-8. */
export function resultAckFrame(id: FrameId, result: ProduceResult, count: number): Buffer {
  // each record's append (its index in result.appended, -1: refused) and its position in that append's batch
  const groupOf = new Int32Array(count).fill(-1);
  const positionOf = new Int32Array(count);
  result.appended.forEach((group, g) => {
    const { indexes } = group;
    for (let position = 0; position < indexes.length; position++) {
      groupOf[indexes[position]] = g;
      positionOf[indexes[position]] = position;
    }
  });
  const ack = new AckText(64 + count * (OK_ENTRY_BYTES + 12));
  ack.text(`{"op":"ack","id":${JSON.stringify(id)},"offsets":[`);
  for (let i = 0; i < count; i++) {
    if (i > 0) ack.character(COMMA);
    const g = groupOf[i];
    if (g < 0) {
      const refusal = result.refused.get(i);
      if (refusal === undefined) throw new Error(`record ${i} of ${count} has neither an append nor a refusal`);
      ack.text(errorEntry(refusal.partition, refusal.error));
      continue;
    }
    const { partition, info, error } = result.appended[g];
    if (error !== null) {
      ack.text(errorEntry(partition, error));
      continue;
    }
    ack.piece(PARTITION_PIECE);
    ack.integer(partition);
    ack.piece(OFFSET_PIECE);
    ack.integer(info === null ? -1 : info.firstOffset + positionOf[i]);
    ack.character(CLOSING_BRACE);
  }
  ack.text(isReplay(result) ? '],"replayed":true}' : ']}');
  return ack.written();
}
