// Produce-to-delivery latency in the push benches (W2, W5): each record's value starts with its send time,
// "<ms>|", padded to the record size; a reader finds the send times in the JSON of a frame or answer.
const VALUE_MARK = Buffer.from('"value":"');

/** A record value of `bytes` bytes that starts with its send time. */
export function timedValue(sentMs: number, bytes: number): string {
  const head = `${sentMs.toFixed(3)}|`;
  return head + 'x'.repeat(bytes - head.length);
}

/** Calls `into` with the send time (ms) of each record in a frame or answer; returns how many it found. */
export function sendTimes(data: Buffer, into: (sentMs: number) => void): number {
  let count = 0;
  let at = data.indexOf(VALUE_MARK);
  while (at >= 0) {
    const start = at + VALUE_MARK.length;
    const end = data.indexOf(0x7c, start);
    into(Number(data.toString('latin1', start, end)));
    count++;
    at = data.indexOf(VALUE_MARK, end);
  }
  return count;
}
