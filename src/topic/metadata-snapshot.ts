// The cluster metadata a broker applied last, kept in its data dir (`<data-dir>/cluster-metadata.json`) so that a
// coordination store that lost everything loses no topic: the controller gathers these snapshots and restores
// the store from the newest one per partition (DESIGN.md §1).
//
// File format (JSON, replaced atomically): {"version": 1, "incarnation": string | null, "topics": [TopicMetadata],
// "logEpochs"?: {"<topic>-<partition>": epoch}} with TopicMetadata as in cluster-metadata.ts (assignment, states,
// stateVersions, configs); `incarnation` is the store's metadata incarnation the snapshot was read under (null: a
// store that never had one); `logEpochs` the latest leader epoch in each local replica's epoch checkpoint.
import { join } from 'node:path';
import { readFileIfPresent, writeFileAtomic } from '../common/atomic-file.js';
import type { TopicMetadata } from './cluster-metadata.js';

export const METADATA_SNAPSHOT_FILE = 'cluster-metadata.json';
const SNAPSHOT_FORMAT_VERSION = 1;

export interface MetadataSnapshot {
  incarnation: string | null;
  topics: TopicMetadata[];
  /** The latest leader epoch each of this broker's replicas has seen, by `<topic>-<partition>`. */
  logEpochs?: Record<string, number>;
}

export function snapshotPath(dataDir: string): string {
  return join(dataDir, METADATA_SNAPSHOT_FILE);
}

export function serializeSnapshot(snapshot: MetadataSnapshot): string {
  return JSON.stringify({ version: SNAPSHOT_FORMAT_VERSION, ...snapshot });
}

/** Parses and checks a snapshot (from the file or a peer); throws on anything malformed. */
export function parseSnapshot(text: string): MetadataSnapshot {
  const parsed = JSON.parse(text) as {
    version?: unknown;
    incarnation?: unknown;
    topics?: unknown;
    logEpochs?: unknown;
  };
  if (parsed.version !== SNAPSHOT_FORMAT_VERSION) throw new Error(`unknown snapshot version ${String(parsed.version)}`);
  if (parsed.incarnation !== null && typeof parsed.incarnation !== 'string') throw new Error('bad incarnation');
  if (!Array.isArray(parsed.topics)) throw new Error('topics must be an array');
  for (const topic of parsed.topics as TopicMetadata[]) {
    const replicas = topic?.assignment?.replicas;
    if (typeof topic?.assignment?.name !== 'string' || !Array.isArray(replicas) || !Array.isArray(topic.states)) {
      throw new Error('malformed topic entry');
    }
    if (topic.states.length !== replicas.length) throw new Error(`topic ${topic.assignment.name}: states missing`);
  }
  const logEpochs = parsed.logEpochs;
  if (logEpochs !== undefined) {
    if (typeof logEpochs !== 'object' || logEpochs === null || Array.isArray(logEpochs))
      throw new Error('bad logEpochs');
    for (const epoch of Object.values(logEpochs)) if (!Number.isInteger(epoch)) throw new Error('bad log epoch');
  }
  return {
    incarnation: parsed.incarnation,
    topics: parsed.topics as TopicMetadata[],
    ...(logEpochs === undefined ? {} : { logEpochs: logEpochs as Record<string, number> }),
  };
}

/** The snapshot in dataDir, or null when there is none. */
export async function readSnapshot(dataDir: string): Promise<MetadataSnapshot | null> {
  const text = await readFileIfPresent(snapshotPath(dataDir));
  if (text === null) return null;
  return parseSnapshot(text);
}

/** Writes a snapshot already serialized by serializeSnapshot (a caller that compared the text first). */
export async function writeSnapshotText(dataDir: string, text: string): Promise<void> {
  await writeFileAtomic(snapshotPath(dataDir), text);
}
