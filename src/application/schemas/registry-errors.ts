// The schema registry's errors with Confluent's codes and wording (its REST API reference, `Errors.java`): 404s for
// what is not there, 409 for an incompatible schema, 422s for requests it will not carry out. An invalid schema is
// schema-core's InvalidSchemaError (422, 42201). Brook's 50003 (503, retriable) covers "no leader to forward to" and
// "`_schemas` cannot be created yet", and 50002 an operation that timed out.
import { BrookError } from '../../common/brook-error.js';

export const registryErrors = {
  subjectNotFound: (subject: string) => new BrookError(404, 40401, `Subject '${subject}' not found.`),
  versionNotFound: (version: number | string) => new BrookError(404, 40402, `Version ${version} not found.`),
  schemaNotFound: (id?: number) =>
    new BrookError(404, 40403, id === undefined ? 'Schema not found' : `Schema ${id} not found`),
  subjectSoftDeleted: (subject: string) =>
    new BrookError(404, 40404, `Subject '${subject}' was soft deleted.Set permanent=true to delete permanently`),
  subjectNotSoftDeleted: (subject: string) =>
    new BrookError(404, 40405, `Subject '${subject}' was not deleted first before being permanently deleted`),
  versionSoftDeleted: (subject: string, version: number) =>
    new BrookError(
      404,
      40406,
      `Subject '${subject}' Version ${version} was soft deleted.Set permanent=true to delete permanently`,
    ),
  versionNotSoftDeleted: (subject: string, version: number) =>
    new BrookError(
      404,
      40407,
      `Subject '${subject}' Version ${version} was not deleted first before being permanently deleted`,
    ),
  subjectConfigNotConfigured: (subject: string) =>
    new BrookError(404, 40408, `Subject '${subject}' does not have subject-level compatibility configured`),
  subjectModeNotConfigured: (subject: string) =>
    new BrookError(404, 40409, `Subject '${subject}' does not have subject-level mode configured`),
  incompatible: (subject: string, messages: readonly string[]) =>
    new BrookError(
      409,
      409,
      `Schema being registered is incompatible with an earlier schema for subject "${subject}", details: ` +
        `[${messages.join(', ')}]`,
    ),
  invalidVersion: (version: string) =>
    new BrookError(
      422,
      42202,
      `The specified version '${version}' is not a valid version id. Allowed values are between [1, 2^31-1] and the string "latest"`,
    ),
  invalidCompatibility: () =>
    new BrookError(
      422,
      42203,
      'Invalid compatibility level. Valid values are none, backward, forward, full, backward_transitive, ' +
        'forward_transitive, and full_transitive',
    ),
  invalidMode: () => new BrookError(422, 42204, 'Invalid mode. Valid values are READWRITE, READONLY and IMPORT.'),
  operationNotPermitted: (message: string) => new BrookError(422, 42205, message),
  referenceExists: (what: string) => new BrookError(422, 42206, `One or more references exist to the schema ${what}.`),
  idDoesNotMatch: (id: number) =>
    new BrookError(422, 42207, `The ID ${id} of an imported schema does not match the existing ID`),
  invalidSubject: (subject: string) => new BrookError(422, 42208, `The specified subject '${subject}' is not a valid.`),
  schemaTooLarge: (bytes: number, max: number) =>
    new BrookError(
      422,
      42209,
      `Register operation failed because schema is too large: ${bytes} bytes, at most ${max} are allowed`,
    ),
  timeout: (message: string) => new BrookError(500, 50002, message),
};
