// Compiles one (API, version) layout of the message table into a decoder and an encoder, once: each field
// becomes a small codec object chosen for that version (present or absent, compact or not, nullable or not,
// tagged or not), and a struct is the list of its fields' codecs. Decoding or encoding a message then only calls
// these; nothing is built per message but the values themselves.
//
// A struct is written as its present, untagged fields in table order and, in flexible versions, then its tagged
// fields: an unsigned varint count, and per field its tag, its size in bytes (unsigned varints) and its value,
// in ascending tag order, only those that differ from their defaults. A decoder skips tags it does not know.
// A decoded struct always has every field of the table, in table order (so every object of one layout has the
// same shape), with the ones the version lacks at their defaults.
import { DecodeFailure, ProtocolEncodeError } from './errors.js';
import { ProtocolReader } from './reader.js';
import { type ApiDefinition, type Field, type ScalarType, inVersions } from './schema.js';
import { ProtocolWriter } from './writer.js';

export interface ValueCodec {
  decode(reader: ProtocolReader): unknown;
  encode(writer: ProtocolWriter, value: unknown): void;
  /** The fewest bytes one value takes on the wire (bounds array counts against the bytes left). */
  readonly minBytes: number;
}

export interface StructCodec extends ValueCodec {
  decode(reader: ProtocolReader): Record<string, unknown>;
  makeDefault(): Record<string, unknown>;
  isDefault(value: unknown): boolean;
}

export interface ApiLayout {
  readonly api: ApiDefinition;
  readonly version: number;
  readonly flexible: boolean;
  /** 1 or 2 (2 adds tagged fields after the client id). */
  readonly requestHeaderVersion: number;
  /** 0 or 1 (1 adds tagged fields after the correlation id). */
  readonly responseHeaderVersion: number;
  readonly request: StructCodec;
  readonly response: StructCodec;
}

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';
const EMPTY_BYTES = Buffer.alloc(0);
const TAGGED_SCRATCH_BYTES = 64;

interface Slot {
  readonly name: string;
  readonly path: string;
  readonly present: boolean;
  /** Present and tagged in this version. */
  readonly tagged: boolean;
  readonly tag: number;
  readonly codec: ValueCodec | undefined;
  readonly ignorable: boolean;
  readonly optionalInput: boolean;
  makeDefault(): unknown;
  isDefault(value: unknown): boolean;
}

interface Context {
  readonly version: number;
  readonly flexible: boolean;
  readonly api: string;
}

function tableError(path: string, message: string): never {
  throw new Error(`Kafka message table, ${path}: ${message}`);
}

function scalarDefault(type: ScalarType): unknown {
  switch (type) {
    case 'bool':
      return false;
    case 'uuid':
      return ZERO_UUID;
    case 'string':
      return '';
    case 'bytes':
      return EMPTY_BYTES;
    case 'records':
      return null;
    default:
      return 0;
  }
}

function scalarIsDefault(type: ScalarType, defaultValue: unknown): (value: unknown) => boolean {
  if (defaultValue === null) return (value) => value === null;
  if (type === 'bytes') return (value) => Buffer.isBuffer(value) && value.length === 0;
  if (type === 'uuid') return (value) => typeof value === 'string' && value.toLowerCase() === defaultValue;
  return (value) => value === defaultValue;
}

function scalarCodec(type: ScalarType, nullable: boolean, flexible: boolean, path: string): ValueCodec {
  switch (type) {
    case 'bool':
      return { minBytes: 1, decode: (r) => r.bool(path), encode: (w, v) => w.bool(v, path) };
    case 'int8':
      return { minBytes: 1, decode: (r) => r.int8(path), encode: (w, v) => w.int8(v, path) };
    case 'int16':
      return { minBytes: 2, decode: (r) => r.int16(path), encode: (w, v) => w.int16(v, path) };
    case 'int32':
      return { minBytes: 4, decode: (r) => r.int32(path), encode: (w, v) => w.int32(v, path) };
    case 'int64':
      return { minBytes: 8, decode: (r) => r.int64(path), encode: (w, v) => w.int64(v, path) };
    case 'uuid':
      return { minBytes: 16, decode: (r) => r.uuid(path), encode: (w, v) => w.uuid(v, path) };
    case 'string':
      return flexible
        ? {
            minBytes: 1,
            decode: (r) => r.compactString(path, nullable),
            encode: (w, v) => w.compactString(v, nullable, path),
          }
        : { minBytes: 2, decode: (r) => r.string(path, nullable), encode: (w, v) => w.string(v, nullable, path) };
    case 'bytes':
    case 'records':
      return flexible
        ? {
            minBytes: 1,
            decode: (r) => r.compactBytes(path, nullable),
            encode: (w, v) => w.bytes(v, nullable, true, path),
          }
        : { minBytes: 4, decode: (r) => r.bytes(path, nullable), encode: (w, v) => w.bytes(v, nullable, false, path) };
  }
}

