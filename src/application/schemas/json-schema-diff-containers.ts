// The JSON Schema comparison of objects and arrays, where content models decide. An object (or a tuple array) is
// open when it takes any undeclared property (item) — no pattern properties and `additionalProperties` absent or
// `true` — closed when it takes none (`false`), and partially open when a schema (pattern or additional) says which
// it takes. A property the update drops is fine if the update's content model still takes it; a property the update
// adds is fine if the original's content model could not have held anything else under that name.
import { BOUNDS, compareBound, includesAll, type DiffContext } from './json-schema-diff-context.js';
import type { AdditionalSchema, JsonSchemaNode } from './json-schema-model.js';

type ObjectNode = Extract<JsonSchemaNode, { kind: 'object' }>;
type ArrayNode = Extract<JsonSchemaNode, { kind: 'array' }>;

const isOpen = (additional: AdditionalSchema) => additional.permits && additional.schema === undefined;
const isOpenObject = (node: ObjectNode) => node.patternProperties.length === 0 && isOpen(node.additional);

/** The schema a partially open object applies to an undeclared property of this name, if any. */
function schemaForUndeclared(node: ObjectNode, name: string): JsonSchemaNode | undefined {
  for (const [pattern, schema] of node.patternProperties) if (pattern.test(name)) return schema;
  return node.additional.schema;
}

const hasDefault = (node: JsonSchemaNode | undefined) => node?.default !== undefined;

export function compareObjects(ctx: DiffContext, o: ObjectNode, u: ObjectNode): void {
  ctx.within('required', () => {
    for (const name of o.properties.keys()) {
      if (!u.properties.has(name)) continue;
      const wasRequired = o.required.has(name);
      const isRequired = u.required.has(name);
      if (wasRequired && !isRequired) ctx.within(name, () => ctx.add('REQUIRED_ATTRIBUTE_REMOVED'));
      if (!wasRequired && isRequired) {
        const change = hasDefault(u.properties.get(name))
          ? 'REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED'
          : 'REQUIRED_ATTRIBUTE_ADDED';
        ctx.within(name, () => ctx.add(change));
      }
    }
  });
  ctx.within('properties', () => {
    for (const name of new Set([...o.properties.keys(), ...u.properties.keys()])) {
      ctx.within(name, () => compareProperty(ctx, o, u, name));
    }
  });
  ctx.within('dependencies', () => {
    for (const name of new Set([...o.dependencyArrays.keys(), ...u.dependencyArrays.keys()])) {
      const before = o.dependencyArrays.get(name);
      const after = u.dependencyArrays.get(name);
      ctx.within(name, () => {
        if (!after) ctx.add('DEPENDENCY_ARRAY_REMOVED');
        else if (!before) ctx.add('DEPENDENCY_ARRAY_ADDED');
        else if (includesAll(before, after) && includesAll(after, before)) return;
        else if (includesAll(after, before)) ctx.add('DEPENDENCY_ARRAY_EXTENDED');
        else if (includesAll(before, after)) ctx.add('DEPENDENCY_ARRAY_NARROWED');
        else ctx.add('DEPENDENCY_ARRAY_CHANGED');
      });
    }
    for (const name of new Set([...o.dependencySchemas.keys(), ...u.dependencySchemas.keys()])) {
      const before = o.dependencySchemas.get(name);
      const after = u.dependencySchemas.get(name);
      ctx.within(name, () => {
        if (!after) ctx.add('DEPENDENCY_SCHEMA_REMOVED');
        else if (!before) ctx.add('DEPENDENCY_SCHEMA_ADDED');
        else ctx.compare(before, after);
      });
    }
  });
  ctx.within('additionalProperties', () =>
    compareAdditional(ctx, o.additional, u.additional, {
      added: 'ADDITIONAL_PROPERTIES_ADDED',
      removed: 'ADDITIONAL_PROPERTIES_REMOVED',
      narrowed: 'ADDITIONAL_PROPERTIES_NARROWED',
      extended: 'ADDITIONAL_PROPERTIES_EXTENDED',
    }),
  );
  compareBound(ctx, 'maxProperties', o.maxProperties, u.maxProperties, BOUNDS.maxProperties);
  compareBound(ctx, 'minProperties', o.minProperties, u.minProperties, BOUNDS.minProperties);
}

