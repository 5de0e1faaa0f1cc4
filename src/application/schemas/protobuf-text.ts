// The canonical and normalized texts of a Protobuf schema, printed from protobufjs's model of its own file: no
// comments, one layout, each message's options, reserved ranges, fields, oneofs and nested types in that order. The
// normalized text also orders what protobuf gives no meaning to the order of (imports, options, fields by number,
// oneofs and reserved entries), and names every message and enum type a field uses by its full name. Types are never
// reordered: their order numbers messages in the wire format. These texts are for comparing schemas; the registry
// hands clients back the schema text they registered.
import type protobuf from 'protobufjs';
import { protobufjs } from './schema-libraries.js';

export interface ProtobufFile {
  readonly syntax: 'proto2' | 'proto3';
  readonly packageName: string;
  readonly imports: readonly string[];
  readonly weakImports: readonly string[];
  readonly options: ReadonlyArray<Record<string, unknown>>;
  readonly types: readonly protobuf.ReflectionObject[];
}

/** Standard options whose values are enum identifiers, printed bare (every other string option is quoted). */
const ENUM_VALUED_OPTIONS = new Set(['optimize_for', 'ctype', 'jstype', 'idempotency_level', 'retention']);
const MAX_FIELD_NUMBER = 536_870_911;

type Options = ReadonlyArray<Record<string, unknown>>;

function optionList(object: { options?: Record<string, unknown>; parsedOptions?: unknown }): Options {
  if (Array.isArray(object.parsedOptions) && object.parsedOptions.length > 0) return object.parsedOptions as Options;
  return Object.entries(object.options ?? {}).map(([name, value]) => ({ [name]: value }));
}

function optionValue(name: string, value: unknown): string {
  if (typeof value === 'string') return ENUM_VALUED_OPTIONS.has(name) ? value : JSON.stringify(value);
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, inner]) => `${key}: ${optionValue(key, inner)}`);
    return `{ ${entries.join(', ')} }`;
  }
  return String(value);
}

