// Compatibility levels as Confluent's registry applies them, as one pure function of the new schema, the subject's
// previous versions (oldest first) and the level. BACKWARD: the new schema reads data written with the latest
// version; FORWARD: the latest version reads data written with the new one; FULL: both. The _TRANSITIVE levels ask
// the same of every previous version, latest first, and stop at the first that fails. NONE checks nothing. The
// messages are what `?verbose=true` shows: each incompatibility, then the old version and schema, then the level.
import { avroIncompatibilities } from './avro-compatibility.js';
import type { Incompatibility } from './compatibility-types.js';
import { jsonSchemaIncompatibilities } from './json-schema-compatibility.js';
import type { ParsedSchema } from './parsed-schema.js';
import { protobufIncompatibilities } from './protobuf-compatibility.js';

export type CompatibilityLevel =
  'BACKWARD' | 'BACKWARD_TRANSITIVE' | 'FORWARD' | 'FORWARD_TRANSITIVE' | 'FULL' | 'FULL_TRANSITIVE' | 'NONE';

export const COMPATIBILITY_LEVELS: readonly CompatibilityLevel[] = [
  'BACKWARD',
  'BACKWARD_TRANSITIVE',
  'FORWARD',
  'FORWARD_TRANSITIVE',
  'FULL',
  'FULL_TRANSITIVE',
  'NONE',
];

/** The registry's default level. */
export const DEFAULT_COMPATIBILITY_LEVEL: CompatibilityLevel = 'BACKWARD';

export function parseCompatibilityLevel(name: string): CompatibilityLevel | undefined {
  const upper = name.toUpperCase();
  return (COMPATIBILITY_LEVELS as readonly string[]).includes(upper) ? (upper as CompatibilityLevel) : undefined;
}

export interface PreviousVersion {
  readonly version: number;
  readonly schema: ParsedSchema;
}

export type CompatibilityResult =
  { readonly compatible: true } | { readonly compatible: false; readonly messages: readonly string[] };

/** Confluent truncates the old schema in messages past this many characters. */
const OLD_SCHEMA_IN_MESSAGE_MAX_CHARS = 10 * 1024;

/** Why `reader` cannot read what `writer` wrote; empty when it can. */
export function incompatibilities(reader: ParsedSchema, writer: ParsedSchema): Incompatibility[] {
  if (reader.schemaType !== writer.schemaType) {
    return [{ describe: () => 'Incompatible because of different schema type' }];
  }
  if (reader.schemaType === 'AVRO') return avroIncompatibilities(reader, writer as typeof reader);
  if (reader.schemaType === 'JSON') return jsonSchemaIncompatibilities(reader, writer as typeof reader);
  return protobufIncompatibilities(reader, writer as typeof reader);
}

function oldSchemaLines(previous: PreviousVersion): string[] {
  const text = previous.schema.canonical;
  const shown =
    text.length <= OLD_SCHEMA_IN_MESSAGE_MAX_CHARS
      ? `'${text}'`
      : `<truncated to ${OLD_SCHEMA_IN_MESSAGE_MAX_CHARS} characters> '${text.slice(0, OLD_SCHEMA_IN_MESSAGE_MAX_CHARS)}'`;
  return [`{oldSchemaVersion: ${previous.version}}`, `{oldSchema: ${shown}}`];
}

/** The messages of one check of the new schema against one previous version; empty when it passes. */
function checkOne(
  newSchema: ParsedSchema,
  previous: PreviousVersion,
  direction: 'backward' | 'forward' | 'full',
): string[] {
  const messages: string[] = [];
  if (direction !== 'backward') {
    const found = incompatibilities(previous.schema, newSchema).map((i) => i.describe('old', 'new'));
    messages.push(...found);
    if (direction === 'forward' && found.length > 0) messages.push(...oldSchemaLines(previous));
  }
  if (direction !== 'forward') {
    const found = incompatibilities(newSchema, previous.schema).map((i) => i.describe('new', 'old'));
    messages.push(...found);
    if (found.length > 0) messages.push(...oldSchemaLines(previous));
  }
  return messages;
}

export function checkCompatibility(
  newSchema: ParsedSchema,
  previousVersions: readonly PreviousVersion[],
  level: CompatibilityLevel,
): CompatibilityResult {
  if (level === 'NONE' || previousVersions.length === 0) return { compatible: true };
  const direction = level.startsWith('BACKWARD') ? 'backward' : level.startsWith('FORWARD') ? 'forward' : 'full';
  const latestFirst = [...previousVersions].reverse();
  const checked = level.endsWith('_TRANSITIVE') ? latestFirst : latestFirst.slice(0, 1);
  for (const previous of checked) {
    const messages = checkOne(newSchema, previous, direction);
    if (messages.length > 0) return { compatible: false, messages: [...messages, `{compatibility: '${level}'}`] };
  }
  return { compatible: true };
}
