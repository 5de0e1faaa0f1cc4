// The client errors of the schema layer, with Confluent's codes: the Schema Registry answers an invalid schema with
// 42201; the REST Proxy answers an invalid inline schema with 42205 and data that does not match its schema with
// 42203 ("Conversion of JSON to Object failed: ..."). The edges throw them as they are; BrookError carries status
// and code to the exception filter.
import { BrookError } from '../../common/brook-error.js';
import { describeReferences, type SchemaInput, type SchemaType } from './schema-types.js';

/** Confluent's Schema Registry code for a schema that does not parse or whose references do not resolve. */
export const INVALID_SCHEMA_CODE = 42201;
/** The REST Proxy's code for an inline produce schema that does not parse. */
export const REST_PROXY_INVALID_SCHEMA_CODE = 42205;
/** The REST Proxy's code for data that does not convert to (match) its schema. */
export const DATA_CONVERSION_CODE = 42203;

/** A schema the registry refuses; `details` says why in the format's own words. */
export class InvalidSchemaError extends BrookError {
  constructor(
    readonly schemaType: SchemaType,
    readonly details: string,
    message: string,
  ) {
    super(422, INVALID_SCHEMA_CODE, message);
  }

  /** The same refusal as the REST Proxy words it for a schema given inline to produce. */
  asRestProxyError(): BrookError {
    return new BrookError(422, REST_PROXY_INVALID_SCHEMA_CODE, `Invalid schema: ${this.details}`);
  }
}

/** Data that does not match its schema (or a schema that cannot carry it, e.g. a Protobuf file with no message). */
export class DataConversionError extends BrookError {
  constructor(readonly details: string) {
    super(422, DATA_CONVERSION_CODE, `Conversion of JSON to Object failed: ${details}`);
  }
}

/** Confluent's wording: `Invalid schema <schema> with refs <refs> of type <type>, details: <why>`. */
export function invalidSchema(input: SchemaInput, details: string): InvalidSchemaError {
  const references = describeReferences(input.references ?? []);
  return new InvalidSchemaError(
    input.schemaType,
    details,
    `Invalid schema ${input.schema} with refs ${references} of type ${input.schemaType}, details: ${details}`,
  );
}

/** The message of anything a library threw, for `details`. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
