// The v2 produce answer for the common case, written as bytes: every record of the request appended to one
// partition at consecutive offsets. Each entry is the same text but for its offset, so the buffer is filled with
// copies of the first entry (a few doubling copyWithin calls) and each copy's offset digits are then counted up,
// odometer-style: no per-entry strings, no UTF-8 encoding of a 66 KB string for the socket.
// v2-binary-body.property.spec.ts checks it against JSON.stringify of the generic answer.
// The buffer can come from AnswerBuffers: memory of answers already written to their sockets, filled again rather
// than a fresh 66 KB allocation per request (whose first touch, page faults, and collection cost more than the fill).
// That memory is free again once the response is written ('finish'), as long as nothing between the handler and the
// socket keeps the payload (no response compression, caching, or HTTP/2 stream here): adding such a layer must
// move the release to where it lets go of the bytes.

const PREFIX = Buffer.from('{"offsets":[', 'latin1');
/** An entry's text after its offset, ending in the comma before the next entry. */
const TAIL = Buffer.from(',"error_code":null,"error":null},', 'latin1');
/** What follows the last entry (its trailing comma becomes the ']'), without schema ids. */
const NO_SCHEMAS_SUFFIX = Buffer.from(',"key_schema_id":null,"value_schema_id":null}', 'latin1');
const CLOSE_BRACKET = 0x5d;
const ZERO = 0x30;
const NINE = 0x39;

/** Answers above this size are not kept for reuse (an answer of 1,000 records is about 66 KB). */
const REUSED_BYTES_MAX = 1024 * 1024;
/** Capacity is rounded up to a multiple of this, so that answers a few digits longer fit the same memory. */
const CAPACITY_STEP_BYTES = 16 * 1024;

/**
 * Memory for answers, reused: take() gives a buffer of the size asked (a view of a kept allocation when one is
 * large enough), release() gives it back once nothing refers to it any more, which for an answer is when its
 * response has been written (the response's 'finish'). A buffer never given back is simply collected. Holds at
 * most `kept` allocations of at most REUSED_BYTES_MAX.
 */
export class AnswerBuffers {
  private readonly free: ArrayBuffer[] = [];

  constructor(private readonly kept = 64) {}

  take(size: number): Buffer {
    const memory = this.free.pop();
    if (memory !== undefined && memory.byteLength >= size) return Buffer.from(memory, 0, size);
    if (size > REUSED_BYTES_MAX) return Buffer.allocUnsafe(size);
    const capacity = Math.min(REUSED_BYTES_MAX, Math.ceil(size / CAPACITY_STEP_BYTES) * CAPACITY_STEP_BYTES);
    return Buffer.from(Buffer.allocUnsafe(capacity).buffer, 0, size);
  }

  /** Gives back a buffer take() gave; it must not be used afterwards. */
  release(answer: Buffer): void {
    const memory = answer.buffer;
    if (memory instanceof ArrayBuffer && answer.byteOffset === 0 && memory.byteLength <= REUSED_BYTES_MAX) {
      // (given back twice, the memory would go to two answers at once)
      if (this.free.length < this.kept && !this.free.includes(memory)) this.free.push(memory);
    }
  }

  /** Allocations kept for reuse (tests). */
  get size(): number {
    return this.free.length;
  }
}

/** Fills buffer[start, start + length * count) with `count` copies of the `length` bytes at `start`. */
function repeat(buffer: Buffer, start: number, length: number, count: number): void {
  const total = length * count;
  for (let filled = length; filled < total; filled *= 2)
    buffer.copyWithin(start + filled, start, start + Math.min(filled, total - filled));
}

/**
 * JSON.stringify(v2ProduceAnswer(...)) for `count` records appended to `partition` at offsets first, first + 1, ...
 * (first -1 with acks=0: every offset is -1), and the request's schema ids (null: none).
 */
export function consecutiveOffsetsAnswer(
  partition: number,
  first: number,
  count: number,
  buffers: AnswerBuffers | null = null,
  keySchemaId: number | null = null,
  valueSchemaId: number | null = null,
): Buffer {
  const suffix =
    keySchemaId === null && valueSchemaId === null
      ? NO_SCHEMAS_SUFFIX
      : Buffer.from(`,"key_schema_id":${keySchemaId},"value_schema_id":${valueSchemaId}}`, 'latin1');
  const head = Buffer.from(`{"partition":${partition},"offset":`, 'latin1');
  // Runs of offsets with the same number of digits: [from, to] each
  const runs: Array<[number, number]> = [];
  if (first < 0) runs.push([first, first]);
  else {
    for (let from = first; from <= first + count - 1;) {
      const limit = 10 ** String(from).length - 1; // the largest offset with as many digits
      const to = Math.min(limit, first + count - 1);
      runs.push([from, to]);
      from = to + 1;
    }
  }
  let size = PREFIX.length + suffix.length;
  for (const [from, to] of runs) {
    const n = first < 0 ? count : to - from + 1;
    size += n * (head.length + String(from).length + TAIL.length);
  }
  const answer = buffers === null ? Buffer.allocUnsafe(size) : buffers.take(size);
  let at = PREFIX.copy(answer, 0);
  for (const [from, to] of runs) {
    const n = first < 0 ? count : to - from + 1;
    const digits = String(from);
    const entry = head.length + digits.length + TAIL.length;
    const start = at;
    head.copy(answer, start);
    answer.write(digits, start + head.length, 'latin1');
    TAIL.copy(answer, start + head.length + digits.length);
    repeat(answer, start, entry, n);
    if (first >= 0) {
      // Every copy holds the first offset's digits; count up in `current` (add 1 at the last digit and carry) and
      // write each copy the digits from the leftmost one that has changed so far.
      const current = Buffer.from(digits, 'latin1');
      const digitsAt = start + head.length;
      const last = digits.length - 1;
      let changedFrom = last;
      for (let k = 1; k < n; k++) {
        let d = last;
        while (current[d] === NINE) current[d--] = ZERO;
        current[d]++;
        if (d < changedFrom) changedFrom = d;
        const here = digitsAt + k * entry;
        for (let j = changedFrom; j <= last; j++) answer[here + j] = current[j];
      }
    }
    at = start + entry * n;
  }
  answer[at - 1] = CLOSE_BRACKET;
  suffix.copy(answer, at);
  return answer;
}
