// The vocabulary of Brook's Kafka message table: a message is a list of fields, each with the versions it exists
// in, the versions in which it may be null, whether it is a tagged field (KIP-482) and its default. The table
// files (messages/*.ts) are written with these helpers; codec.ts compiles one (API, version) layout from them
// once; the TypeScript types of the decoded and encodable bodies are derived from the same table, so adding a
// version or a field is a change to the table only.
//
// Versions are written as Kafka's message definitions write them: '3+' (3 and later), '0-7', '5' or 'none'.
// A field absent from a version decodes to its default (the table's `default`, else 0, false, '', the zero UUID,
// an empty buffer, an empty array, or null for records); encoding a non-default value for a field the version
// lacks is an error unless the field is `ignorable`, as in Kafka. A `tag` makes the field tagged in the flexible
// versions of its message (all of Brook's tagged fields exist only in flexible versions); a tagged field is
// written only when it differs from its default.

export type Versions = `${number}+` | `${number}-${number}` | `${number}` | 'none';

export type ScalarType = 'bool' | 'int8' | 'int16' | 'int32' | 'int64' | 'uuid' | 'string' | 'bytes' | 'records';

/** What a decoded field holds. int64 is a JavaScript number: values outside the safe range are refused. */
export interface ScalarValues {
  bool: boolean;
  int8: number;
  int16: number;
  int32: number;
  int64: number;
  /** Lower-case 8-4-4-4-12 hexadecimal, as crypto.randomUUID() writes it. */
  uuid: string;
  string: string;
  /** A slice of the frame it was decoded from (no copy). */
  bytes: Buffer;
  /** Record batches, opaque: a slice of the frame (decoding) or buffers written as they are (encoding). */
  records: Buffer;
}

/** What an encoder accepts for a field: record batches may be a list of buffers, sent without being joined. */
export type ScalarInputs = Omit<ScalarValues, 'records'> & { records: Buffer | readonly Buffer[] };

export type DefaultValue = number | boolean | string | null;

export interface FieldOptions {
  /** The versions in which the field may be null (strings, bytes, records, arrays, structs). */
  readonly nullable?: Versions;
  /** The tag of a tagged field (flexible versions only). */
  readonly tag?: number;
  readonly default?: DefaultValue;
  /** A non-default value may be dropped silently when encoding a version without the field. */
  readonly ignorable?: boolean;
}

export type FieldShape =
  | { readonly kind: 'scalar'; readonly type: ScalarType }
  | { readonly kind: 'scalarArray'; readonly element: ScalarType }
  | { readonly kind: 'structArray'; readonly fields: readonly Field[] }
  | { readonly kind: 'struct'; readonly fields: readonly Field[] };

/**
 * One field of the table. The type parameters only carry the field's TypeScript types (decoded value, encodable
 * value, whether an encoder may leave it out); the properties are what the codec compiler reads.
 */
export interface Field<N extends string = string, Out = unknown, In = unknown, Optional extends boolean = boolean> {
  readonly name: N;
  readonly versions: Versions;
  readonly shape: FieldShape;
  readonly options: FieldOptions;
  readonly types?: { readonly out: Out; readonly in: In; readonly optional: Optional };
}

type NullIf<O> = O extends { readonly nullable: Versions } ? null : never;
/** An encoder may leave out a field that has a stated default or is tagged. */
type OptionalIf<O> = O extends { readonly default: DefaultValue }
  ? true
  : O extends { readonly tag: number }
    ? true
    : false;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type FieldOut<F> = F extends { readonly types?: { readonly out: infer O } } ? O : never;
type FieldIn<F> = F extends { readonly types?: { readonly in: infer I } } ? I : never;
type IsOptional<F> = F extends { readonly types?: { readonly optional: true } } ? true : false;

/** A decoded struct: every field of every version, absent ones at their defaults. */
export type Body<Fs extends readonly Field[]> = Simplify<{ [F in Fs[number] as F['name']]: FieldOut<F> }>;

/** What an encoder takes for a struct: fields with a default or a tag may be left out. */
export type InputBody<Fs extends readonly Field[]> = Simplify<
  { [F in Fs[number] as IsOptional<F> extends true ? never : F['name']]: FieldIn<F> } & {
    [F in Fs[number] as IsOptional<F> extends true ? F['name'] : never]?: FieldIn<F>;
  }