function arrayCodec(element: ValueCodec, nullable: boolean, flexible: boolean, path: string): ValueCodec {
  return {
    minBytes: flexible ? 1 : 4,
    decode(reader) {
      const count = reader.arrayCount(path, nullable, flexible, element.minBytes);
      if (count === -1) return null;
      const values = new Array<unknown>(count);
      for (let i = 0; i < count; i++) values[i] = element.decode(reader);
      return values;
    },
    encode(writer, value) {
      const count = writer.arrayCount(value, nullable, flexible, path);
      for (let i = 0; i < count; i++) element.encode(writer, (value as unknown[])[i]);
    },
  };
}

function compileSlot(field: Field, context: Context, parentPath: string): Slot {
  const path = `${parentPath}.${field.name}`;
  const { version, flexible } = context;
  const present = inVersions(version, field.versions);
  const nullable = present && inVersions(version, field.options.nullable);
  const tag = field.options.tag ?? -1;
  if (present && tag >= 0 && !flexible) tableError(path, `tagged in version ${version}, which is not flexible`);
  const shape = field.shape;
  let codec: ValueCodec | undefined;
  let makeDefault: () => unknown;
  let isDefault: (value: unknown) => boolean;
  switch (shape.kind) {
    case 'scalar': {
      if (nullable && !['string', 'bytes', 'records'].includes(shape.type)) tableError(path, 'cannot be nullable');
      const defaultValue = field.options.default !== undefined ? field.options.default : scalarDefault(shape.type);
      makeDefault = () => defaultValue;
      isDefault = scalarIsDefault(shape.type, defaultValue);
      if (present) codec = scalarCodec(shape.type, nullable, flexible, path);
      break;
    }
    case 'scalarArray':
    case 'structArray': {
      const nullDefault = field.options.default === null;
      makeDefault = nullDefault ? () => null : () => [];
      isDefault = nullDefault ? (value) => value === null : (value) => Array.isArray(value) && value.length === 0;
      if (present) {
        const element =
          shape.kind === 'scalarArray'
            ? scalarCodec(shape.element, false, flexible, `${path}[]`)
            : compileStruct(shape.fields, context, `${path}[]`);
        codec = arrayCodec(element, nullable, flexible, path);
      }
      break;
    }
    case 'struct': {
      if (field.options.nullable !== undefined) tableError(path, 'nullable structs are not supported');
      const nested = compileStruct(shape.fields, context, path);
      makeDefault = () => nested.makeDefault();
      isDefault = (value) => nested.isDefault(value);
      if (present) codec = nested;
      break;
    }
  }
  return {
    name: field.name,
    path,
    present,
    tagged: present && tag >= 0,
    tag,
    codec,
    ignorable: field.options.ignorable === true,
    optionalInput: field.options.default !== undefined || tag >= 0,
    makeDefault,
    isDefault,
  };
}

function readTaggedFields(
  reader: ProtocolReader,
  target: Record<string, unknown>,
  byTag: ReadonlyMap<number, Slot>,
  path: string,
): void {
  const count = reader.uvarint(`${path} tagged field count`);
  // Each tagged field takes at least two bytes (its tag and its size).
  if (count * 2 > reader.remaining()) {
    throw new DecodeFailure(
      'invalid-count',
      `${path}: ${count} tagged fields cannot fit in ${reader.remaining()} bytes`,
    );
  }
  for (let i = 0; i < count; i++) {
    const tag = reader.uvarint(`${path} tag`);
    const size = reader.uvarint(`${path} tag ${tag} size`);
    if (size > reader.remaining()) {
      throw new DecodeFailure('invalid-length', `${path} tag ${tag}: size ${size} past the end`);
    }
    const stop = reader.position + size;
    const slot = byTag.get(tag);
    if (slot === undefined) {
      reader.position = stop;
      continue;
    }
    const end = reader.end;
    reader.end = stop;
    target[slot.name] = (slot.codec as ValueCodec).decode(reader);
    if (reader.position !== stop) {
      throw new DecodeFailure('invalid-tagged-field', `${slot.path}: value does not fill its ${size} bytes`);
    }
    reader.end = end;
  }
}

