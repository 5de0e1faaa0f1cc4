// Avro compatibility is Avro's schema resolution: a reader schema can read a writer's data when avsc can build a
// resolver from the writer's type to the reader's (names compared without namespaces, as Avro's own checker does).
// That verdict is avsc's alone. To say why not, the same rules are walked here the way Avro's SchemaCompatibility
// reports them (NAME_MISMATCH, FIXED_SIZE_MISMATCH, MISSING_ENUM_SYMBOLS, READER_FIELD_MISSING_DEFAULT_VALUE,
// TYPE_MISMATCH, MISSING_UNION_BRANCH, each at a location such as /fields/0/type), worded as Confluent's messages.
import type avro from 'avsc';
import { StepBudget, type Incompatibility } from './compatibility-types.js';
import { errorText } from './schema-errors.js';
import type { ParsedAvroSchema } from './parsed-schema.js';

export type AvroIncompatibilityType =
  | 'NAME_MISMATCH'
  | 'FIXED_SIZE_MISMATCH'
  | 'MISSING_ENUM_SYMBOLS'
  | 'READER_FIELD_MISSING_DEFAULT_VALUE'
  | 'TYPE_MISMATCH'
  | 'MISSING_UNION_BRANCH';

export interface AvroIncompatibility {
  readonly type: AvroIncompatibilityType;
  readonly location: string;
  readonly message: string;
}

/** Writer types each primitive reader type can also read (Avro's promotions). */
const PROMOTIONS: Record<string, readonly string[]> = {
  long: ['int'],
  float: ['int', 'long'],
  double: ['int', 'long', 'float'],
  string: ['bytes'],
  bytes: ['string'],
};

/* eslint-disable @typescript-eslint/no-explicit-any -- avsc's typings do not declare its types' fields. */
type AnyType = any;

const unqualified = (name: string) => name.slice(name.lastIndexOf('.') + 1);
const kindOf = (type: AnyType): string => (String(type.typeName).startsWith('union') ? 'union' : type.typeName);
const describeType = (type: AnyType) => JSON.stringify(type.schema());

const aliasesOf = (typeOrField: AnyType): string[] =>
  typeof typeOrField.getAliases === 'function' ? typeOrField.getAliases() : (typeOrField.aliases ?? []);

function namesMatch(reader: AnyType, writer: AnyType): boolean {
  if (!writer.name) return true;
  const names: string[] = [reader.name, ...aliasesOf(reader)];
  return names.some((alias) => unqualified(alias) === unqualified(writer.name));
}

/**
 * The incompatibilities of reading `writer`'s data with `reader`, as Avro's checker lists them. A pair of named
 * types already being checked (`inProgress`, shared by the nested checks of union branches) counts as readable,
 * so recursive types terminate; union branches are checked once per pair of types (`memo`). Past the step bound
 * the walk stops with what it found: the verdict is avsc's, the walk only explains it.
 */
