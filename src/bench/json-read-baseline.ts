// The baseline of W6's JSON read (http-bench.ts): a bare Node `http` server that holds the stored batches in memory
// (BENCH_FILE: the bytes Brook's raw read returned, batches end to end, as stored) and answers
// GET ...?offset=&max_bytes=&max_records= like Brook's stateless read with format=binary: the batches from the one
// holding `offset`, at most max_bytes of them (at least one), their records from `offset` on, at most max_records,
// each decoded (Kafka v2 layout, uncompressed, as the bench stores them) into Brook's record shape with base64 key
// and value and JSON.stringify'd with next_offset and high_watermark. No storage, no framework: the ceiling for a
// Node server that turns stored batches into this JSON.
export const JSON_READ_BASELINE = `
const http = require('node:http');
const fs = require('node:fs');
const data = fs.readFileSync(process.env.BENCH_FILE);
const HEADER_BYTES = 61;
const bases = [];
const positions = [];
for (let at = 0; at + HEADER_BYTES <= data.length; at += 12 + data.readInt32BE(at + 8)) {
  bases.push(Number(data.readBigInt64BE(at)));
  positions.push(at);
}
const lastAt = positions[positions.length - 1];
const highWatermark = Number(data.readBigInt64BE(lastAt)) + data.readInt32BE(lastAt + 23) + 1;
let at = 0;
function varint() {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = data[at++];
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) break;
    shift += 7;
  }
  return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
}
function bytes() {
  const length = varint();
  if (length < 0) return null;
  const text = data.toString('base64', at, at + length);
  at += length;
  return text;
}
http.createServer((req, res) => {
  const query = new URL(req.url, 'http://baseline').searchParams;
  if (!query.has('offset')) { res.end('{}'); return; }
  const offset = Number(query.get('offset'));
  const maxBytes = Number(query.get('max_bytes'));
  const maxRecords = Number(query.get('max_records'));
  let low = 0;
  let high = bases.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (bases[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  const records = [];
  let nextOffset = offset;
  let taken = 0;
  for (let b = low; b < positions.length && records.length < maxRecords; b++) {
    const start = positions[b];
    const size = 12 + data.readInt32BE(start + 8);
    if (b > low && taken + size > maxBytes) break;
    taken += size;
    const baseOffset = Number(data.readBigInt64BE(start));
    const baseTimestamp = Number(data.readBigInt64BE(start + 27));
    const count = data.readInt32BE(start + 57);
    at = start + HEADER_BYTES;
    for (let i = 0; i < count; i++) {
      const length = varint();
      const end = at + length;
      at++; // attributes
      const timestamp = baseTimestamp + varint();
      const recordOffset = baseOffset + varint();
      const key = bytes();
      const value = bytes();
      const headerCount = varint();
      const headers = [];
      for (let h = 0; h < headerCount; h++) {
        const nameLength = varint();
        const name = data.toString('utf8', at, at + nameLength);
        at += nameLength;
        headers.push({ name, value: bytes() });
      }
      at = end;
      if (recordOffset < offset) continue;
      if (records.length >= maxRecords) break;
      records.push({ partition: 0, offset: recordOffset, timestamp, key, value, headers });
      nextOffset = recordOffset + 1;
    }
  }
  const body = JSON.stringify({ records, next_offset: nextOffset, high_watermark: highWatermark });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.env.BENCH_PORT), '127.0.0.1');
`;