function writeTaggedFields(writer: ProtocolWriter, value: Record<string, unknown>, tagged: readonly Slot[]): void {
  let count = 0;
  for (const slot of tagged) {
    const fieldValue = value[slot.name];
    if (fieldValue !== undefined && !slot.isDefault(fieldValue)) count++;
  }
  writer.uvarint(count);
  for (const slot of tagged) {
    const fieldValue = value[slot.name];
    if (fieldValue === undefined || slot.isDefault(fieldValue)) continue;
    const scratch = new ProtocolWriter(TAGGED_SCRATCH_BYTES);
    (slot.codec as ValueCodec).encode(scratch, fieldValue);
    writer.uvarint(slot.tag);
    writer.uvarint(scratch.length);
    for (const chunk of scratch.chunksWritten()) writer.splice(chunk);
  }
}

function checkNames(fields: readonly Field[], path: string): void {
  const names = new Set<string>();
  const tags = new Set<number>();
  for (const field of fields) {
    if (names.has(field.name)) tableError(path, `field ${field.name} is listed twice`);
    names.add(field.name);
    const tag = field.options.tag;
    if (tag === undefined) continue;
    if (tags.has(tag)) tableError(path, `tag ${tag} is used twice`);
    tags.add(tag);
  }
}

function compileStruct(fields: readonly Field[], context: Context, path: string): StructCodec {
  checkNames(fields, path);
  const slots = fields.map((field) => compileSlot(field, context, path));
  const decodedInPlace = slots.map((slot) => slot.present && !slot.tagged);
  const regular = slots.filter((slot) => slot.present && !slot.tagged);
  const tagged = slots.filter((slot) => slot.tagged).sort((a, b) => a.tag - b.tag);
  const byTag = new Map(tagged.map((slot) => [slot.tag, slot]));
  const checkedWhenAbsent = slots.filter((slot) => !slot.present && !slot.ignorable);
  const flexible = context.flexible;
  let minBytes = flexible ? 1 : 0;
  for (const slot of regular) minBytes += (slot.codec as ValueCodec).minBytes;

  return {
    minBytes,
    decode(reader) {
      const value: Record<string, unknown> = {};
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i];
        value[slot.name] = decodedInPlace[i] ? (slot.codec as ValueCodec).decode(reader) : slot.makeDefault();
      }
      if (flexible) readTaggedFields(reader, value, byTag, path);
      return value;
    },
    encode(writer, input) {
      if (typeof input !== 'object' || input === null) throw new ProtocolEncodeError(`${path}: is not an object`);
      const value = input as Record<string, unknown>;
      for (const slot of regular) {
        const fieldValue = value[slot.name];
        (slot.codec as ValueCodec).encode(
          writer,
          fieldValue === undefined && slot.optionalInput ? slot.makeDefault() : fieldValue,
        );
      }
      for (const slot of checkedWhenAbsent) {
        const fieldValue = value[slot.name];
        if (fieldValue !== undefined && !slot.isDefault(fieldValue)) {
          throw new ProtocolEncodeError(
            `${slot.path}: ${context.api} v${context.version} has no such field, and the value is not its default`,
          );
        }
      }
      if (flexible) writeTaggedFields(writer, value, tagged);
    },
    makeDefault() {
      const value: Record<string, unknown> = {};
      for (const slot of slots) value[slot.name] = slot.makeDefault();
      return value;
    },
    isDefault(input) {
      if (typeof input !== 'object' || input === null) return false;
      const value = input as Record<string, unknown>;
      for (const slot of slots) {
        const fieldValue = value[slot.name];
        if (fieldValue !== undefined && !slot.isDefault(fieldValue)) return false;
      }
      return true;
    },
  };
}

const layouts = new Map<number, ApiLayout>();
const VERSIONS_PER_KEY = 64;

/** The compiled layout of one version of an API; compiled on first use and kept. */
export function layoutOf(api: ApiDefinition, version: number): ApiLayout {
  const key = api.apiKey * VERSIONS_PER_KEY + version;
  let layout = layouts.get(key);
  if (layout === undefined) {
    layout = compileLayout(api, version);
    layouts.set(key, layout);
  }
  return layout;
}

function compileLayout(api: ApiDefinition, version: number): ApiLayout {
  if (!inVersions(version, api.versions)) tableError(api.name, `version ${version} is not in ${api.versions}`);
  const flexible = inVersions(version, api.flexible);
  const context: Context = { version, flexible, api: api.name };
  return {
    api,
    version,
    flexible,
    requestHeaderVersion: flexible ? 2 : 1,
    responseHeaderVersion: flexible && api.responseHeaderAlwaysV0 !== true ? 1 : 0,
    request: compileStruct(api.request, context, `${api.name} request v${version}`),
    response: compileStruct(api.response, context, `${api.name} response v${version}`),
  };
}
