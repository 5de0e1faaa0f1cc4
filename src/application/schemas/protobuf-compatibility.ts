// Comparing two Protobuf schemas the way Confluent's registry does: the writer's (original) and the reader's
// (update) files side by side, their top-level and nested messages and enums by name, fields by number, oneofs by
// name; each difference by its rule (protobuf-rules.ts) and path (`#/Outer/Inner/3`). Field types compare by kind,
// by scalar group, and for messages by name within their package and then recursively (a pair of messages already
// being compared is not compared again, so recursive messages terminate). proto3 `optional` fields are plain fields.
import type protobuf from 'protobufjs';
import { protobufjs } from './schema-libraries.js';
import { ComparisonTooComplex, StepBudget, tooComplex, type Incompatibility } from './compatibility-types.js';
import { ComparisonContext, type SchemaDifference } from './comparison-context.js';
import type { ParsedProtobufSchema } from './parsed-schema.js';
import { isSyntheticOneof } from './protobuf-text.js';
import { describeProtobufChange, PROTOBUF_RULES, type ProtobufChange } from './protobuf-rules.js';

export type ProtobufDifference = SchemaDifference<ProtobufChange>;

const SCALAR_GROUPS: Record<string, string> = {
  int32: 'number',
  int64: 'number',
  uint32: 'number',
  uint64: 'number',
  bool: 'number',
  sint32: 'signed',
  sint64: 'signed',
  string: 'text',
  bytes: 'text',
  fixed32: 'fixed32',
  sfixed32: 'fixed32',
  fixed64: 'fixed64',
  sfixed64: 'fixed64',
  float: 'float',
  double: 'double',
};

/** A comparison's context; messages being compared further up the path are known by their full names. */
class Context extends ComparisonContext<ProtobufChange, string> {
  constructor(budget: StepBudget = new StepBudget(), path: string[] = [], comparing: Set<string> = new Set()) {
    super(PROTOBUF_RULES, budget, path, comparing);
  }

  sub(): Context {
    return new Context(this.budget, [...this.path], new Set(this.comparing));
  }
}

function compareTypeLists(
  ctx: Context,
  original: readonly protobuf.ReflectionObject[],
  update: readonly protobuf.ReflectionObject[],
) {
  const messages = (objects: readonly protobuf.ReflectionObject[]) =>
    objects.filter((object): object is protobuf.Type => object instanceof protobufjs().Type);
  const enums = (objects: readonly protobuf.ReflectionObject[]) =>
    new Map(
      objects.filter((object): object is protobuf.Enum => object instanceof protobufjs().Enum).map((e) => [e.name, e]),
    );
  const originalMessages = messages(original);
  const updateMessages = messages(update);
  const names = new Set([...originalMessages, ...updateMessages].map((type) => type.name));
  for (const name of names) {
    const before = originalMessages.findIndex((type) => type.name === name);
    const after = updateMessages.findIndex((type) => type.name === name);
    ctx.within(name, () => {
      if (after < 0) return ctx.add('MESSAGE_REMOVED');
      if (before < 0) return ctx.add('MESSAGE_ADDED');
      compareMessages(ctx, originalMessages[before], updateMessages[after]);
      if (before !== after) ctx.add('MESSAGE_MOVED');
    });
  }
  const originalEnums = enums(original);
  const updateEnums = enums(update);
  for (const name of new Set([...originalEnums.keys(), ...updateEnums.keys()])) {
    const before = originalEnums.get(name);
    const after = updateEnums.get(name);
    ctx.within(name, () => {
      if (!after) return ctx.add('ENUM_REMOVED');
      if (!before) return ctx.add('ENUM_ADDED');
      for (const number of new Set([...Object.values(before.values), ...Object.values(after.values)])) {
        const nameBefore = Object.keys(before.values).find((key) => before.values[key] === number);
        const nameAfter = Object.keys(after.values).find((key) => after.values[key] === number);
        ctx.within(String(number), () => {
          if (nameAfter === undefined) ctx.add('ENUM_CONST_REMOVED');
          else if (nameBefore === undefined) ctx.add('ENUM_CONST_ADDED');
          else if (nameBefore !== nameAfter) ctx.add('ENUM_CONST_CHANGED');
        });
      }
    });
  }
}

