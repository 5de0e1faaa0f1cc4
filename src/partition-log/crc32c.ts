// CRC-32C, the checksum of Kafka's record batches: the native addon built from native/crc32c.c (three interleaved
// SSE4.2 streams, ~20 GB/s here) when `npm run build` could build it and it loads, else @node-rs/crc32 (one stream,
// ~5 GB/s). BROOK_NATIVE_CRC32C=false forces the fallback. Both give the same value (crc32c.spec.ts).
import { createRequire } from 'node:module';
import { crc32c as nodeRsCrc32c } from '@node-rs/crc32';

type Crc32c = (bytes: Uint8Array) => number;

/** Where the addon lies from this module: dist/partition-log -> dist/native, src/partition-log -> dist/native. */
const ADDON_PATHS = ['../native/crc32c.node', '../../dist/native/crc32c.node'];

function loadNative(): Crc32c | null {
  if (process.env.BROOK_NATIVE_CRC32C === 'false') return null;
  const require = createRequire(import.meta.url);
  for (const path of ADDON_PATHS) {
    try {
      const addon = require(path) as { crc32c?: Crc32c };
      if (typeof addon.crc32c === 'function') return addon.crc32c;
    } catch {
      // not built here, or this CPU lacks SSE4.2: try the next path, then fall back
    }
  }
  return null;
}

/** The native implementation, or null when it is not available here. */
export const nativeCrc32c: Crc32c | null = loadNative();

/** The portable implementation (always available). */
export const portableCrc32c: Crc32c = (bytes) => nodeRsCrc32c(bytes as Buffer) >>> 0;

/** CRC-32C of `bytes` as an unsigned 32-bit number. */
export const crc32c: Crc32c = nativeCrc32c ?? portableCrc32c;

export const crc32cImplementation: 'native-sse4.2' | '@node-rs/crc32' =
  nativeCrc32c === null ? '@node-rs/crc32' : 'native-sse4.2';
