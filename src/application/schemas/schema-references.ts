// Resolving a schema's references through the caller's resolver: every referenced schema, transitively, each once,
// in dependency order (a schema comes after everything it references), so that a parser can define them in turn.
// A missing subject or version, a cycle, a reference of another schema type, or a graph past the named bounds makes
// the schema invalid (42201).
import { invalidSchema } from './schema-errors.js';
import {
  MAX_REFERENCED_SCHEMAS,
  MAX_REFERENCE_DEPTH,
  type SchemaInput,
  type SchemaReference,
  type SchemaReferenceResolver,
  type StoredSchema,
} from './schema-types.js';

/** A referenced schema, with every name the schemas that reference it use for it. */
export interface ResolvedReference {
  readonly subject: string;
  readonly version: number;
  readonly names: readonly string[];
  readonly stored: StoredSchema;
}

function referenceProblem(reference: unknown): string | undefined {
  if (typeof reference !== 'object' || reference === null) return 'a reference must be an object';
  const { name, subject, version } = reference as Partial<SchemaReference>;
  if (typeof name !== 'string' || name.length === 0) return 'a reference needs a non-empty name';
  if (typeof subject !== 'string' || subject.length === 0) return `reference ${name} needs a non-empty subject`;
  if (!Number.isInteger(version) || ((version as number) < 1 && version !== -1)) {
    return `reference ${name} needs a version that is a positive integer or -1`;
  }
  return undefined;
}

/** Every schema the input references, directly or not, dependencies first; throws InvalidSchemaError. */
export function resolveReferences(input: SchemaInput, resolver: SchemaReferenceResolver): ResolvedReference[] {
  const ordered: ResolvedReference[] = [];
  const byKey = new Map<string, { names: string[]; stored: StoredSchema; done: boolean }>();
  const fail = (details: string) => invalidSchema(input, details);

  const visit = (references: readonly SchemaReference[], depth: number): void => {
    if (depth > MAX_REFERENCE_DEPTH) throw fail(`references nest deeper than ${MAX_REFERENCE_DEPTH}`);
    for (const reference of references) {
      const problem = referenceProblem(reference);
      if (problem) throw fail(problem);
      const key = `${reference.subject}\u0000${reference.version}`;
      const known = byKey.get(key);
      if (known) {
        if (!known.done) throw fail(`reference cycle through subject ${reference.subject}`);
        if (!known.names.includes(reference.name)) known.names.push(reference.name);
        continue;
      }
      if (byKey.size >= MAX_REFERENCED_SCHEMAS) throw fail(`more than ${MAX_REFERENCED_SCHEMAS} referenced schemas`);
      const stored = resolver.resolve(reference.subject, reference.version);
      if (!stored) {
        throw fail(`reference ${reference.name}: subject ${reference.subject} version ${reference.version} not found`);
      }
      if (stored.schemaType !== input.schemaType) {
        throw fail(`reference ${reference.name} is a ${stored.schemaType} schema, not ${input.schemaType}`);
      }
      const entry = { names: [reference.name], stored, done: false };
      byKey.set(key, entry);
      visit(stored.references, depth + 1);
      entry.done = true;
      ordered.push({ subject: reference.subject, version: reference.version, names: entry.names, stored });
    }
  };

  if (input.references !== undefined && !Array.isArray(input.references)) throw fail('references must be an array');
  visit(input.references ?? [], 1);
  return ordered;
}
