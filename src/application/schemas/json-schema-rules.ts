// The rule table of JSON Schema compatibility, after Confluent's (its `Difference.Type`s and the set of compatible
// ones): every difference the comparison of an old ("original", the writer's) schema with a new ("update", the
// reader's) one can find, whether a reader with the update still accepts all data the original accepted, and how
// the message describes it. A keyword that only constrains further (a maximum lowered, a property made required)
// is incompatible; one that relaxes (a maximum raised, removed) is compatible. Open content models (no
// `additionalProperties`, or `true`) accept any undeclared property, so adding a declared property to one is
// incompatible (old data may hold that name with any value); closed ones (`false`) accept none, and partially open
// ones (a schema for additional or pattern properties) accept what that schema accepts.

/** How a message words a difference; `%r` is the reader's schema ("new" or "old"), `%w` the writer's. */
type Wording =
  | 'keyword'
  | 'more'
  | 'less'
  | 'value-changed'
  | 'fewer-elements'
  | 'more-elements'
  | 'type-changed'
  | 'added-to-open'
  | 'required-added-to-unopen'
  | 'removed-from-closed'
  | 'removed-not-covered'
  | 'added-not-covered'
  | 'plain';

interface Rule {
  readonly compatible: boolean;
  readonly wording: Wording;
}

const compatible = (wording: Wording = 'plain'): Rule => ({ compatible: true, wording });
const incompatible = (wording: Wording): Rule => ({ compatible: false, wording });

export const JSON_SCHEMA_RULES = {
  ID_CHANGED: compatible(),
  DESCRIPTION_CHANGED: compatible(),
  TITLE_CHANGED: compatible(),
  DEFAULT_CHANGED: compatible(),
  SCHEMA_ADDED: incompatible('keyword'),
  SCHEMA_REMOVED: compatible(),
  TYPE_EXTENDED: compatible(),
  TYPE_NARROWED: incompatible('type-changed'),
  TYPE_CHANGED: incompatible('type-changed'),

  MAX_LENGTH_ADDED: incompatible('keyword'),
  MAX_LENGTH_REMOVED: compatible(),
  MAX_LENGTH_INCREASED: compatible(),
  MAX_LENGTH_DECREASED: incompatible('less'),
  MIN_LENGTH_ADDED: incompatible('keyword'),
  MIN_LENGTH_REMOVED: compatible(),
  MIN_LENGTH_INCREASED: incompatible('more'),
  MIN_LENGTH_DECREASED: compatible(),
  PATTERN_ADDED: incompatible('keyword'),
  PATTERN_REMOVED: compatible(),
  PATTERN_CHANGED: incompatible('value-changed'),

  MAXIMUM_ADDED: incompatible('keyword'),
  MAXIMUM_REMOVED: compatible(),
  MAXIMUM_INCREASED: compatible(),
  MAXIMUM_DECREASED: incompatible('less'),
  MINIMUM_ADDED: incompatible('keyword'),
  MINIMUM_REMOVED: compatible(),
  MINIMUM_INCREASED: incompatible('more'),
  MINIMUM_DECREASED: compatible(),
  EXCLUSIVE_MAXIMUM_ADDED: incompatible('keyword'),
  EXCLUSIVE_MAXIMUM_REMOVED: compatible(),
  EXCLUSIVE_MAXIMUM_INCREASED: compatible(),
  EXCLUSIVE_MAXIMUM_DECREASED: incompatible('less'),
  EXCLUSIVE_MINIMUM_ADDED: incompatible('keyword'),
  EXCLUSIVE_MINIMUM_REMOVED: compatible(),
  EXCLUSIVE_MINIMUM_INCREASED: incompatible('more'),
  EXCLUSIVE_MINIMUM_DECREASED: compatible(),
  MULTIPLE_OF_ADDED: incompatible('keyword'),
  MULTIPLE_OF_REMOVED: compatible(),
  MULTIPLE_OF_EXPANDED: incompatible('more'),
  MULTIPLE_OF_REDUCED: compatible(),
  MULTIPLE_OF_CHANGED: incompatible('value-changed'),

  REQUIRED_ATTRIBUTE_ADDED: incompatible('keyword'),
  REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED: compatible(),
  REQUIRED_ATTRIBUTE_REMOVED: compatible(),
  MAX_PROPERTIES_ADDED: incompatible('keyword'),
  MAX_PROPERTIES_REMOVED: compatible(),
  MAX_PROPERTIES_INCREASED: compatible(),
  MAX_PROPERTIES_DECREASED: incompatible('less'),
  MIN_PROPERTIES_ADDED: incompatible('keyword'),
  MIN_PROPERTIES_REMOVED: compatible(),
  MIN_PROPERTIES_INCREASED: incompatible('more'),
  MIN_PROPERTIES_DECREASED: compatible(),
  ADDITIONAL_PROPERTIES_ADDED: compatible(),
  ADDITIONAL_PROPERTIES_REMOVED: incompatible('keyword'),
  ADDITIONAL_PROPERTIES_EXTENDED: compatible(),
  ADDITIONAL_PROPERTIES_NARROWED: incompatible('fewer-elements'),
  DEPENDENCY_ARRAY_ADDED: incompatible('keyword'),
  DEPENDENCY_ARRAY_REMOVED: compatible(),
  DEPENDENCY_ARRAY_EXTENDED: incompatible('more-elements'),
  DEPENDENCY_ARRAY_NARROWED: compatible(),
  DEPENDENCY_ARRAY_CHANGED: incompatible('value-changed'),
  DEPENDENCY_SCHEMA_ADDED: incompatible('keyword'),
  DEPENDENCY_SCHEMA_REMOVED: compatible(),
  REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL: incompatible('added-to-open'),
  REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL: incompatible('added-to-open'),
  OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL: incompatible('added-to-open'),
  PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL: compatible(),
  REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL: incompatible('required-added-to-unopen'),
  REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL: compatible(),
  OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL: compatible(),
  PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL: compatible(),
  PROPERTY_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL: compatible(),
  PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL: incompatible('removed-from-closed'),
  PROPERTY_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: compatible(),
  PROPERTY_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: incompatible('removed-not-covered'),
  PROPERTY_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: compatible(),
  PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: incompatible('added-not-covered'),

  MAX_ITEMS_ADDED: incompatible('keyword'),
  MAX_ITEMS_REMOVED: compatible(),
  MAX_ITEMS_INCREASED: compatible(),
  MAX_ITEMS_DECREASED: incompatible('less'),
  MIN_ITEMS_ADDED: incompatible('keyword'),
  MIN_ITEMS_REMOVED: compatible(),
  MIN_ITEMS_INCREASED: incompatible('more'),
  MIN_ITEMS_DECREASED: compatible(),
  UNIQUE_ITEMS_ADDED: incompatible('keyword'),
  UNIQUE_ITEMS_REMOVED: compatible(),
  ADDITIONAL_ITEMS_ADDED: compatible(),
  ADDITIONAL_ITEMS_REMOVED: incompatible('keyword'),
  ADDITIONAL_ITEMS_EXTENDED: compatible(),
  ADDITIONAL_ITEMS_NARROWED: incompatible('fewer-elements'),
  ITEM_ADDED_TO_OPEN_CONTENT_MODEL: incompatible('added-to-open'),
  ITEM_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL: compatible(),
  ITEM_ADDED_TO_CLOSED_CONTENT_MODEL: compatible(),
  ITEM_REMOVED_FROM_OPEN_CONTENT_MODEL: compatible(),
  ITEM_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL: compatible(),
  ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL: incompatible('removed-from-closed'),
  ITEM_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: compatible(),
  ITEM_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: incompatible('removed-not-covered'),
  ITEM_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: compatible(),
  ITEM_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL: incompatible('added-not-covered'),

  ENUM_ARRAY_EXTENDED: compatible(),
  ENUM_ARRAY_NARROWED: incompatible('fewer-elements'),
  ENUM_ARRAY_CHANGED: incompatible('type-changed'),

  COMBINED_TYPE_EXTENDED: compatible(),
  COMBINED_TYPE_CHANGED: incompatible('type-changed'),
  PRODUCT_TYPE_EXTENDED: incompatible('more-elements'),
  PRODUCT_TYPE_NARROWED: compatible(),
  SUM_TYPE_EXTENDED: compatible(),
  SUM_TYPE_NARROWED: incompatible('fewer-elements'),
  COMBINED_TYPE_SUBSCHEMAS_CHANGED: incompatible('type-changed'),
  NOT_TYPE_EXTENDED: incompatible('more-elements'),
  NOT_TYPE_NARROWED: compatible(),
} as const satisfies Record<string, Rule>;

