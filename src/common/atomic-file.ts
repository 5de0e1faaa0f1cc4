// Replacing a small file so that a crash leaves either the old or the new content, never a mix:
// write a temp file beside it (owner-only, file-modes.ts), fsync it, rename over the target, fsync the folder.
import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DATA_FILE_MODE } from './file-modes.js';

export async function writeFileAtomic(path: string, data: string | Buffer): Promise<void> {
  const temporary = `${path}.tmp`;
  const file = await open(temporary, 'w', DATA_FILE_MODE);
  try {
    await file.writeFile(data);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, path);
  await fsyncDirectory(dirname(path));
}

export async function fsyncDirectory(path: string): Promise<void> {
  const directory = await open(path, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}
