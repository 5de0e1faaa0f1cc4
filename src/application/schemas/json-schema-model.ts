// A JSON Schema document as the compatibility comparison sees it: one node per schema, by kind (string, number,
// object, array, enum, combination, negation, true, false), each with its annotations. A schema that says several
// things at once (`"type": "string"` and an `enum`, or a type and an `allOf`) is the `allOf` of them; several types
// are the `anyOf` of one node per type; without `type`, the keywords present imply it. `$ref`s stay references,
// resolved when compared (within the document, or to a referenced schema by its reference name), so recursive
// schemas are finite graphs. Nodes are built once per schema object, so the comparison can tell a node it is
// already comparing.
import type { JsonSchemaDraft } from './json-schema.js';
import type { JsonValue } from './parsed-schema.js';

type JsonObject = { [key: string]: JsonValue };

export interface Annotations {
  readonly id?: string;
  readonly title?: string;
  readonly description?: string;
  /** Present (with the value) when the schema declares a default. */
  readonly default?: { readonly value: JsonValue };
}

export interface AdditionalSchema {
  /** False only for a literal `false`. */
  readonly permits: boolean;
  /** The schema additional entries must match, when one is given (`{}` counts as one). */
  readonly schema?: JsonSchemaNode;
}

export type JsonSchemaNode = Annotations &
  (
    | { readonly kind: 'true' }
    | { readonly kind: 'false' }
    | { readonly kind: 'boolean' }
    | { readonly kind: 'null' }
    | { readonly kind: 'string'; readonly minLength?: number; readonly maxLength?: number; readonly pattern?: string }
    | {
        readonly kind: 'number';
        readonly integer: boolean;
        readonly minimum?: number;
        readonly maximum?: number;
        readonly exclusiveMinimum?: number;
        readonly exclusiveMaximum?: number;
        readonly multipleOf?: number;
      }
    | {
        readonly kind: 'object';
        readonly properties: ReadonlyMap<string, JsonSchemaNode>;
        readonly required: ReadonlySet<string>;
        readonly patternProperties: ReadonlyArray<readonly [RegExp, JsonSchemaNode]>;
        readonly additional: AdditionalSchema;
        readonly minProperties?: number;
        readonly maxProperties?: number;
        readonly dependencyArrays: ReadonlyMap<string, readonly string[]>;
        readonly dependencySchemas: ReadonlyMap<string, JsonSchemaNode>;
      }
    | {
        readonly kind: 'array';
        readonly items?: JsonSchemaNode;
        readonly tuple: readonly JsonSchemaNode[];
        readonly additional: AdditionalSchema;
        readonly minItems?: number;
        readonly maxItems?: number;
        readonly uniqueItems: boolean;
      }
    | { readonly kind: 'enum'; readonly values: readonly string[] }
    | { readonly kind: 'combined'; readonly criterion: Criterion; readonly subschemas: readonly JsonSchemaNode[] }
    | { readonly kind: 'not'; readonly schema: JsonSchemaNode }
    | { readonly kind: 'ref'; resolve(): JsonSchemaNode | undefined }
  );

export type Criterion = 'allOf' | 'anyOf' | 'oneOf';

