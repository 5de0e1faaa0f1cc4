// A segment's two index files beside its `.log` (names in segment-files.ts, entry layouts in offset-index.ts and
// time-index.ts): written whole from the indexes in memory, and loaded with their checks. A missing or corrupt
// file loads as nothing, and the segment rebuilds both indexes from its log. A small index file is read on the
// event loop (folder-metadata-reads.ts: a clean start of 10,000 logs reads 20,000 of them).
import { writeFile } from 'node:fs/promises';
import { DATA_FILE_MODE } from '../common/file-modes.js';
import { readFileBytes } from './folder-metadata-reads.js';
import { CorruptIndexError, OffsetIndex } from './offset-index.js';
import { indexFilePath, timeIndexFilePath } from './segment-files.js';
import { TimeIndex } from './time-index.js';

export interface LoadedIndexes {
  offsetIndex: OffsetIndex;
  timeIndex: TimeIndex;
}

/** Both indexes of the segment at `baseOffset`; null when a file is missing or fails its checks. */
export async function readIndexFiles(
  dir: string,
  baseOffset: number,
  maxEntries: number,
  logSizeBytes: number,
): Promise<LoadedIndexes | null> {
  try {
    const offsetIndex = OffsetIndex.parse(
      await readFileBytes(indexFilePath(dir, baseOffset)),
      baseOffset,
      maxEntries,
      logSizeBytes,
    );
    const timeIndex = TimeIndex.parse(await readFileBytes(timeIndexFilePath(dir, baseOffset)), baseOffset, maxEntries);
    return { offsetIndex, timeIndex };
  } catch (error) {
    if (error instanceof CorruptIndexError || (error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export async function writeIndexFiles(dir: string, baseOffset: number, indexes: LoadedIndexes): Promise<void> {
  await writeFile(indexFilePath(dir, baseOffset), indexes.offsetIndex.serialize(), { mode: DATA_FILE_MODE });
  await writeFile(timeIndexFilePath(dir, baseOffset), indexes.timeIndex.serialize(), { mode: DATA_FILE_MODE });
}
