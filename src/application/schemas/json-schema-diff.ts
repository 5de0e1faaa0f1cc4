// Comparing two JSON Schemas the way Confluent's registry does: walk the original (the writer's) and the update
// (the reader's) side by side and list every difference by its rule (json-schema-rules.ts) and JSON path; the
// update can read what the original wrote when every difference is a compatible one. Singleton combinations
// compare as their one member; an update that is an `anyOf`/`oneOf` of something the original matches extends it;
// combinations compare member by member through a maximum matching of compatible pairs. A schema already being
// compared on this path is not compared again, so recursive schemas terminate.
import { compareArrays, compareObjects } from './json-schema-diff-containers.js';
import {
  BOUNDS,
  compareBound,
  includesAll,
  type DiffContext,
  type JsonSchemaDifference,
} from './json-schema-diff-context.js';
import type { Criterion, JsonSchemaNode } from './json-schema-model.js';
import type { JsonSchemaChange } from './json-schema-rules.js';

/** How many `$ref`s may chain before a schema is taken to accept anything. */
const MAX_REFERENCE_HOPS = 64;

function dereference(node: JsonSchemaNode): JsonSchemaNode {
  let current = node;
  for (let hop = 0; current.kind === 'ref'; hop++) {
    const target = hop < MAX_REFERENCE_HOPS ? current.resolve() : undefined;
    current = target ?? { kind: 'true' };
  }
  return current;
}

/** Throws ComparisonTooComplex when the comparison runs out of steps. */
export function compareSchemas(ctx: DiffContext, original?: JsonSchemaNode, update?: JsonSchemaNode): void {
  ctx.budget.take();
  if (!original && !update) return;
  if (!original) return ctx.add('SCHEMA_ADDED');
  if (!update) return ctx.add('SCHEMA_REMOVED');
  const o = dereference(original);
  const u = dereference(update);

  if (o.kind !== 'combined' && u.kind === 'combined') {
    if (u.subschemas.length === 1) {
      const trial = ctx.sub();
      compareSchemas(trial, o, u.subschemas[0]);
      if (trial.isCompatible()) return ctx.adopt(trial.differences);
    } else if (u.criterion !== 'allOf') {
      for (const subschema of u.subschemas) {
        const trial = ctx.sub();
        compareSchemas(trial, o, subschema);
        if (trial.isCompatible()) {
          ctx.adopt(trial.differences);
          return ctx.add('SUM_TYPE_EXTENDED');
        }
      }
    }
  } else if (o.kind === 'combined' && u.kind !== 'combined' && o.subschemas.length === 1) {
    const trial = ctx.sub();
    compareSchemas(trial, o.subschemas[0], u);
    if (trial.isCompatible()) return ctx.adopt(trial.differences);
  }

  if (o.kind !== u.kind) {
    if (o.kind !== 'false' && u.kind !== 'true') ctx.add('TYPE_CHANGED');
    return;
  }
  ctx.entering(o, () => {
    if (o.id !== u.id) ctx.add('ID_CHANGED');
    if (o.title !== u.title) ctx.add('TITLE_CHANGED');
    if (o.description !== u.description) ctx.add('DESCRIPTION_CHANGED');
    if (JSON.stringify(o.default) !== JSON.stringify(u.default)) ctx.add('DEFAULT_CHANGED');
    compareSameKind(ctx, o, u);
  });
}

type Of<K extends JsonSchemaNode['kind']> = Extract<JsonSchemaNode, { kind: K }>;

function compareSameKind(ctx: DiffContext, o: JsonSchemaNode, u: JsonSchemaNode): void {
  switch (o.kind) {
    case 'string':
      return compareStrings(ctx, o, u as Of<'string'>);
    case 'number':
      return compareNumbers(ctx, o, u as Of<'number'>);
    case 'enum':
      return compareEnums(ctx, o, u as Of<'enum'>);
    case 'combined':
      return compareCombined(ctx, o, u as Of<'combined'>);
    case 'not':
      return compareNot(ctx, o, u as Of<'not'>);
    case 'object':
      return compareObjects(ctx, o, u as Of<'object'>);
    case 'array':
      return compareArrays(ctx, o, u as Of<'array'>);
    default:
      return;
  }
}

function compareStrings(ctx: DiffContext, o: Of<'string'>, u: Of<'string'>): void {
  compareBound(ctx, 'maxLength', o.maxLength, u.maxLength, BOUNDS.maxLength);
  compareBound(ctx, 'minLength', o.minLength, u.minLength, BOUNDS.minLength);
  if (o.pattern === undefined && u.pattern !== undefined) ctx.add('PATTERN_ADDED', 'pattern');
  else if (o.pattern !== undefined && u.pattern === undefined) ctx.add('PATTERN_REMOVED', 'pattern');
  else if (o.pattern !== u.pattern) ctx.add('PATTERN_CHANGED', 'pattern');
}

const isMultipleOf = (value: number, divisor: number) => {
  const ratio = value / divisor;
  return ratio >= 1 && Math.abs(ratio - Math.round(ratio)) < 1e-9;
};