>;

type ScalarField<N extends string, T extends ScalarType, O> = Field<
  N,
  ScalarValues[T] | NullIf<O>,
  ScalarInputs[T] | NullIf<O>,
  OptionalIf<O>
>;

function scalarHelper<T extends ScalarType>(type: T) {
  return <N extends string, const O extends FieldOptions = Record<never, never>>(
    name: N,
    versions: Versions,
    options?: O,
  ): ScalarField<N, T, O> => ({ name, versions, shape: { kind: 'scalar', type }, options: options ?? {} });
}

export const bool = scalarHelper('bool');
export const int8 = scalarHelper('int8');
export const int16 = scalarHelper('int16');
export const int32 = scalarHelper('int32');
export const int64 = scalarHelper('int64');
export const uuid = scalarHelper('uuid');
export const string = scalarHelper('string');
export const bytes = scalarHelper('bytes');
export const records = scalarHelper('records');

/** An array of scalars (Kafka's `[]int32`, `[]string`). */
export function scalars<N extends string, T extends ScalarType, const O extends FieldOptions = Record<never, never>>(
  name: N,
  element: T,
  versions: Versions,
  options?: O,
): Field<N, ScalarValues[T][] | NullIf<O>, ScalarInputs[T][] | NullIf<O>, OptionalIf<O>> {
  return { name, versions, shape: { kind: 'scalarArray', element }, options: options ?? {} };
}

/** An array of structs (Kafka's `[]SomeStruct` with nested fields). */
export function array<
  N extends string,
  const Fs extends readonly Field[],
  const O extends FieldOptions = Record<never, never>,
>(
  name: N,
  versions: Versions,
  fields: Fs,
  options?: O,
): Field<N, Body<Fs>[] | NullIf<O>, InputBody<Fs>[] | NullIf<O>, OptionalIf<O>> {
  return { name, versions, shape: { kind: 'structArray', fields }, options: options ?? {} };
}

/** A single nested struct (in Brook's versions, always a tagged field). */
export function struct<
  N extends string,
  const Fs extends readonly Field[],
  const O extends FieldOptions = Record<never, never>,
>(
  name: N,
  versions: Versions,
  fields: Fs,
  options?: O,
): Field<N, Body<Fs> | NullIf<O>, InputBody<Fs> | NullIf<O>, OptionalIf<O>> {
  return { name, versions, shape: { kind: 'struct', fields }, options: options ?? {} };
}

export interface ApiDefinition<
  Name extends string = string,
  Key extends number = number,
  Request extends readonly Field[] = readonly Field[],
  Response extends readonly Field[] = readonly Field[],
> {
  readonly name: Name;
  readonly apiKey: Key;
  /** The versions Brook's table describes (and can decode and encode). */
  readonly versions: Versions;
  /** The versions that use KIP-482's compact encodings and tagged fields. */
  readonly flexible: Versions;
  readonly request: Request;
  readonly response: Response;
  /** ApiVersions answers with response header v0 even in its flexible versions (KIP-511). */
  readonly responseHeaderAlwaysV0?: boolean;
}

export function defineApi<
  const Name extends string,
  const Key extends number,
  const Request extends readonly Field[],
  const Response extends readonly Field[],
>(definition: ApiDefinition<Name, Key, Request, Response>): ApiDefinition<Name, Key, Request, Response> {
  return definition;
}

export interface VersionRange {
  readonly min: number;
  /** Infinity for an open range ('3+'); min > max for 'none'. */
  readonly max: number;
}

export function parseVersions(versions: Versions): VersionRange {
  if (versions === 'none') return { min: 1, max: 0 };
  if (versions.endsWith('+')) return { min: Number(versions.slice(0, -1)), max: Infinity };
  const dash = versions.indexOf('-');
  if (dash === -1) return { min: Number(versions), max: Number(versions) };
  return { min: Number(versions.slice(0, dash)), max: Number(versions.slice(dash + 1)) };
}

export function inVersions(version: number, versions: Versions | undefined): boolean {
  if (versions === undefined) return false;
  const range = parseVersions(versions);
  return version >= range.min && version <= range.max;
}