const OBJECT_KEYWORDS = [
  'properties',
  'patternProperties',
  'additionalProperties',
  'required',
  'minProperties',
  'maxProperties',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
];
const ARRAY_KEYWORDS = ['items', 'prefixItems', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems'];
const STRING_KEYWORDS = ['minLength', 'maxLength', 'pattern'];
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const numberOr = (value: JsonValue | undefined) => (typeof value === 'number' ? value : undefined);

/** Builds the nodes of one document; `documents` are the referenced schemas by every name a `$ref` may use. */
export class JsonSchemaModel {
  private readonly built = new Map<JsonValue, JsonSchemaNode>();

  constructor(
    private readonly root: JsonValue,
    private readonly documents: ReadonlyMap<string, JsonValue>,
    private readonly draft: JsonSchemaDraft,
  ) {}

  /** The node of `raw`, a schema within the document `base` (against which its local `$ref`s resolve). */
  node(raw: JsonValue = this.root, base: JsonValue = this.root): JsonSchemaNode {
    if (raw === true || raw === false) return { kind: raw ? 'true' : 'false' };
    if (!isObject(raw)) return { kind: 'true' };
    const known = this.built.get(raw);
    if (known) return known;
    const node = this.build(raw, base);
    this.built.set(raw, node);
    return node;
  }

  private build(raw: JsonObject, base: JsonValue): JsonSchemaNode {
    const annotations = this.annotations(raw);
    if (typeof raw.$ref === 'string') {
      const target = raw.$ref;
      return { ...annotations, kind: 'ref', resolve: () => this.resolveRef(target, base) };
    }
    const parts: JsonSchemaNode[] = [];
    const types = this.declaredTypes(raw);
    if (types.length === 1) parts.push(this.typed(types[0], raw, base));
    else if (types.length > 1) {
      parts.push({
        kind: 'combined',
        criterion: 'anyOf',
        subschemas: types.map((type) => this.typed(type, raw, base)),
      });
    }
    if (Array.isArray(raw.enum)) parts.push({ kind: 'enum', values: raw.enum.map((value) => JSON.stringify(value)) });
    if ('const' in raw) parts.push({ kind: 'enum', values: [JSON.stringify(raw.const)] });
    for (const criterion of ['allOf', 'anyOf', 'oneOf'] as const) {
      const subschemas = raw[criterion];
      if (Array.isArray(subschemas)) {
        parts.push({ kind: 'combined', criterion, subschemas: subschemas.map((schema) => this.node(schema, base)) });
      }
    }
    if (raw.not !== undefined) parts.push({ kind: 'not', schema: this.node(raw.not, base) });
    if (parts.length === 0) return { ...annotations, kind: 'true' };
    if (parts.length === 1) return { ...annotations, ...parts[0] };
    return { ...annotations, kind: 'combined', criterion: 'allOf', subschemas: parts };
  }

  private annotations(raw: JsonObject): Annotations {
    const id = this.draft === 'draft-04' ? raw.id : raw.$id;
    return {
      ...(typeof id === 'string' ? { id } : {}),
      ...(typeof raw.title === 'string' ? { title: raw.title } : {}),
      ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
      ...('default' in raw ? { default: { value: raw.default } } : {}),
    };
  }

  private declaredTypes(raw: JsonObject): string[] {
    if (typeof raw.type === 'string') return [raw.type];
    if (Array.isArray(raw.type)) return [...new Set(raw.type.filter((t): t is string => typeof t === 'string'))];
    const implied: string[] = [];
    const has = (keywords: string[]) => keywords.some((keyword) => keyword in raw);
    if (has(OBJECT_KEYWORDS)) implied.push('object');
    if (has(ARRAY_KEYWORDS)) implied.push('array');
    if (has(STRING_KEYWORDS)) implied.push('string');
    if (has(NUMBER_KEYWORDS)) implied.push('number');
    return implied;
  }

  private typed(type: string, raw: JsonObject, base: JsonValue): JsonSchemaNode {
    switch (type) {
      case 'string':
        return {
          kind: 'string',
          minLength: numberOr(raw.minLength),
          maxLength: numberOr(raw.maxLength),
          pattern: typeof raw.pattern === 'string' ? raw.pattern : undefined,
        };
      case 'number':
      case 'integer':
        return {
          kind: 'number',
          integer: type === 'integer',
          ...this.limits(raw),
          multipleOf: numberOr(raw.multipleOf),
        };
      case 'object':
        return this.object(raw, base);
      case 'array':
        return this.array(raw, base);
      case 'boolean':
      case 'null':
        return { kind: type };
      default:
        return { kind: 'true' };
    }
  }

  /** Draft-04's boolean `exclusiveMaximum` makes `maximum` exclusive; later drafts give the limit itself. */
  private limits(raw: JsonObject) {
    let minimum = numberOr(raw.minimum);
    let maximum = numberOr(raw.maximum);
    let exclusiveMinimum = numberOr(raw.exclusiveMinimum);
    let exclusiveMaximum = numberOr(raw.exclusiveMaximum);
    if (raw.exclusiveMinimum === true) [exclusiveMinimum, minimum] = [minimum, undefined];
    if (raw.exclusiveMaximum === true) [exclusiveMaximum, maximum] = [maximum, undefined];
    return { minimum, maximum, exclusiveMinimum, exclusiveMaximum };
  }

  private additional(value: JsonValue | undefined, base: JsonValue): AdditionalSchema {
    if (value === undefined || value === true) return { permits: true };
    if (value === false) return { permits: false };
    return { permits: true, schema: this.node(value, base) };
  }

  private object(raw: JsonObject, base: JsonValue): JsonSchemaNode {
    const properties = new Map<string, JsonSchemaNode>();
    if (isObject(raw.properties))
      for (const [name, schema] of Object.entries(raw.properties)) properties.set(name, this.node(schema, base));
    const patternProperties: Array<readonly [RegExp, JsonSchemaNode]> = [];
    if (isObject(raw.patternProperties)) {
      for (const [pattern, schema] of Object.entries(raw.patternProperties)) {
        patternProperties.push([new RegExp(pattern, 'u'), this.node(schema, base)]);
      }
    }
    const dependencyArrays = new Map<string, readonly string[]>();
    const dependencySchemas = new Map<string, JsonSchemaNode>();
    const dependencies = { ...(isObject(raw.dependencies) ? raw.dependencies : {}) };
    if (isObject(raw.dependentRequired)) Object.assign(dependencies, raw.dependentRequired);
    if (isObject(raw.dependentSchemas)) Object.assign(dependencies, raw.dependentSchemas);
    for (const [name, dependency] of Object.entries(dependencies)) {
      if (Array.isArray(dependency))
        dependencyArrays.set(
          name,
          dependency.filter((d): d is string => typeof d === 'string'),
        );
      else dependencySchemas.set(name, this.node(dependency, base));
    }
    return {
      kind: 'object',
      properties,
      required: new Set(
        Array.isArray(raw.required) ? raw.required.filter((r): r is string => typeof r === 'string') : [],
      ),
      patternProperties,
      additional: this.additional(raw.additionalProperties, base),
      minProperties: numberOr(raw.minProperties),
      maxProperties: numberOr(raw.maxProperties),
      dependencyArrays,
      dependencySchemas,
    };
  }

  private array(raw: JsonObject, base: JsonValue): JsonSchemaNode {
    const common = {
      minItems: numberOr(raw.minItems),
      maxItems: numberOr(raw.maxItems),
      uniqueItems: raw.uniqueItems === true,
    };
    if (this.draft === '2020-12' && Array.isArray(raw.prefixItems)) {
      const tuple = raw.prefixItems.map((schema) => this.node(schema, base));
      return { kind: 'array', ...common, tuple, additional: this.additional(raw.items, base) };
    }
    if (Array.isArray(raw.items)) {
      const tuple = raw.items.map((schema) => this.node(schema, base));
      return { kind: 'array', ...common, tuple, additional: this.additional(raw.additionalItems, base) };
    }
    const items = raw.items === undefined ? undefined : this.node(raw.items, base);
    return { kind: 'array', ...common, items, tuple: [], additional: { permits: true } };
  }

  private resolveRef(ref: string, base: JsonValue): JsonSchemaNode | undefined {
    const hash = ref.indexOf('#');
    const documentName = hash < 0 ? ref : ref.slice(0, hash);
    const pointer = hash < 0 ? '' : ref.slice(hash + 1);
    const document = documentName === '' ? base : this.documents.get(documentName);
    if (document === undefined) return undefined;
    let target: JsonValue | undefined = document;
    for (const token of pointer.split('/').slice(1)) {
      const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
      target = isObject(target) ? target[key] : Array.isArray(target) ? target[Number(key)] : undefined;
      if (target === undefined) return undefined;
    }
    return this.node(target, document);
  }
}
