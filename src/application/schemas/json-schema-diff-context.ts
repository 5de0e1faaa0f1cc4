// What a comparison of two JSON Schemas carries along (json-schema-diff.ts walks them): the differences found with
// their JSON paths, the step budget, the schemas being compared further up the path, and trial contexts whose
// differences are adopted or dropped; and the checks of numeric bounds and value sets both the scalar and the
// container comparisons use. Subschemas are compared through the context (compare), so that the container
// comparisons (json-schema-diff-containers.ts) recurse without importing the walk.
import { StepBudget } from './compatibility-types.js';
import { ComparisonContext, type SchemaDifference } from './comparison-context.js';
import type { JsonSchemaNode } from './json-schema-model.js';
import { JSON_SCHEMA_RULES, type JsonSchemaChange } from './json-schema-rules.js';

export type JsonSchemaDifference = SchemaDifference<JsonSchemaChange>;

/** The walk: compares `original` and `update` on the context's path, adding their differences to it. */
export type CompareSchemas = (ctx: DiffContext, original?: JsonSchemaNode, update?: JsonSchemaNode) => void;

export class DiffContext extends ComparisonContext<JsonSchemaChange, JsonSchemaNode> {
  constructor(
    private readonly compareSchemas: CompareSchemas,
    budget: StepBudget = new StepBudget(),
    path: string[] = [],
    comparing: Set<JsonSchemaNode> = new Set(),
  ) {
    super(JSON_SCHEMA_RULES, budget, path, comparing);
  }

  /** A context for a trial comparison: same path and budget, its differences kept apart until adopted. */
  sub(): DiffContext {
    return new DiffContext(this.compareSchemas, this.budget, [...this.path], new Set(this.comparing));
  }

  /** Compares two subschemas on this context's path (json-schema-diff.ts's compareSchemas). */
  compare(original?: JsonSchemaNode, update?: JsonSchemaNode): void {
    this.compareSchemas(this, original, update);
  }
}

/** Adds the difference between an upper (`isMaximum`) or lower bound of the original and of the update. */
export function compareBound(
  ctx: DiffContext,
  keyword: string,
  original: number | undefined,
  update: number | undefined,
  changes: {
    added: JsonSchemaChange;
    removed: JsonSchemaChange;
    increased: JsonSchemaChange;
    decreased: JsonSchemaChange;
  },
): void {
  if (original === update) return;
  if (original === undefined) ctx.add(changes.added, keyword);
  else if (update === undefined) ctx.add(changes.removed, keyword);
  else ctx.add(original < update ? changes.increased : changes.decreased, keyword);
}

const bound = (name: string) =>
  ({
    added: `${name}_ADDED`,
    removed: `${name}_REMOVED`,
    increased: `${name}_INCREASED`,
    decreased: `${name}_DECREASED`,
  }) as {
    added: JsonSchemaChange;
    removed: JsonSchemaChange;
    increased: JsonSchemaChange;
    decreased: JsonSchemaChange;
  };

export const BOUNDS = {
  maxLength: bound('MAX_LENGTH'),
  minLength: bound('MIN_LENGTH'),
  maximum: bound('MAXIMUM'),
  minimum: bound('MINIMUM'),
  exclusiveMaximum: bound('EXCLUSIVE_MAXIMUM'),
  exclusiveMinimum: bound('EXCLUSIVE_MINIMUM'),
  maxProperties: bound('MAX_PROPERTIES'),
  minProperties: bound('MIN_PROPERTIES'),
  maxItems: bound('MAX_ITEMS'),
  minItems: bound('MIN_ITEMS'),
};

/** Whether every element of `part` is in `whole`. */
export const includesAll = <T>(whole: Iterable<T>, part: Iterable<T>) => {
  const set = new Set(whole);
  return [...part].every((element) => set.has(element));
};