function compareNumbers(ctx: DiffContext, o: Of<'number'>, u: Of<'number'>): void {
  compareBound(ctx, 'maximum', o.maximum, u.maximum, BOUNDS.maximum);
  compareBound(ctx, 'minimum', o.minimum, u.minimum, BOUNDS.minimum);
  compareBound(ctx, 'exclusiveMaximum', o.exclusiveMaximum, u.exclusiveMaximum, BOUNDS.exclusiveMaximum);
  compareBound(ctx, 'exclusiveMinimum', o.exclusiveMinimum, u.exclusiveMinimum, BOUNDS.exclusiveMinimum);
  if (o.multipleOf !== u.multipleOf) {
    if (o.multipleOf === undefined) ctx.add('MULTIPLE_OF_ADDED', 'multipleOf');
    else if (u.multipleOf === undefined) ctx.add('MULTIPLE_OF_REMOVED', 'multipleOf');
    else if (isMultipleOf(u.multipleOf, o.multipleOf)) ctx.add('MULTIPLE_OF_EXPANDED', 'multipleOf');
    else if (isMultipleOf(o.multipleOf, u.multipleOf)) ctx.add('MULTIPLE_OF_REDUCED', 'multipleOf');
    else ctx.add('MULTIPLE_OF_CHANGED', 'multipleOf');
  }
  if (o.integer && !u.integer) ctx.add('TYPE_EXTENDED');
  else if (!o.integer && u.integer) ctx.add('TYPE_NARROWED');
}

function compareEnums(ctx: DiffContext, o: Of<'enum'>, u: Of<'enum'>): void {
  const sameValues = includesAll(o.values, u.values) && includesAll(u.values, o.values);
  if (sameValues) return;
  if (includesAll(u.values, o.values)) ctx.add('ENUM_ARRAY_EXTENDED', 'enum');
  else if (includesAll(o.values, u.values)) ctx.add('ENUM_ARRAY_NARROWED', 'enum');
  else ctx.add('ENUM_ARRAY_CHANGED', 'enum');
}

function criterionChange(o: Of<'combined'>, u: Of<'combined'>): JsonSchemaChange | undefined {
  const singleton = (node: Of<'combined'>) => node.subschemas.length === 1;
  if (o.criterion === u.criterion) return undefined;
  if (u.criterion === 'anyOf') return 'COMBINED_TYPE_EXTENDED';
  if (u.criterion === 'oneOf') return singleton(o) ? 'COMBINED_TYPE_EXTENDED' : 'COMBINED_TYPE_CHANGED';
  return singleton(o) && singleton(u) ? 'COMBINED_TYPE_EXTENDED' : 'COMBINED_TYPE_CHANGED';
}

function compareCombined(ctx: DiffContext, o: Of<'combined'>, u: Of<'combined'>): void {
  const change = criterionChange(o, u);
  if (change) ctx.add(change);
  if (change === 'COMBINED_TYPE_CHANGED') return;
  const originals = [...new Set(o.subschemas)];
  const updates = [...new Set(u.subschemas)];
  const product = u.criterion === 'allOf';
  if (originals.length < updates.length) ctx.add(product ? 'PRODUCT_TYPE_EXTENDED' : 'SUM_TYPE_EXTENDED');
  else if (originals.length > updates.length) ctx.add(product ? 'PRODUCT_TYPE_NARROWED' : 'SUM_TYPE_NARROWED');

  const compatibleEdges = originals.map((original, i) => {
    const edges = new Map<number, readonly JsonSchemaDifference[]>();
    ctx.within(`${o.criterion satisfies Criterion}/${i}`, () => {
      updates.forEach((candidate, j) => {
        const trial = ctx.sub();
        compareSchemas(trial, original, candidate);
        if (trial.isCompatible()) edges.set(j, trial.differences);
      });
    });
    return edges;
  });
  const matching = maximumMatching(compatibleEdges, updates.length);
  matching.forEach((j, i) => ctx.adopt(compatibleEdges[i].get(j)!));
  if (matching.size < Math.min(originals.length, updates.length)) ctx.add('COMBINED_TYPE_SUBSCHEMAS_CHANGED');
}

/** A maximum bipartite matching (Kuhn's augmenting paths): original index to update index. */
function maximumMatching(edges: ReadonlyArray<ReadonlyMap<number, unknown>>, updateCount: number): Map<number, number> {
  const matchedOriginal = new Array<number | undefined>(updateCount).fill(undefined);
  const augment = (i: number, seen: boolean[]): boolean => {
    for (const j of edges[i].keys()) {
      if (seen[j]) continue;
      seen[j] = true;
      const holder = matchedOriginal[j];
      if (holder === undefined || augment(holder, seen)) {
        matchedOriginal[j] = i;
        return true;
      }
    }
    return false;
  };
  edges.forEach((_, i) => augment(i, new Array<boolean>(updateCount).fill(false)));
  const matching = new Map<number, number>();
  matchedOriginal.forEach((i, j) => {
    if (i !== undefined) matching.set(i, j);
  });
  return matching;
}

function compareNot(ctx: DiffContext, o: Of<'not'>, u: Of<'not'>): void {
  ctx.within('not', () => {
    const trial = ctx.sub();
    compareSchemas(trial, u.schema, o.schema);
    ctx.add(trial.isCompatible() ? 'NOT_TYPE_NARROWED' : 'NOT_TYPE_EXTENDED');
  });
}
