import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { open, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { batchOf, makeTempDir, removeDir } from '../../test/support/log-fixtures.js';
import { record } from '../../test/support/record-batch-fixtures.js';
import { nativeWritevChecked } from './native-append.js';
import { encodeBatch } from './record-batch-builder.js';
import { BATCH_BYTES_MAX, readBatchHeader } from './record-batch-layout.js';
import { validateClientRecords } from './record-batch-validation.js';

const lenient = { keysRequired: false, maxDecompressedBytes: BATCH_BYTES_MAX };

/** As in crc32c.spec.ts: where `npm run build` can build the addon, the native append must be there. */
const [compiler, ...compilerArgs] = (process.env.CC ?? 'cc').trim().split(/\s+/);
const buildable =
  process.platform === 'linux' &&
  process.arch === 'x64' &&
  process.env.BROOK_NATIVE_APPEND !== 'false' &&
  process.env.BROOK_NATIVE_CRC32C !== 'false' &&
  spawnSync(compiler, [...compilerArgs, '--version']).status === 0 &&
  existsSync(join(dirname(dirname(process.execPath)), 'include', 'node', 'node_api.h'));

describe('native append (writevChecked)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('brook-native-append-');
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  it.skipIf(!buildable)('is there wherever the addon can be built', () => {
    expect(nativeWritevChecked).not.toBeNull();
  });

  describe.skipIf(nativeWritevChecked === null)('where built', () => {
    const write = nativeWritevChecked!;

    it('writes every buffer end to end at the position, more than IOV_MAX of them, and resolves to []', async () => {
      const path = join(dir, 'f');
      const file = await open(path, 'w+');
      try {
        await file.write(Buffer.from('0123456789'), 0, 10, 0);
        const buffers = Array.from({ length: 2500 }, (_, i) => Buffer.from(`<${i}>`));
        expect(await write(file.fd, buffers, 4, [])).toEqual([]);
        expect(await readFile(path, 'utf8')).toBe(`0123${buffers.map(String).join('')}`);
      } finally {
        await file.close();
      }
    });

    it('checks the CRC of the listed batches first: with a corrupt one nothing is written', async () => {
      const path = join(dir, 'f');
      const file = await open(path, 'w+');
      try {
        const good = [batchOf({ value: 'a' }), batchOf({ value: 'b' }), batchOf({ value: 'c' })];
        const corrupt = Buffer.from(good[1]);
        corrupt[corrupt.length - 1] ^= 0x01;
        const alsoCorrupt = Buffer.from(good[2]);
        alsoCorrupt[30] ^= 0x80;
        expect(await write(file.fd, [good[0], corrupt, alsoCorrupt], 0, [0, 1, 2])).toEqual([1, 2]);
        expect((await stat(path)).size).toBe(0);
        // a batch not listed is not checked (Brook's own encoder built it)
        expect(await write(file.fd, [good[0], corrupt], 0, [0])).toEqual([]);
        expect((await stat(path)).size).toBe(good[0].length + corrupt.length);
        // too short to hold a CRC: corrupt
        expect(await write(file.fd, [Buffer.alloc(20)], 0, [0])).toEqual([0]);
      } finally {
        await file.close();
      }
    });

    it('walks the records of the listed batches that `walk` marks, after their CRC: a failed walk writes nothing', async () => {
      const path = join(dir, 'f');
      const file = await open(path, 'w+');
      try {
        const good = encodeBatch([record(), record()]);
        const badDeltas = encodeBatch([record(), record()], { offsetDeltas: [0, 2], lastOffsetDelta: 1 });
        const keyless = encodeBatch([record(), record({ key: null })]);
        // the walk's verdicts are the JavaScript walk's
        expect(() => validateClientRecords(badDeltas, readBatchHeader(badDeltas), lenient)).toThrow(/offset delta/);
        expect(() => validateClientRecords(keyless, readBatchHeader(keyless), lenient)).not.toThrow();
        expect(await write(file.fd, [good, badDeltas], 0, [0, 1], [1, 1])).toEqual([1]);
        expect(await write(file.fd, [good, keyless], 0, [0, 1], [2, 2])).toEqual([1]);
        expect((await stat(path)).size).toBe(0);
        // 1: keys optional; 0 or no array: not walked; a batch not in `check` is not walked either
        expect(await write(file.fd, [keyless], 0, [0], [1])).toEqual([]);
        expect(await write(file.fd, [badDeltas], 0, [0], [0])).toEqual([]);
        expect(await write(file.fd, [badDeltas], 0, [0])).toEqual([]);
        expect(await write(file.fd, [badDeltas], 0, [], [1])).toEqual([]);
        expect((await stat(path)).size).toBe(Math.max(keyless.length, badDeltas.length)); // each at 0
        expect(() => write(file.fd, [good], 0, [0], [3])).toThrow(TypeError);
      } finally {
        await file.close();
      }
    });

    it('rejects a failed write with the error fs would give: message, code, errno, syscall', async () => {
      const path = join(dir, 'f');
      await (await open(path, 'w')).close();
      const readOnly = await open(path, 'r');
      try {
        let fsError: unknown;
        await readOnly.write(Buffer.from('x'), 0, 1, 0).catch((error: unknown) => (fsError = error));
        const { message, code, errno, syscall } = fsError as NodeJS.ErrnoException;
        expect(code).toBe('EBADF');
        await expect(write(readOnly.fd, [Buffer.from('x')], 0, [])).rejects.toMatchObject({
          message,
          code,
          errno,
          syscall,
        });
      } finally {
        await readOnly.close();
      }
    });

    it('resumes after a short write and rejects the error that stops it (a file-size limit: EFBIG)', () => {
      // A child under `ulimit -f 4` (4 KiB; Node ignores SIGXFSZ): of 3 x 3000 bytes, pwritev takes 4096, the job
      // writes on from there and the next call fails with EFBIG, which the promise carries.
      const path = join(dir, 'limited');
      const script = `
        const { writevChecked } = require(${JSON.stringify(join(process.cwd(), 'dist/native/crc32c.node'))});
        const fs = require('node:fs');
        const fd = fs.openSync(${JSON.stringify(path)}, 'w');
        const buffers = [0, 1, 2].map((i) => Buffer.alloc(3000, 0x61 + i));
        writevChecked(fd, buffers, 0, []).then(
          () => console.log('resolved'),
          (error) => console.log(error.code + ' ' + error.syscall),
        );`;
      const child = spawnSync('bash', ['-c', `ulimit -f 4 && exec "${process.execPath}" -e "$0"`, script], {
        encoding: 'utf8',
      });
      expect(child.stdout.trim()).toBe('EFBIG write');
      const written = readFileSync(path);
      expect(written.length).toBe(4096);
      expect(written.equals(Buffer.concat([Buffer.alloc(3000, 0x61), Buffer.alloc(1096, 0x62)]))).toBe(true);
    });

    it('with a path instead of a descriptor: opens the file after the check, writes at the position, closes it', async () => {
      const path = join(dir, 'f');
      await writeFile(path, '0123456789');
      const descriptorsBefore = readdirSync('/proc/self/fd').length;
      const good = batchOf({ value: 'a' });
      const corrupt = Buffer.from(good);
      corrupt[corrupt.length - 1] ^= 0x01;
      expect(await write(path, [corrupt], 4, [0])).toEqual([0]);
      expect(await readFile(path, 'utf8')).toBe('0123456789'); // nothing written
      expect(await write(path, [good, Buffer.from('<end>')], 4, [0])).toEqual([]);
      expect(
        Buffer.compare(await readFile(path), Buffer.concat([Buffer.from('0123'), good, Buffer.from('<end>')])),
      ).toBe(0);
      expect(readdirSync('/proc/self/fd').length).toBe(descriptorsBefore); // closed again
    });

    it('rejects a path it cannot open as fs open does (message, code, errno, syscall, path), without creating it', async () => {
      const path = join(dir, 'missing');
      let fsError: unknown;
      await open(path, 'r+').catch((error: unknown) => (fsError = error));
      const { message, code, errno, syscall } = fsError as NodeJS.ErrnoException;
      expect(code).toBe('ENOENT');
      await expect(write(path, [Buffer.from('x')], 0, [])).rejects.toMatchObject({
        message,
        code,
        errno,
        syscall,
        path,
      });
      expect(existsSync(path)).toBe(false);
      const call = write as unknown as (...args: unknown[]) => unknown;
      expect(() => call('', [Buffer.alloc(1)], 0, [])).toThrow(TypeError);
    });

    it('resolves at once when there is nothing to write', async () => {
      const path = join(dir, 'f');
      const file = await open(path, 'w+');
      try {
        expect(await write(file.fd, [Buffer.alloc(0), Buffer.alloc(0)], 0, [])).toEqual([]);
        expect(await write(file.fd, [], 0, [])).toEqual([]);
        expect((await stat(path)).size).toBe(0);
      } finally {
        await file.close();
      }
    });

    it('refuses arguments it cannot use, synchronously', () => {
      const call = write as unknown as (...args: unknown[]) => unknown;
      expect(() => call(-1, [], 0, [])).toThrow(TypeError);
      expect(() => call(1, 'x', 0, [])).toThrow(TypeError);
      expect(() => call(1, [new Uint16Array(2)], 0, [])).toThrow(TypeError);
      expect(() => call(1, [Buffer.alloc(1)], -1, [])).toThrow(TypeError);
      expect(() => call(1, [Buffer.alloc(1)], 0, [1])).toThrow(TypeError);
      expect(() => call(1, [Buffer.alloc(1)], 0)).toThrow(TypeError);
    });
  });
});
