// Replacing a small file so that a crash leaves either the old or the new content, never a mix:
// write a temp file beside it (owner-only, file-modes.ts), fsync it, rename over the target, fsync the folder.
// replaceFileUnsynced is the same without either fsync: a process crash (kill -9) still finds the old or the new
// content whole (the page cache outlives the process), but a power loss may keep the old one, or on a file system
// without ext4's replace-on-rename ordering an empty file; only for a file its reader can rebuild or repair (the
// leader-epoch checkpoint, log-state-files.ts), or one made durable later with syncReplacedFile (the producer
// snapshot of a roll, behind the appends that follow it: local-log.ts).
// Reading one back: its text, or null when it does not exist yet (a first start). Through `fs.promises`, so that
// a test can make one step fail.
import { promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DATA_FILE_MODE } from './file-modes.js';

/** The temp file's suffix: `<path>.tmp` (a stale one, left by a crash, is the reader's to remove). */
export const ATOMIC_TEMP_SUFFIX = '.tmp';

/**
 * `data` may be pieces of text written one after another (an iterable of strings), so that a large file is never
 * one string: the caller captures the pieces before the first await, their texts are made while writing.
 */
export async function writeFileAtomic(path: string, data: string | Buffer | Iterable<string>): Promise<void> {
  const temporary = `${path}${ATOMIC_TEMP_SUFFIX}`;
  const file = await fsp.open(temporary, 'w', DATA_FILE_MODE);
  try {
    if (typeof data === 'string' || Buffer.isBuffer(data)) await file.writeFile(data);
    else for (const piece of data) await writeWhole(file, Buffer.from(piece));
    await file.sync();
  } finally {
    await file.close();
  }
  await fsp.rename(temporary, path);
  await fsyncDirectory(dirname(path));
}

/** Writes all of `bytes` at the file's position (a write may take fewer bytes than asked). */
async function writeWhole(file: FileHandle, bytes: Buffer): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += (await file.write(bytes, written, bytes.length - written)).bytesWritten;
}

export async function replaceFileUnsynced(path: string, data: string | Buffer): Promise<void> {
  const temporary = `${path}${ATOMIC_TEMP_SUFFIX}`;
  await fsp.writeFile(temporary, data, { mode: DATA_FILE_MODE });
  await fsp.rename(temporary, path);
}

/** Makes a replaceFileUnsynced durable: fsyncs the file, then its folder (the rename). */
export async function syncReplacedFile(path: string): Promise<void> {
  const file = await fsp.open(path, 'r');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
  await fsyncDirectory(dirname(path));
}

export async function fsyncDirectory(path: string): Promise<void> {
  if (process.platform === 'win32') return; // directories cannot be opened for fsync there
  const directory = await fsp.open(path, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

/** The file's text, or null when there is no such file; any other error is thrown. */
export async function readFileIfPresent(path: string): Promise<string | null> {
  try {
    return await fsp.readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
