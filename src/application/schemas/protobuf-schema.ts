// Protobuf schemas: `.proto` text parsed by protobufjs (field names kept as written), with every import satisfied
// either by a reference of that name (its schema parsed into the same root) or by one of the well-known
// google/protobuf files protobufjs ships; then every type name must resolve. The schema's own file is remembered
// apart from its references: its top-level types are what compatibility compares, and its messages, numbered depth
// first, are what Confluent's message indexes name.
import { createRequire } from 'node:module';
import type protobuf from 'protobufjs';
import { protobufjs } from './schema-libraries.js';
import { errorText, invalidSchema } from './schema-errors.js';
import type { ResolvedReference } from './schema-references.js';
import type { SchemaInput } from './schema-types.js';
import type { ParsedProtobufSchema, ProtobufMessage } from './parsed-schema.js';
import { printProtobufFile, type ProtobufFile } from './protobuf-text.js';

const require = createRequire(import.meta.url);
const DESCRIPTOR_PROTO = 'google/protobuf/descriptor.proto';

/** The well-known files an import may name without a reference, as protobufjs's JSON descriptors. */
function wellKnownFile(path: string): protobuf.INamespace | undefined {
  if (path === DESCRIPTOR_PROTO) return require('protobufjs/google/protobuf/descriptor.json') as protobuf.INamespace;
  return protobufjs().common.get(path) ?? undefined;
}

const PARSE_OPTIONS: protobuf.IParseOptions = { keepCase: true };

function syntaxOf(source: string): 'proto2' | 'proto3' | undefined {
  const withoutComments = source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
  const declared = /^\s*syntax\s*=\s*["'](proto[23])["']\s*;/.exec(withoutComments);
  if (declared) return declared[1] as 'proto2' | 'proto3';
  return /^\s*syntax\s*=/.test(withoutComments) ? undefined : 'proto2';
}

function packageNamespace(root: protobuf.Root, packageName: string | undefined): protobuf.Namespace {
  if (!packageName) return root;
  return root.lookup(packageName) as protobuf.Namespace;
}

/** The file's messages with their indexes: top-level messages numbered in order, then each one's nested ones. */
export function numberMessages(types: readonly protobuf.ReflectionObject[]): ProtobufMessage[] {
  const messages: ProtobufMessage[] = [];
  const walk = (objects: readonly protobuf.ReflectionObject[], prefix: readonly number[]) => {
    const typesHere = objects.filter((object): object is protobuf.Type => object instanceof protobufjs().Type);
    typesHere.forEach((type, index) => {
      const indexes = [...prefix, index];
      messages.push({ indexes, type });
      walk(type.nestedArray, indexes);
    });
  };
  walk(types, []);
  return messages;
}

export function parseProtobufSchema(
  input: SchemaInput,
  references: readonly ResolvedReference[],
): ParsedProtobufSchema {
  const syntax = syntaxOf(input.schema);
  if (!syntax) throw invalidSchema(input, 'syntax must be "proto2" or "proto3"');
  const root = new (protobufjs().Root)();
  let parsed: protobuf.IParserResult;
  try {
    parsed = protobufjs().parse(input.schema, root, PARSE_OPTIONS);
  } catch (error) {
    throw invalidSchema(input, errorText(error));
  }
  const packageName = parsed.package ?? '';
  const namespace = packageNamespace(root, parsed.package);
  const file: ProtobufFile = {
    syntax,
    packageName,
    imports: parsed.imports ?? [],
    weakImports: parsed.weakImports ?? [],
    options: optionsOf(namespace),
    types: [...namespace.nestedArray].filter(
      (object) => !(object instanceof protobufjs().Namespace) || isDeclared(object),
    ),
  };

  const referenceNames = new Set(references.flatMap((reference) => reference.names));
  const loadedWellKnown = new Set<string>();
  const satisfyImports = (imports: readonly string[], what: string) => {
    for (const path of imports) {
      if (referenceNames.has(path)) continue;
      const wellKnown = wellKnownFile(path);
      if (!wellKnown) throw invalidSchema(input, `${what}imports "${path}", which no reference provides`);
      if (loadedWellKnown.has(path)) continue;
      loadedWellKnown.add(path);
      root.addJSON(wellKnown.nested ?? {});
    }
  };
  satisfyImports([...file.imports, ...file.weakImports], '');
  for (const reference of references) {
    let referenced: protobuf.IParserResult;
    try {
      referenced = protobufjs().parse(reference.stored.schema, root, PARSE_OPTIONS);
    } catch (error) {
      throw invalidSchema(input, `reference ${reference.names[0]}: ${errorText(error)}`);
    }
    satisfyImports(
      [...(referenced.imports ?? []), ...(referenced.weakImports ?? [])],
      `reference ${reference.names[0]} `,
    );
  }
  try {
    root.resolveAll();
  } catch (error) {
    throw invalidSchema(input, errorText(error));
  }
  return {
    schemaType: 'PROTOBUF',
    schema: input.schema,
    references: input.references ?? [],
    canonical: printProtobufFile(file, false),
    normalized: printProtobufFile(file, true),
    root,
    packageName,
    syntax,
    fileTypes: file.types,
    messages: numberMessages(file.types),
  };
}

function optionsOf(namespace: protobuf.Namespace): ReadonlyArray<Record<string, unknown>> {
  const parsed = (namespace as { parsedOptions?: unknown }).parsedOptions;
  if (Array.isArray(parsed) && parsed.length > 0) return [...(parsed as Array<Record<string, unknown>>)];
  return Object.entries(namespace.options ?? {}).map(([name, value]) => ({ [name]: value }));
}

/** Types, enums and services are declared by the file; plain namespaces are only packages of other files. */
function isDeclared(object: protobuf.Namespace): boolean {
  return object instanceof protobufjs().Type || object instanceof protobufjs().Service;
}