/** Each field number of a message, with the real oneof (if any) that holds it. */
function fieldsOf(type: protobuf.Type): Map<number, { field: protobuf.Field; oneof?: string }> {
  const fields = new Map<number, { field: protobuf.Field; oneof?: string }>();
  for (const field of type.fieldsArray) {
    if (field.declaringField || field.name.startsWith('.')) continue;
    const oneof = field.partOf && !isSyntheticOneof(field.partOf) ? field.partOf.name : undefined;
    fields.set(field.id, { field, oneof });
  }
  return fields;
}

function compareMessages(ctx: Context, original: protobuf.Type, update: protobuf.Type): void {
  ctx.budget.take();
  ctx.entering(`${original.fullName}\u0000${update.fullName}`, () => {
    const before = fieldsOf(original);
    const after = fieldsOf(update);
    const topLevel = (fields: typeof before) =>
      new Map([...fields].filter(([, entry]) => entry.oneof === undefined).map(([n, entry]) => [n, entry.field]));
    const topBefore = topLevel(before);
    const topAfter = topLevel(after);
    const oneofNames = (type: protobuf.Type) => type.oneofsArray.filter((o) => !isSyntheticOneof(o)).map((o) => o.name);
    const membersOf = (fields: typeof before, name: string) =>
      [...fields].filter(([, entry]) => entry.oneof === name).map(([n]) => n);

    for (const name of oneofNames(update)) {
      let moved = 0;
      let existing = 0;
      for (const number of membersOf(after, name)) {
        if (topBefore.delete(number)) moved++;
        else if (before.get(number)?.oneof !== undefined) existing++;
      }
      ctx.within(name, () => {
        if (moved > 1) ctx.add('MULTIPLE_FIELDS_MOVED_TO_ONEOF');
        else if (moved === 1 && existing > 0) ctx.add('FIELD_MOVED_TO_EXISTING_ONEOF');
      });
    }
    const originalOneofs = new Set(oneofNames(original));
    const updateOneofs = new Set(oneofNames(update));
    for (const name of new Set([...originalOneofs, ...updateOneofs])) {
      ctx.within(name, () => {
        if (!updateOneofs.has(name)) return ctx.add('ONEOF_REMOVED');
        if (!originalOneofs.has(name)) return ctx.add('ONEOF_ADDED');
        const numbers = [...new Set([...membersOf(before, name), ...membersOf(after, name)])].sort((a, b) => a - b);
        for (const number of numbers) {
          const was = before.get(number);
          const is = after.get(number);
          ctx.within(String(number), () => {
            if (was?.oneof === name && is?.oneof === name) compareFields(ctx, was.field, is.field);
            else if (is?.oneof === name) ctx.add('ONEOF_FIELD_ADDED');
            else if (!is) ctx.add('ONEOF_FIELD_REMOVED');
          });
        }
      });
    }
    for (const number of new Set([...topBefore.keys(), ...topAfter.keys()])) {
      const was = topBefore.get(number);
      const is = topAfter.get(number);
      ctx.within(String(number), () => {
        if (!is) return ctx.add(was!.required ? 'REQUIRED_FIELD_REMOVED' : 'FIELD_REMOVED');
        if (!was) return ctx.add(is.required ? 'REQUIRED_FIELD_ADDED' : 'FIELD_ADDED');
        compareFields(ctx, was, is);
      });
    }
    const common = [...before.keys()].filter((number) => after.has(number)).sort((a, b) => a - b);
    for (const number of common) {
      const was = before.get(number)!;
      const is = after.get(number)!;
      if (was.oneof === is.oneof) continue;
      ctx.within(String(number), () => compareFields(ctx, was.field, is.field));
    }
    compareTypeLists(ctx, original.nestedArray, update.nestedArray);
  });
}

type Kind = 'scalar' | 'message' | 'map';

