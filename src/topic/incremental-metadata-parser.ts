// Turns the store's three metadata lists (topic assignments, partition states, topic configs) into the topics map,
// parsing only what changed since the previous load. The metadata cache reloads every few seconds and on every
// store change; at 10,000 partitions a full parse made ~4 MB of objects per reload that lived through the
// listeners' work, were promoted to the old generation and died at the next reload (issue 23's idle RSS).
//
// Rules, each what makes a reused value exactly what a parse would give:
//   - a value is reused only when its key's text is the same string as the one it was parsed from (the version
//     alone is not enough: a key deleted and created again between two loads starts again at version 1);
//   - a topic's TopicMetadata is reused only when its assignment, config and every state key of the topic (with
//     its text and version) are the same as in the previous load and no key of it came or went; otherwise it is
//     built afresh, in the same order as a full parse, from the (possibly reused) parsed values;
//   - parsed values and TopicMetadata are never mutated after they are made (by this class or by any reader of the
//     metadata cache): that is what lets two loads share them;
//   - a load that throws (a value that is not JSON) forgets everything, so the next load parses all and reports a
//     change: no half-applied load is ever taken as the previous one.
import type { KeyedVersionedValue } from '../coordination/coordination-store.js';
import { PARTITION_STATE_PREFIX, TOPIC_CONFIGS_PREFIX } from '../coordination/cluster-keys.js';
import type { PartitionState, TopicAssignment, TopicMetadata } from './cluster-metadata.js';

/** One key's text and version as last loaded, with the value parsed from that text once it was needed. */
interface ParsedEntry<T> {
  value: string;
  version: number;
  parsed: T | typeof UNPARSED;
  /** The topic this key belongs to: an assignment's `name`, the topic named in a state's or config's key. */
  topic: string;
  /** A state's partition (from its key); -1 for the other keys. */
  partition: number;
  /** The number of the last load that saw this key. */
  seenInLoad: number;
}

/** A state or config not parsed yet: only those of an assigned topic are (a full parse skipped the others). */
const UNPARSED: unique symbol = Symbol('unparsed');

export interface MetadataLoad {
  topics: Map<string, TopicMetadata>;
  /** Whether any key, text or version differs from the previous load (always true for the first). */
  changed: boolean;
}

export class IncrementalMetadataParser {
  private assignments = new Map<string, ParsedEntry<TopicAssignment>>();
  private states = new Map<string, ParsedEntry<PartitionState>>();
  private configs = new Map<string, ParsedEntry<Record<string, string>>>();
  private previousTopics: ReadonlyMap<string, TopicMetadata> = new Map();
  private loaded = false;
  private loadNumber = 0;

  /** The topics of these lists (each in the store's key order); reuses what the previous load parsed. */
  load(
    assignments: readonly KeyedVersionedValue[],
    states: readonly KeyedVersionedValue[],
    configs: readonly KeyedVersionedValue[],
  ): MetadataLoad {
    try {
      return this.loadOrThrow(assignments, states, configs);
    } catch (error) {
      this.forget();
      throw error;
    }
  }

  /** Forgets every parsed value: the next load parses everything. */
  forget(): void {
    this.assignments = new Map();
    this.states = new Map();
    this.configs = new Map();
    this.previousTopics = new Map();
    this.loaded = false;
  }

  private loadOrThrow(
    assignments: readonly KeyedVersionedValue[],
    states: readonly KeyedVersionedValue[],
    configs: readonly KeyedVersionedValue[],
  ): MetadataLoad {
    const load = ++this.loadNumber;
    const changedTopics = new Set<string>();
    refresh(this.assignments, assignments, load, changedTopics, assignmentPlace);
    refresh(this.states, states, load, changedTopics, statePlace);
    refresh(this.configs, configs, load, changedTopics, configPlace);
    const topics = new Map<string, TopicMetadata>();
    for (let index = 0; index < assignments.length; index++) {
      const parsed = parsedValue(this.assignments.get(assignments[index].key)!);
      const previous = this.previousTopics.get(parsed.name);
      const reusable = previous !== undefined && !changedTopics.has(parsed.name) && previous.assignment === parsed;
      topics.set(parsed.name, reusable ? previous : { assignment: parsed, states: [], stateVersions: [], configs: {} });
    }
    for (let index = 0; index < states.length; index++) {
      const entry = states[index];
      const state = this.states.get(entry.key)!;
      const metadata = topics.get(state.topic);
      if (metadata === undefined || metadata === this.previousTopics.get(state.topic)) continue;
      metadata.states[state.partition] = parsedValue(state);
      metadata.stateVersions[state.partition] = entry.version;
    }
    for (const entry of configs) {
      const config = this.configs.get(entry.key)!;
      const metadata = topics.get(config.topic);
      if (metadata === undefined || metadata === this.previousTopics.get(config.topic)) continue;
      metadata.configs = parsedValue(config);
    }
    const changed = !this.loaded || changedTopics.size > 0;
    this.previousTopics = topics;
    this.loaded = true;
    return { topics, changed };
  }
}

/**
 * Brings `parsed` up to `entries`: parses each key whose text is new or differs, keeps the rest, drops keys not
 * listed, and adds to `changedTopics` the topic of every key added, dropped, or whose text or version differs.
 */
function refresh<T>(
  parsed: Map<string, ParsedEntry<T>>,
  entries: readonly KeyedVersionedValue[],
  load: number,
  changedTopics: Set<string>,
  placeOf: (key: string, value: string) => Place<T>,
): void {
  for (let index = 0; index < entries.length; index++) {
    const { key, value, version } = entries[index];
    const known = parsed.get(key);
    if (known !== undefined && known.value === value) {
      known.seenInLoad = load;
      if (known.version !== version) {
        known.version = version;
        changedTopics.add(known.topic);
      }
      continue;
    }
    const place = placeOf(key, value);
    if (known !== undefined) changedTopics.add(known.topic);
    changedTopics.add(place.topic);
    parsed.set(key, { value, version, ...place, seenInLoad: load });
  }
  // forEach, not for-of: an idle reload walks 10,000 keys and must not make an entry pair for each
  parsed.forEach((known, key) => {
    if (known.seenInLoad === load) return;
    parsed.delete(key);
    changedTopics.add(known.topic);
  });
}

/** The value of `entry`'s text, parsed the first time it is asked for. */
function parsedValue<T>(entry: ParsedEntry<T>): T {
  if (entry.parsed === UNPARSED) entry.parsed = JSON.parse(entry.value) as T;
  return entry.parsed;
}

/** Where a new text belongs, and its value when finding that out parsed it. */
type Place<T> = Pick<ParsedEntry<T>, 'topic' | 'partition' | 'parsed'>;

/** An assignment's topic is the name inside it: every assignment is parsed (as a full parse does). */
function assignmentPlace(_key: string, value: string): Place<TopicAssignment> {
  const parsed = JSON.parse(value) as TopicAssignment;
  return { topic: parsed.name, partition: -1, parsed };
}

function configPlace(key: string): Place<Record<string, string>> {
  return { topic: key.slice(TOPIC_CONFIGS_PREFIX.length), partition: -1, parsed: UNPARSED };
}

/** A state key's topic and partition (`<prefix><topic>/<partition>`; a topic name holds no slash). */
function statePlace(key: string): Place<PartitionState> {
  const rest = key.slice(PARTITION_STATE_PREFIX.length);
  const slash = rest.lastIndexOf('/');
  return { topic: rest.slice(0, slash), partition: Number(rest.slice(slash + 1)), parsed: UNPARSED };
}
