import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32c, crc32cImplementation, nativeCrc32c, portableCrc32c } from './crc32c.js';

/**
 * Where `npm run build` can build the addon (x86-64 Linux with a C compiler and Node's headers), it must load: a
 * build that quietly failed there fails this test. (Run after `npm run build`, as the test command does.)
 */
const [compiler, ...compilerArgs] = (process.env.CC ?? 'cc').trim().split(/\s+/);
const buildable =
  process.platform === 'linux' &&
  process.arch === 'x64' &&
  spawnSync(compiler, [...compilerArgs, '--version']).status === 0 &&
  existsSync(join(dirname(dirname(process.execPath)), 'include', 'node', 'node_api.h'));

describe('crc32c', () => {
  it("gives CRC-32C's check value for '123456789' (0xE3069283)", () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(portableCrc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc32c(Buffer.alloc(0))).toBe(0);
  });

  it('uses the native addon where it was built', () => {
    if (buildable) expect(crc32cImplementation).toBe('native-sse4.2');
    else expect(crc32cImplementation).toBe(nativeCrc32c === null ? '@node-rs/crc32' : 'native-sse4.2');
  });

  it.skipIf(nativeCrc32c === null)(
    'property: the native three-stream CRC equals @node-rs/crc32 for any bytes, length and alignment',
    () => {
      const native = nativeCrc32c!;
      // lengths around the addon's 3 x 4096-byte runs and their tails, at any offset inside a larger buffer
      const length = fc.oneof(
        fc.integer({ min: 0, max: 64 }),
        fc.integer({ min: 12_280, max: 12_300 }),
        fc.integer({ min: 0, max: 150_000 }),
      );
      fc.assert(
        fc.property(length, fc.integer({ min: 0, max: 15 }), fc.integer(), (size, offset, seed) => {
          const backing = Buffer.allocUnsafe(size + offset);
          let x = seed | 0;
          for (let i = 0; i < backing.length; i++) {
            x = (Math.imul(x, 1103515245) + 12345) | 0;
            backing[i] = x >>> 24;
          }
          const bytes = backing.subarray(offset);
          expect(native(bytes)).toBe(portableCrc32c(bytes));
        }),
        { numRuns: 300 },
      );
    },
  );

  it.skipIf(nativeCrc32c === null)('the native addon refuses what is not a Uint8Array', () => {
    const native = nativeCrc32c as unknown as (value: unknown) => number;
    expect(() => native('text')).toThrow(TypeError);
    expect(() => native(new Uint16Array(4))).toThrow(TypeError);
    expect(() => native(undefined)).toThrow(TypeError);
  });
});