const kindOf = (field: protobuf.Field): Kind =>
  field instanceof protobufjs().MapField
    ? 'map'
    : field.resolvedType instanceof protobufjs().Type
      ? 'message'
      : 'scalar';

/** The scalar group of a field's (or map value's) type: enums read as int32. */
const scalarGroup = (type: string, resolved: protobuf.ReflectionObject | null) =>
  resolved instanceof protobufjs().Enum ? 'number' : SCALAR_GROUPS[type];

/** A message's name within its package: the chain of enclosing messages and its own name. */
function localName(type: protobuf.Type): string {
  const names: string[] = [];
  for (
    let current: protobuf.ReflectionObject | null = type;
    current instanceof protobufjs().Type;
    current = current.parent
  ) {
    names.unshift(current.name);
  }
  return names.join('.');
}

function compareFields(ctx: Context, original: protobuf.Field, update: protobuf.Field): void {
  ctx.budget.take();
  if (original.name !== update.name) ctx.add('FIELD_NAME_CHANGED');
  const kind = kindOf(original);
  if (kind !== kindOf(update)) return ctx.add('FIELD_KIND_CHANGED');
  if (kind !== 'map' && original.repeated !== update.repeated) {
    const numeric = kind === 'scalar' && scalarGroup(original.type, original.resolvedType) !== 'text';
    ctx.add(numeric ? 'FIELD_NUMERIC_LABEL_CHANGED' : 'FIELD_STRING_OR_BYTES_LABEL_CHANGED');
  }
  if (kind === 'map') {
    const keyType = (field: protobuf.Field) => (field as unknown as protobuf.MapField).keyType;
    if (SCALAR_GROUPS[keyType(original)] !== SCALAR_GROUPS[keyType(update)]) {
      ctx.add('FIELD_SCALAR_KIND_CHANGED');
    }
  }
  const valueKind = kind === 'map' ? (original.resolvedType instanceof protobufjs().Type ? 'message' : 'scalar') : kind;
  const updateValueKind =
    kind === 'map' ? (update.resolvedType instanceof protobufjs().Type ? 'message' : 'scalar') : kind;
  if (valueKind !== updateValueKind) return ctx.add('FIELD_KIND_CHANGED');
  if (valueKind === 'scalar') {
    if (scalarGroup(original.type, original.resolvedType) !== scalarGroup(update.type, update.resolvedType)) {
      ctx.add('FIELD_SCALAR_KIND_CHANGED');
    }
    return;
  }
  const originalType = original.resolvedType as protobuf.Type;
  const updateType = update.resolvedType as protobuf.Type;
  if (localName(originalType) !== localName(updateType)) return ctx.add('FIELD_NAMED_TYPE_CHANGED');
  const trial = ctx.sub();
  compareMessages(trial, originalType, updateType);
  ctx.adopt(trial.differences);
  if (!trial.isCompatible()) ctx.add('FIELD_NAMED_TYPE_CHANGED');
}

/**
 * Every difference between the writer's (original) and the reader's (update) schema, compatible or not; throws
 * ComparisonTooComplex past the step bound.
 */
export function protobufDifferences(reader: ParsedProtobufSchema, writer: ParsedProtobufSchema): ProtobufDifference[] {
  const ctx = new Context();
  if (writer.packageName !== reader.packageName) ctx.add('PACKAGE_CHANGED');
  compareTypeLists(ctx, writer.fileTypes, reader.fileTypes);
  return ctx.differences;
}

export function protobufIncompatibilities(
  reader: ParsedProtobufSchema,
  writer: ParsedProtobufSchema,
): Incompatibility[] {
  let differences: ProtobufDifference[];
  try {
    differences = protobufDifferences(reader, writer);
  } catch (error) {
    if (error instanceof ComparisonTooComplex) return [tooComplex(error)];
    throw error;
  }
  return differences
    .filter((difference) => !PROTOBUF_RULES[difference.change].compatible)
    .map((difference) => ({
      describe: (readerName, writerName) =>
        describeProtobufChange(difference.change, difference.path, readerName, writerName),
    }));
}
