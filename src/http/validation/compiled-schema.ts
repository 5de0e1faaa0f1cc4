// The produce routes' bodies are checked by JSON schemas compiled once by ajv (a v2 body may hold 1,000 records,
// a streamed v3 body thousands: no per-record class instances here, unlike the admin DTOs). The first failure is
// answered, worded and coded by annotations on the failing subschema:
//   x-message  the predicate ("must be a non-negative integer."), or one per keyword ({type: ..., format: ...});
//              the field's path goes in front, built from `what` ("record", "entries[3]", or "" for the request
//              body itself: "The request body must be ...") and the instance path;
//   x-shape    the subschema's `type` failure is a shape failure (a body or an entry that is not a JSON object),
//              answered with the shape code instead of the field code.
// A `required` failure is worded and coded as the missing property's own `type` failure. One format is added:
// `base64` (padded standard base64, as record-format.ts reads it).
// A schema is compiled on its first check, not when its module loads: ajv's generated code for the produce bodies
// is about 0.7 MB of live heap that a broker whose clients never take these paths would carry from start-up.
import AjvModule, { type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv';
import { BrookError } from '../../common/brook-error.js';
import { isBase64 } from '../../application/record-format.js';
import type { Rejection } from './rest-validation.pipe.js';

const Ajv = AjvModule as unknown as typeof AjvModule.default;

let compiler: InstanceType<typeof Ajv> | undefined;

/** The ajv instance with Brook's annotations and formats, made on the first compilation. */
function ajv(): InstanceType<typeof Ajv> {
  if (compiler === undefined) {
    compiler = new Ajv({ allErrors: false, verbose: true, strictTypes: false, allowUnionTypes: true });
    compiler.addKeyword('x-message');
    compiler.addKeyword('x-shape');
    compiler.addFormat('base64', { type: 'string', validate: isBase64 });
  }
  return compiler;
}

export interface BodyCodes {
  fields: Rejection;
  shape: Rejection;
}

export interface CompiledSchema {
  /** Whether `value` is valid; `failure` then tells why not. */
  (value: unknown): boolean;
  /** The BrookError for the last value that was not valid, its fields named from `what`. */
  failure(what: string): BrookError;
}

/** The check of `schema`, compiled on its first call. */
export function compileSchema(schema: SchemaObject, codes: BodyCodes): CompiledSchema {
  let validate: ValidateFunction | undefined;
  const check = ((value: unknown) => {
    validate ??= ajv().compile(schema);
    return validate(value);
  }) as CompiledSchema;
  check.failure = (what) => failureOf(validate?.errors?.[0], what, codes);
  return check;
}

function failureOf(error: ErrorObject | undefined, what: string, codes: BodyCodes): BrookError {
  if (error === undefined) return new BrookError(codes.fields.status, codes.fields.errorCode, `${what} is invalid.`);
  let path = pathOf(what, error.instancePath);
  let schema = error.parentSchema as SchemaObject;
  let keyword = error.keyword;
  if (keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    path = pathOf(path, `/${missing}`);
    schema = (schema.properties as Record<string, SchemaObject>)[missing];
    keyword = 'type';
  }
  const annotation = schema['x-message'] as string | Record<string, string> | undefined;
  const message =
    typeof annotation === 'string' ? annotation : (annotation?.[keyword] ?? error.message ?? 'is invalid.');
  const code = keyword === 'type' && schema['x-shape'] === true ? codes.shape : codes.fields;
  return new BrookError(
    code.status,
    code.errorCode,
    path === '' ? `The request body ${message}` : `${path} ${message}`,
  );
}

/** `what` followed by an instance path: ("record", "/headers/0/name") is "record.headers[0].name". */
function pathOf(what: string, instancePath: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  return parts.reduce(
    (path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`),
    what,
  );
}