export type JsonSchemaChange = keyof typeof JSON_SCHEMA_RULES;

const WORDINGS: Record<Wording, (path: string) => string> = {
  keyword: (p) => `The keyword at path '${p}' in the %r schema is not present in the %w schema`,
  more: (p) => `The value at path '${p}' in the %r schema is more than its value in the %w schema`,
  less: (p) => `The value at path '${p}' in the %r schema is less than its value in the %w schema`,
  'value-changed': (p) => `The value at path '${p}' is different between the %r and %w schema`,
  'fewer-elements': (p) =>
    `An array or combined type at path '${p}' has fewer elements in the %r schema than the %w schema`,
  'more-elements': (p) =>
    `An array or combined type at path '${p}' has more elements in the %r schema than the %w schema`,
  'type-changed': (p) => `A type at path '${p}' is different between the %r schema and the %w schema`,
  'added-to-open': (p) =>
    `The %r schema has an open content model and has a property or item at path '${p}' which is missing in the %w schema`,
  'required-added-to-unopen': (p) =>
    `The %r schema has an unopen content model and has a required property at path '${p}' which is missing in the %w schema`,
  'removed-from-closed': (p) =>
    `The %r schema has a closed content model and is missing a property or item present at path '${p}' in the %w schema`,
  'removed-not-covered': (p) =>
    `A property or item is missing in the %r schema but present at path '${p}' in the %w schema and is not covered by its partially open content model`,
  'added-not-covered': (p) =>
    `The %r schema has a property or item at path '${p}' which is missing in the %w schema and is not covered by its partially open content model`,
  plain: () => '',
};

/** Confluent's message for a difference: `{errorType:"...", description:"..."}` with reader and writer named. */
export function describeJsonSchemaChange(
  change: JsonSchemaChange,
  path: string,
  reader: string,
  writer: string,
): string {
  const description = WORDINGS[JSON_SCHEMA_RULES[change].wording](path).replace('%r', reader).replace('%w', writer);
  return `{errorType:"${change}", description:"${description}"}`;
}