export function printProtobufFile(file: ProtobufFile, normalized: boolean): string {
  const lines: string[] = [];
  const emit = (depth: number, text: string) => lines.push(`${'  '.repeat(depth)}${text}`);
  const ordered = <T>(items: readonly T[], compare: (a: T, b: T) => number): readonly T[] =>
    normalized ? [...items].sort(compare) : items;
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

  const options = (list: Options, skip: ReadonlySet<string> = new Set()): string[] => {
    const pairs = list.flatMap((entry) => Object.entries(entry)).filter(([name]) => !skip.has(name));
    return ordered(pairs, ([a], [b]) => byText(a, b)).map(([name, value]) => `${name} = ${optionValue(name, value)}`);
  };
  const bracketed = (list: Options, skip?: ReadonlySet<string>): string => {
    const printed = options(list, skip);
    return printed.length === 0 ? '' : ` [${printed.join(', ')}]`;
  };
  const reserved = (depth: number, entries: ReadonlyArray<number[] | string> | undefined) => {
    const ranges = ordered(
      (entries ?? []).filter((entry): entry is number[] => Array.isArray(entry)),
      (a, b) => a[0] - b[0],
    );
    const names = ordered(
      (entries ?? []).filter((entry): entry is string => typeof entry === 'string'),
      byText,
    );
    const range = ([from, to]: number[]) =>
      from === to ? `${from}` : `${from} to ${to === MAX_FIELD_NUMBER ? 'max' : to}`;
    if (ranges.length > 0) emit(depth, `reserved ${ranges.map(range).join(', ')};`);
    if (names.length > 0) emit(depth, `reserved ${names.map((name) => JSON.stringify(name)).join(', ')};`);
  };
  const typeName = (field: protobuf.Field | protobuf.MapField): string => {
    if (!normalized || !field.resolvedType) return field.type;
    return field.resolvedType.fullName;
  };
  const fieldLine = (field: protobuf.Field, syntax: string): string => {
    const proto3Optional = field.options?.proto3_optional === true;
    if (field instanceof protobufjs().MapField) {
      return `map<${field.keyType}, ${typeName(field)}> ${field.name} = ${field.id}${bracketed(optionList(field))};`;
    }
    const label =
      field.rule === 'repeated' || field.rule === 'required'
        ? `${field.rule} `
        : proto3Optional || (syntax === 'proto2' && !field.partOf)
          ? 'optional '
          : '';
    const skip = new Set(['proto3_optional']);
    return `${label}${typeName(field)} ${field.name} = ${field.id}${bracketed(optionList(field), skip)};`;
  };

  const printType = (object: protobuf.ReflectionObject, depth: number): void => {
    if (object instanceof protobufjs().Type) {
      emit(depth, `message ${object.name} {`);
      for (const option of options(optionList(object))) emit(depth + 1, `option ${option};`);
      reserved(depth + 1, object.reserved);
      for (const [from, to] of object.extensions ?? []) {
        emit(depth + 1, `extensions ${from === to ? from : `${from} to ${to === MAX_FIELD_NUMBER ? 'max' : to}`};`);
      }
      const own = object.fieldsArray.filter((field) => !field.declaringField && !field.name.startsWith('.'));
      const realOneofs = object.oneofsArray.filter((oneof) => !isSyntheticOneof(oneof));
      const inOneof = new Set(realOneofs.flatMap((oneof) => oneof.fieldsArray));
      const plain = ordered(
        own.filter((field) => !inOneof.has(field)),
        (a, b) => a.id - b.id,
      );
      for (const field of plain) emit(depth + 1, fieldLine(field, file.syntax));
      for (const oneof of ordered(realOneofs, (a, b) => byText(a.name, b.name))) {
        emit(depth + 1, `oneof ${oneof.name} {`);
        for (const option of options(optionList(oneof))) emit(depth + 2, `option ${option};`);
        const members = ordered(oneof.fieldsArray, (a, b) => a.id - b.id);
        for (const field of members) emit(depth + 2, fieldLine(field, file.syntax));
        emit(depth + 1, '}');
      }
      for (const nested of object.nestedArray) printType(nested, depth + 1);
      emit(depth, '}');
    } else if (object instanceof protobufjs().Enum) {
      emit(depth, `enum ${object.name} {`);
      for (const option of options(optionList(object))) emit(depth + 1, `option ${option};`);
      reserved(depth + 1, object.reserved);
      for (const [name, number] of Object.entries(object.values)) {
        const valueOptions = object.valuesOptions?.[name] ?? {};
        emit(depth + 1, `${name} = ${number}${bracketed(optionList({ options: valueOptions }))};`);
      }
      emit(depth, '}');
    } else if (object instanceof protobufjs().Service) {
      emit(depth, `service ${object.name} {`);
      for (const option of options(optionList(object))) emit(depth + 1, `option ${option};`);
      for (const method of object.methodsArray) {
        const request = `${method.requestStream ? 'stream ' : ''}${method.requestType}`;
        const response = `${method.responseStream ? 'stream ' : ''}${method.responseType}`;
        const methodOptions = options(optionList(method));
        const body = methodOptions.length === 0 ? ';' : ` { ${methodOptions.map((o) => `option ${o};`).join(' ')} }`;
        emit(depth + 1, `rpc ${method.name} (${request}) returns (${response})${body}`);
      }
      emit(depth, '}');
    } else if (object instanceof protobufjs().Field && object.extend) {
      emit(depth, `extend ${object.extend} {`);
      emit(depth + 1, fieldLine(object, file.syntax));
      emit(depth, '}');
    }
  };

  emit(0, `syntax = "${file.syntax}";`);
  if (file.packageName) emit(0, `package ${file.packageName};`);
  const weak = new Set(file.weakImports);
  for (const path of ordered(file.imports, byText)) emit(0, `import ${weak.has(path) ? 'weak ' : ''}"${path}";`);
  for (const option of options(file.options)) emit(0, `option ${option};`);
  for (const type of file.types) printType(type, 0);
  return `${lines.join('\n')}\n`;
}

/** protobufjs models a proto3 `optional` field as a oneof of its own; Protobuf itself does not. */
export function isSyntheticOneof(oneof: protobuf.OneOf): boolean {
  return oneof.fieldsArray.length === 1 && oneof.fieldsArray[0].options?.proto3_optional === true;
}
