// The fast path of REST Proxy v2 binary produce (POST /topics/{t}[/partitions/{p}]): a byte-level scanner over the
// raw request body for the shape clients send, {"records":[{"value":"<base64>"},{"key":..,"partition":..,..}]},
// that validates the JSON and the base64 and decodes keys and values straight into a record batch laid out for the
// common case (every record of the request in one batch, in request order: a partition route, or keyless records
// on the sticky partition), with no JSON tree, no UTF-8 decode of the body and no per-record strings or Buffers.
// The body is framed first (every record's framing written, each key's and value's base64 text noted with the place
// of its decoded bytes), then all the texts are checked and decoded in one call (base64-spans.ts: native AVX2).
// When the request's records do go to one batch, that buffer only needs its header and CRC (frameSpansBatch);
// otherwise each partition's batch is encoded from the keys' and values' spans in it (encodeSpansBatch).
//
// The scanner accepts a strict subset of what the full path (parseJson, then the v2 controller's checks) accepts
// and means the same by it: anything it does not fully understand (escapes in strings, other members, duplicate
// members, numbers that are not plain integers, invalid base64, bytes outside ASCII, an empty records array, any
// JSON error) returns null, and the caller takes the full path, which gives the same records or the same error as
// before. v2-binary-body.property.spec.ts checks this on generated bodies.
//
// Where the native loop is built (v2-plain-records.ts), runs of records of the plain shape {"value":"<base64>"} are
// framed and decoded by it, record after record, up to a record it does not take or the separator after a run, both
// read here; it only takes records it has checked completely, so the scanner still decides what a body means.
// Without it, most records are read by a guess: the plain shape with a value as long as the previous record's, its
// fixed bytes compared in three reads; the decode then checks every byte of the value (no quote among them, so the
// guessed closing quote is the first). When the decode succeeds every guess held, and the records are those the
// general reading gives. When it fails, or the framing does not understand the body after a guess, the body is
// framed again without guesses (every string's end found by its first quote): what the scanner takes and
// refuses is what the general reading alone takes and refuses.
import { NOT_UNDERSTOOD, scan, type Guessing } from './v2-binary-scan.js';
import { type FramePlainRecords, nativeFramePlainRecords } from './v2-plain-records.js';
import type { LaidOutRecords } from '../../application/produce/laid-out-records.js';

/**
 * Scans a v2 binary produce body. Returns its records, or null when the body is anything but the plain shape (the
 * caller then parses it the full way, which answers errors exactly as before). `framePlain` frames runs of plain
 * records natively (v2-plain-records.ts); null reads every record here (the tests compare both).
 */
export function scanV2BinaryBody(
  body: Buffer,
  framePlain: FramePlainRecords | null = nativeFramePlainRecords,
): LaidOutRecords | null {
  // The native loop reads runs of plain records itself; the scanner guesses them only without it.
  const guessing = framePlain === null ? { guessed: false } : null;
  const records = scanOrNull(body, guessing, framePlain);
  // A guess that did not hold makes the decode fail (or the framing go astray): frame the body again without them.
  return records === null && guessing?.guessed === true ? scanOrNull(body, null, framePlain) : records;
}

function scanOrNull(
  body: Buffer,
  guessing: Guessing | null,
  framePlain: FramePlainRecords | null,
): LaidOutRecords | null {
  try {
    return scan(body, guessing, framePlain);
  } catch (error) {
    if (error === NOT_UNDERSTOOD) return null;
    throw error;
  }
}
