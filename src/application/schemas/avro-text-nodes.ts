// An Avro schema compiled for the text encoder (avro-text-encoder.ts): one node per type, telling the encoder's walk
// what to expect at each place of a value's JSON text (a record's fields in order with their names' bytes, a
// union's branches by name, an enum's symbols, a fixed's size). Named records are compiled once, so a recursive
// schema is a graph. A schema with a type the encoder does not know compiles to null (the generic way encodes it).
import { branchName } from './avro-data.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- avsc's typings do not declare its types' fields. */
type AnyType = any;

export const enum Kind {
  Null,
  Boolean,
  Int,
  Long,
  Float,
  Double,
  String,
  Bytes,
  Fixed,
  Enum,
  Array,
  Map,
  Union,
  Record,
}

interface Field {
  /** The name's bytes, for comparing a member's name without making a string. */
  readonly name: Buffer;
  node: TextNode;
}

interface Branch {
  readonly index: number;
  readonly node: TextNode;
}

/** A compiled Avro type. Recursive schemas make the tree a graph: a named type is compiled once. */
export interface TextNode {
  kind: Kind;
  /** Fixed: its size. */
  size: number;
  /** Enum: index by symbol. */
  symbols: Map<string, number> | null;
  /** Array items, map values. */
  element: TextNode | null;
  /** Union: the branches by name, and the null branch's index (-1: none). */
  branches: Map<string, Branch> | null;
  nullIndex: number;
  /** Record: its fields in order, and the names of them all. */
  fields: Field[] | null;
  fieldNames: Set<string> | null;
}

function kindName(type: AnyType): string {
  return String(type.typeName).startsWith('union') ? 'union' : String(type.typeName);
}

const PRIMITIVE_KINDS: Record<string, Kind> = {
  null: Kind.Null,
  boolean: Kind.Boolean,
  int: Kind.Int,
  long: Kind.Long,
  float: Kind.Float,
  double: Kind.Double,
  string: Kind.String,
  bytes: Kind.Bytes,
};

function node(kind: Kind): TextNode {
  return {
    kind,
    size: 0,
    symbols: null,
    element: null,
    branches: null,
    nullIndex: -1,
    fields: null,
    fieldNames: null,
  };
}

/**
 * The node tree of an avsc type, or null when it has a type the text encoder does not know; `named` holds the
 * records compiled so far (a recursive schema refers back to them).
 */
export function compileType(type: AnyType, named: Map<AnyType, TextNode>): TextNode | null {
  const known = named.get(type);
  if (known !== undefined) return known;
  const kind = kindName(type);
  if (kind in PRIMITIVE_KINDS) return node(PRIMITIVE_KINDS[kind]);
  switch (kind) {
    case 'fixed': {
      const fixed = node(Kind.Fixed);
      fixed.size = type.size as number;
      return fixed;
    }
    case 'enum': {
      const enumeration = node(Kind.Enum);
      enumeration.symbols = new Map((type.symbols as string[]).map((symbol, index) => [symbol, index]));
      return enumeration;
    }
    case 'array':
    case 'map': {
      const element = compileType(kind === 'array' ? type.itemsType : type.valuesType, named);
      if (element === null) return null;
      const container = node(kind === 'array' ? Kind.Array : Kind.Map);
      container.element = element;
      return container;
    }
    case 'union': {
      const union = node(Kind.Union);
      union.branches = new Map();
      for (const [index, branch] of (type.types as AnyType[]).entries()) {
        if (kindName(branch) === 'null') {
          union.nullIndex = index;
          continue;
        }
        const compiledBranch = compileType(branch, named);
        if (compiledBranch === null) return null;
        union.branches.set(branchName(branch), { index, node: compiledBranch });
      }
      return union;
    }
    case 'record':
    case 'error': {
      const record = node(Kind.Record);
      named.set(type, record);
      const fields: Field[] = [];
      for (const field of type.fields as AnyType[]) {
        // a field by this name is a prototype on the generic way's objects: leave the schema to it
        if (field.name === '__proto__') return null;
        const fieldNode = compileType(field.type, named);
        if (fieldNode === null) return null;
        fields.push({ name: Buffer.from(field.name as string, 'latin1'), node: fieldNode });
      }
      record.fields = fields;
      record.fieldNames = new Set(fields.map((field) => field.name.toString('latin1')));
      return record;
    }
    default:
      return null;
  }
}
