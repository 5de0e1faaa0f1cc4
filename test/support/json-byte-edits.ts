// Byte-level edits of a JSON text, for the property tests of the scanners that read bodies and frames from their
// bytes (the v2 schema body scanner, the WebSocket produce frame scanner): a run of bytes cut, one byte changed, a
// piece inserted. Each edit's position wraps around the text's length, so any position is valid.
import fc from 'fast-check';

export type ByteEdit =
  | { kind: 'cut'; at: number; length: number }
  | { kind: 'set'; at: number; byte: number }
  | { kind: 'insert'; at: number; bytes: string };

/** Pieces inserted as the one byte they name ('\xff', '\xc3': not UTF-8 on their own); any other piece is its UTF-8. */
const LONE_BYTES: ReadonlySet<string> = new Set(['\xff', '\xc3']);

/** One edit: cut 1-4 bytes, set one byte, or insert one of `pieces`. */
export function byteEdit(pieces: readonly string[]): fc.Arbitrary<ByteEdit> {
  return fc.oneof(
    fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 4 }) }),
    fc.record({ kind: fc.constant('set' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.constantFrom(...pieces) }),
  );
}

/** `source` with `edits` applied in order (a new Buffer when anything changed; `source` is never written). */
export function edited(source: Buffer, edits: readonly ByteEdit[]): Buffer {
  let bytes = source;
  for (const change of edits) {
    const at = change.at % (bytes.length + 1);
    if (change.kind === 'cut') bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + change.length)]);
    else if (change.kind === 'set') {
      bytes = Buffer.from(bytes);
      if (at < bytes.length) bytes[at] = change.byte;
    } else {
      const inserted = LONE_BYTES.has(change.bytes) ? Buffer.from(change.bytes, 'latin1') : Buffer.from(change.bytes);
      bytes = Buffer.concat([bytes.subarray(0, at), inserted, bytes.subarray(at)]);
    }
  }
  return bytes;
}
