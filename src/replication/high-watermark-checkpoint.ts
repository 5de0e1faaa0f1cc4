// The high-watermark checkpoint (Kafka's `replication-offset-checkpoint`): the last high watermark this broker knew
// for each partition it hosts, written every replica.high.watermark.checkpoint.interval.ms and at shutdown, read at
// start so that a restarted leader does not answer `latest` (or cap reads) at its log start until the followers
// have fetched again. The file is Kafka's text format:
//
//   0                      version
//   2                      number of entries
//   orders 0 1200          topic, partition, high watermark (topic names cannot hold spaces)
//   orders 1 980
//
// A checkpoint is only a starting point: the replica manager caps it at the replica's log end offset, a follower
// replaces it with the leader's HW at its first fetch, and a new leader starts from min(checkpoint, log end) (which
// Kafka does too). A lost file only makes the HW start lower. Entries are keyed by topic name, as in Kafka: a topic
// deleted and re-created under its name while this broker was down finds its replica directory replaced (topic
// ids, KIP-516), so the old entry is capped at the new, empty log's end.
import { join } from 'node:path';
import { readFileIfPresent, writeFileAtomic } from '../common/atomic-file.js';

export const HIGH_WATERMARK_CHECKPOINT_FILE = 'replication-offset-checkpoint';
const VERSION = 0;

export interface HighWatermarkEntry {
  topic: string;
  partition: number;
  highWatermark: number;
}

export function serializeHighWatermarks(entries: readonly HighWatermarkEntry[]): string {
  const lines = [String(VERSION), String(entries.length)];
  for (const { topic, partition, highWatermark } of entries) lines.push(`${topic} ${partition} ${highWatermark}`);
  return `${lines.join('\n')}\n`;
}

/** The entries of a checkpoint; throws on anything malformed (the caller then starts without one). */
export function parseHighWatermarks(text: string): HighWatermarkEntry[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines[0] !== String(VERSION)) throw new Error(`unsupported version ${JSON.stringify(lines[0])}`);
  const count = Number(lines[1]);
  if (!Number.isSafeInteger(count) || count < 0 || lines.length !== count + 2) {
    throw new Error(`entry count ${JSON.stringify(lines[1])} does not match ${lines.length - 2} lines`);
  }
  return lines.slice(2).map((line, index) => {
    const fields = line.split(' ');
    const partition = Number(fields[1]);
    const highWatermark = Number(fields[2]);
    if (
      fields.length !== 3 ||
      fields[0] === '' ||
      !Number.isSafeInteger(partition) ||
      partition < 0 ||
      !Number.isSafeInteger(highWatermark) ||
      highWatermark < 0
    ) {
      throw new Error(`malformed entry ${index + 1}: ${JSON.stringify(line)}`);
    }
    return { topic: fields[0], partition, highWatermark };
  });
}

/** The checkpoint in `dataDir`; empty when there is none. */
export async function readHighWatermarkCheckpoint(dataDir: string): Promise<HighWatermarkEntry[]> {
  const text = await readFileIfPresent(join(dataDir, HIGH_WATERMARK_CHECKPOINT_FILE));
  if (text === null) return [];
  return parseHighWatermarks(text);
}

export function writeHighWatermarkCheckpoint(dataDir: string, entries: readonly HighWatermarkEntry[]): Promise<void> {
  return writeFileAtomic(join(dataDir, HIGH_WATERMARK_CHECKPOINT_FILE), serializeHighWatermarks(entries));
}
