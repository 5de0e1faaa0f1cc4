// CRC-32C, the checksum of Kafka's record batches: the native addon built from native/crc32c.c (three interleaved
// SSE4.2 streams, ~20 GB/s here) when `npm run build` could build it and it loads, else @node-rs/crc32 (one stream,
// ~5 GB/s). BROOK_NATIVE_CRC32C=false forces the fallback. Both give the same value (crc32c.spec.ts).
import { crc32c as nodeRsCrc32c } from '@node-rs/crc32';
import { loadAddonFunction } from '../common/native-addon.js';

type Crc32c = (bytes: Uint8Array) => number;

/** The native implementation, or null when it is not available here. */
export const nativeCrc32c: Crc32c | null = loadAddonFunction<Crc32c>('crc32c', 'crc32c', 'BROOK_NATIVE_CRC32C');

/** The portable implementation (always available). */
export const portableCrc32c: Crc32c = (bytes) => nodeRsCrc32c(bytes as Buffer) >>> 0;

/** CRC-32C of `bytes` as an unsigned 32-bit number. */
export const crc32c: Crc32c = nativeCrc32c ?? portableCrc32c;

export const crc32cImplementation: 'native-sse4.2' | '@node-rs/crc32' =
  nativeCrc32c === null ? '@node-rs/crc32' : 'native-sse4.2';