export function explainAvroIncompatibilities(
  reader: AnyType,
  writer: AnyType,
  inProgress: Set<string> = new Set(),
  memo: Map<AnyType, Map<AnyType, boolean>> = new Map(),
  budget: StepBudget = new StepBudget(),
): AvroIncompatibility[] {
  const found: AvroIncompatibility[] = [];

  const check = (r: AnyType, w: AnyType, location: string[]): void => {
    if (!budget.tryTake()) return;
    const at = (...more: string[]) => `/${[...location, ...more].join('/')}`;
    const report = (type: AvroIncompatibilityType, message: string, where = at()): void => {
      found.push({ type, location: where, message });
    };
    const readerKind = kindOf(r);
    const writerKind = kindOf(w);
    if (readerKind === writerKind) {
      if (readerKind === 'array') return check(r.itemsType, w.itemsType, [...location, 'items']);
      if (readerKind === 'map') return check(r.valuesType, w.valuesType, [...location, 'values']);
      if (readerKind === 'union') {
        w.types.forEach((branch: AnyType, index: number) => {
          if (unreadable(r, branch)) {
            report('MISSING_UNION_BRANCH', `reader union lacking writer type: ${describeType(branch)}`, at(`${index}`));
          }
        });
        return;
      }
      if (['record', 'error', 'enum', 'fixed'].includes(readerKind)) {
        if (!namesMatch(r, w)) return report('NAME_MISMATCH', `expected: ${w.name}`, at('name'));
        const pair = `${r.name}\u0000${w.name}`;
        if (inProgress.has(pair)) return;
        inProgress.add(pair);
        if (readerKind === 'fixed' && r.size !== w.size) {
          report('FIXED_SIZE_MISMATCH', `expected: ${w.size}, found: ${r.size}`, at('size'));
        }
        if (readerKind === 'enum' && r.default === undefined) {
          const missing = w.symbols.filter((symbol: string) => !r.symbols.includes(symbol));
          if (missing.length > 0) report('MISSING_ENUM_SYMBOLS', `[${missing.join(', ')}]`, at('symbols'));
        }
        if (readerKind === 'record' || readerKind === 'error') {
          r.fields.forEach((field: AnyType, index: number) => {
            const names: string[] = [field.name, ...aliasesOf(field)];
            const writerField = w.fields.find((candidate: AnyType) => names.includes(candidate.name));
            if (!writerField) {
              if (field.defaultValue() === undefined) {
                report('READER_FIELD_MISSING_DEFAULT_VALUE', field.name, at('fields', `${index}`));
              }
            } else {
              check(field.type, writerField.type, [...location, 'fields', `${index}`, 'type']);
            }
          });
        }
        inProgress.delete(pair);
        return;
      }
      return;
    }
    if (writerKind === 'union') {
      w.types.forEach((branch: AnyType, index: number) => check(r, branch, [...location, `${index}`]));
      return;
    }
    if (readerKind === 'union') {
      if (r.types.every((branch: AnyType) => unreadable(branch, w))) {
        report('MISSING_UNION_BRANCH', `reader union lacking writer type: ${describeType(w)}`);
      }
      return;
    }
    if (PROMOTIONS[readerKind]?.includes(writerKind)) return;
    report('TYPE_MISMATCH', `reader type: ${readerKind} not compatible with writer type: ${writerKind}`);
  };

  const unreadable = (r: AnyType, w: AnyType): boolean => {
    const known = memo.get(r)?.get(w);
    if (known !== undefined) return known;
    const result = explainAvroIncompatibilities(r, w, inProgress, memo, budget).length > 0;
    memo.set(r, (memo.get(r) ?? new Map()).set(w, result));
    return result;
  };

  check(reader, writer, []);
  return found;
}

/** avsc's verdict: the resolver's error when `reader` cannot read `writer`'s data, undefined when it can. */
export function avroResolutionError(reader: AnyType, writer: AnyType): string | undefined {
  try {
    (reader as avro.Type).createResolver(writer as avro.Type, { ignoreNamespaces: true } as never);
    return undefined;
  } catch (error) {
    return errorText(error);
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */

function description(incompatibility: AvroIncompatibility, reader: string, writer: string): string {
  const path = incompatibility.location;
  switch (incompatibility.type) {
    case 'FIXED_SIZE_MISMATCH':
      return `The size of FIXED type field at path '${path}' in the ${reader} schema does not match with the ${writer} schema`;
    case 'TYPE_MISMATCH':
      return `The type (path '${path}') of a field in the ${reader} schema does not match with the ${writer} schema`;
    case 'NAME_MISMATCH':
      return `The name of the schema has changed (path '${path}')`;
    case 'MISSING_ENUM_SYMBOLS':
      return `The ${reader} schema is missing enum symbols '${incompatibility.message}' at path '${path}' in the ${writer} schema`;
    case 'MISSING_UNION_BRANCH':
      return `The ${reader} schema is missing a type inside a union field at path '${path}' in the ${writer} schema`;
    case 'READER_FIELD_MISSING_DEFAULT_VALUE':
      return `The field '${incompatibility.message}' at path '${path}' in the ${reader} schema has no default value and is missing in the ${writer} schema`;
  }
}

export function avroIncompatibilities(reader: ParsedAvroSchema, writer: ParsedAvroSchema): Incompatibility[] {
  const resolutionError = avroResolutionError(reader.avroType, writer.avroType);
  if (resolutionError === undefined) return [];
  const explained = explainAvroIncompatibilities(reader.avroType, writer.avroType);
  const reasons: AvroIncompatibility[] =
    explained.length > 0 ? explained : [{ type: 'TYPE_MISMATCH', location: '/', message: resolutionError }];
  return reasons.map((reason) => ({
    describe: (readerName, writerName) =>
      `{errorType:'${reason.type}', description:'${description(reason, readerName, writerName)}', additionalInfo:'${reason.message}'}`,
  }));
}