function compareProperty(ctx: DiffContext, o: ObjectNode, u: ObjectNode, name: string): void {
  const before = o.properties.get(name);
  const after = u.properties.get(name);
  if (before && after) return ctx.compare(before, after);
  if (before) {
    if (isOpenObject(u)) return ctx.add('PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL');
    const covering = schemaForUndeclared(u, name);
    if (covering) {
      const trial = ctx.sub();
      trial.compare(before, covering);
      ctx.adopt(trial.differences);
      return ctx.add(
        trial.isCompatible()
          ? 'PROPERTY_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL'
          : 'PROPERTY_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
      );
    }
    return ctx.add(
      before.kind === 'false'
        ? 'PROPERTY_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL'
        : 'PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL',
    );
  }
  if (!after) return;
  const required = u.required.has(name);
  if (isOpenObject(o)) {
    if (after.kind === 'true') return ctx.add('PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL');
    if (!required) return ctx.add('OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL');
    return ctx.add(
      hasDefault(after)
        ? 'REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL'
        : 'REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL',
    );
  }
  const covering = schemaForUndeclared(o, name);
  if (covering) {
    const trial = ctx.sub();
    trial.compare(covering, after);
    ctx.adopt(trial.differences);
    ctx.add(
      trial.isCompatible()
        ? 'PROPERTY_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL'
        : 'PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
    );
  }
  if (!required) ctx.add('OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL');
  else if (hasDefault(after)) ctx.add('REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL');
  else ctx.add('REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL');
}

type AdditionalChanges = {
  added: 'ADDITIONAL_PROPERTIES_ADDED' | 'ADDITIONAL_ITEMS_ADDED';
  removed: 'ADDITIONAL_PROPERTIES_REMOVED' | 'ADDITIONAL_ITEMS_REMOVED';
  narrowed: 'ADDITIONAL_PROPERTIES_NARROWED' | 'ADDITIONAL_ITEMS_NARROWED';
  extended: 'ADDITIONAL_PROPERTIES_EXTENDED' | 'ADDITIONAL_ITEMS_EXTENDED';
};

function compareAdditional(
  ctx: DiffContext,
  o: AdditionalSchema,
  u: AdditionalSchema,
  changes: AdditionalChanges,
): void {
  if (o.permits !== u.permits) return ctx.add(u.permits ? changes.added : changes.removed);
  if (!o.schema && u.schema) return ctx.add(changes.narrowed);
  if (o.schema && !u.schema) return ctx.add(changes.extended);
  ctx.compare(o.schema, u.schema);
}

export function compareArrays(ctx: DiffContext, o: ArrayNode, u: ArrayNode): void {
  ctx.within('items', () => ctx.compare(o.items, u.items));
  const shared = Math.min(o.tuple.length, u.tuple.length);
  for (let index = 0; index < Math.max(o.tuple.length, u.tuple.length); index++) {
    ctx.within(`items/${index}`, () => {
      if (index < shared) return ctx.compare(o.tuple[index], u.tuple[index]);
      if (index < o.tuple.length) return compareRemovedItem(ctx, o.tuple[index], u);
      compareAddedItem(ctx, o, u.tuple[index]);
    });
  }
  ctx.within('additionalItems', () =>
    compareAdditional(ctx, o.additional, u.additional, {
      added: 'ADDITIONAL_ITEMS_ADDED',
      removed: 'ADDITIONAL_ITEMS_REMOVED',
      narrowed: 'ADDITIONAL_ITEMS_NARROWED',
      extended: 'ADDITIONAL_ITEMS_EXTENDED',
    }),
  );
  compareBound(ctx, 'maxItems', o.maxItems, u.maxItems, BOUNDS.maxItems);
  compareBound(ctx, 'minItems', o.minItems, u.minItems, BOUNDS.minItems);
  if (o.uniqueItems && !u.uniqueItems) ctx.add('UNIQUE_ITEMS_REMOVED', 'uniqueItems');
  if (!o.uniqueItems && u.uniqueItems) ctx.add('UNIQUE_ITEMS_ADDED', 'uniqueItems');
}

function compareRemovedItem(ctx: DiffContext, before: JsonSchemaNode, u: ArrayNode): void {
  if (isOpen(u.additional)) return ctx.add('ITEM_REMOVED_FROM_OPEN_CONTENT_MODEL');
  if (u.additional.schema) {
    const trial = ctx.sub();
    trial.compare(before, u.additional.schema);
    ctx.adopt(trial.differences);
    return ctx.add(
      trial.isCompatible()
        ? 'ITEM_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL'
        : 'ITEM_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
    );
  }
  ctx.add(
    before.kind === 'false'
      ? 'ITEM_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL'
      : 'ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL',
  );
}

function compareAddedItem(ctx: DiffContext, o: ArrayNode, after: JsonSchemaNode): void {
  if (isOpen(o.additional)) {
    return ctx.add(
      after.kind === 'true' ? 'ITEM_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL' : 'ITEM_ADDED_TO_OPEN_CONTENT_MODEL',
    );
  }
  if (o.additional.schema) {
    const trial = ctx.sub();
    trial.compare(o.additional.schema, after);
    ctx.adopt(trial.differences);
    return ctx.add(
      trial.isCompatible()
        ? 'ITEM_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL'
        : 'ITEM_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
    );
  }
  ctx.add('ITEM_ADDED_TO_CLOSED_CONTENT_MODEL');
}
