// The embedded coordination store on disk: <data-dir>/coordination/store.json, one JSON document holding the
// persistent value keys and the counters (ephemeral keys, those with a TTL, are never written):
//
//   { "format": "brook-coordination-store", "formatVersion": 1,
//     "entries":  [ { "key": "...", "value": "...", "version": 3 }, ... ],   sorted by key
//     "counters": [ { "key": "...", "value": 7 }, ... ] }                    sorted by key
//
// The text is JSON.stringify(document, null, 1) plus a newline (serializeSnapshot); the store builds the same text
// from each entry's part (entryFileText, kept with the entry until it changes) so that a write of one change does
// not serialize every other entry again, and writes it in chunks so that no write makes a large string
// (storeFileChunks, whose joined chunks its spec checks equal to serializeSnapshot's text).
//
// Written whole and atomically (common/atomic-file.ts): store.json.tmp is written and fsync'd, renamed over store.json, then the folder
// is fsync'd so the rename itself is durable. A crash leaves either the old or the new file, plus maybe a stale
// .tmp that open removes. Reading asserts the whole shape and every bound; anything else is corruption and stops
// the broker (CoordinationStoreCorruptError names the file) rather than start with an empty store.
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { ATOMIC_TEMP_SUFFIX, readFileIfPresent } from '../common/atomic-file.js';

import { CoordinationStoreCorruptError } from './coordination-errors.js';
import { assertCounterValue, assertKey, assertValue } from './coordination-limits.js';
import type { KeyedVersionedValue } from './coordination-store.js';

export const COORDINATION_DIR = 'coordination';
export const STORE_FILE = 'store.json';
export const TEMP_SUFFIX = ATOMIC_TEMP_SUFFIX;
const FORMAT = 'brook-coordination-store';
const FORMAT_VERSION = 1;

export interface StoreSnapshot {
  entries: KeyedVersionedValue[];
  counters: Array<{ key: string; value: number }>;
}

export function storeFilePath(dataDir: string): string {
  return join(dataDir, COORDINATION_DIR, STORE_FILE);
}

export function serializeSnapshot(snapshot: StoreSnapshot): string {
  return JSON.stringify({ format: FORMAT, formatVersion: FORMAT_VERSION, ...snapshot }, null, 1) + '\n';
}

/**
 * One entry as serializeSnapshot writes it inside "entries" (indented, without the separating comma). Joined from
 * an array, which makes one flat string: a template literal makes a tree of its pieces (V8's cons strings), which
 * the store keeps per entry (497 bytes against 224 for a partition state's part, measured).
 */
export function entryFileText(entry: KeyedVersionedValue): string {
  return [
    '  {\n   "key": ',
    JSON.stringify(entry.key),
    ',\n   "value": ',
    JSON.stringify(entry.value),
    ',\n   "version": ',
    String(entry.version),
    '\n  }',
  ].join('');
}

/** Pieces joined into one piece each until it holds at least this many characters (below V8's large objects). */
const FILE_CHUNK_CHARS = 32_768;

/**
 * serializeSnapshot's text, in chunks of about FILE_CHUNK_CHARS, from the entries' parts (entryFileText, in key
 * order) and the counters (in key order): a write of a large store makes no large string. The chunks are joined as
 * they are asked for; `entryTexts` must not change meanwhile.
 */
export function* storeFileChunks(
  entryTexts: readonly string[],
  counters: StoreSnapshot['counters'],
): Generator<string, void, undefined> {
  const pieces: string[] = [
    `{\n "format": ${JSON.stringify(FORMAT)},\n "formatVersion": ${FORMAT_VERSION},\n "entries": `,
  ];
  const list = (texts: readonly string[]) => {
    if (texts.length === 0) {
      pieces.push('[]');
      return;
    }
    pieces.push('[\n');
    for (let index = 0; index < texts.length; index++) pieces.push(index === 0 ? '' : ',\n', texts[index]);
    pieces.push('\n ]');
  };
  list(entryTexts);
  pieces.push(',\n "counters": ');
  list(
    counters.map(
      ({ key, value }) => `  {\n   "key": ${JSON.stringify(key)},\n   "value": ${JSON.stringify(value)}\n  }`,
    ),
  );
  pieces.push('\n}\n');
  let start = 0;
  let chars = 0;
  for (let index = 0; index < pieces.length; index++) {
    chars += pieces[index].length;
    if (chars < FILE_CHUNK_CHARS && index < pieces.length - 1) continue;
    yield pieces.slice(start, index + 1).join('');
    start = index + 1;
    chars = 0;
  }
}

/** The snapshot in file, null when there is none yet (first start); a stale temp file is removed. */
export async function readStoreFile(file: string): Promise<StoreSnapshot | null> {
  await fsp.rm(file + TEMP_SUFFIX, { force: true });
  const text = await readFileIfPresent(file);
  if (text === null) return null;
  try {
    return parseSnapshot(text);
  } catch (error) {
    throw new CoordinationStoreCorruptError(file, error instanceof Error ? error.message : String(error));
  }
}

function parseSnapshot(text: string): StoreSnapshot {
  const document: unknown = JSON.parse(text);
  if (!isRecord(document)) throw new Error('not a JSON object');
  if (document.format !== FORMAT) throw new Error(`format is ${JSON.stringify(document.format)}, not "${FORMAT}"`);
  if (document.formatVersion !== FORMAT_VERSION) {
    throw new Error(`formatVersion ${JSON.stringify(document.formatVersion)} is not supported (${FORMAT_VERSION})`);
  }
  const entries = arrayOf(document.entries, 'entries').map((entry, index) => {
    if (!isRecord(entry)) throw new Error(`entries[${index}] is not an object`);
    const { key, value, version } = entry;
    assertKey(key as string, `entries[${index}].key`);
    assertValue(value as string, `entries[${index}].value`);
    if (!Number.isSafeInteger(version) || (version as number) < 1) {
      throw new Error(`entries[${index}].version must be a positive integer`);
    }
    return { key: key as string, value: value as string, version: version as number };
  });
  const counters = arrayOf(document.counters, 'counters').map((counter, index) => {
    if (!isRecord(counter)) throw new Error(`counters[${index}] is not an object`);
    assertKey(counter.key as string, `counters[${index}].key`);
    assertCounterValue(counter.value as number, `counters[${index}].value`);
    return { key: counter.key as string, value: counter.value as number };
  });
  assertUniqueKeys(entries, 'entries');
  assertUniqueKeys(counters, 'counters');
  return { entries, counters };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function arrayOf(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not an array`);
  return value;
}

function assertUniqueKeys(items: Array<{ key: string }>, what: string): void {
  const seen = new Set<string>();
  for (const { key } of items) {
    if (seen.has(key)) throw new Error(`${what} has key ${JSON.stringify(key)} twice`);
    seen.add(key);
  }
}
