// The part of class-validator that Brook's DTOs use, loaded from the package's own CommonJS files instead of its
// index: the index loads every decorator it has, and with IsPhoneNumber libphonenumber-js (and validator.js's
// checks with the others), about 3 MB of live heap that no DTO here uses. The decorators, the metadata storage and
// the Validator are the index's own objects (class-validator.spec.ts checks that each export here is the index's),
// so DTOs decorated through this module validate exactly as through the index. These paths are not a documented
// entry point of class-validator (its package.json has no `exports` map, so they resolve); a version that moves
// them fails that spec and the broker's start-up, not silently. Types come from the index's declarations.
// Nest's ValidationPipe takes `CLASS_VALIDATOR_PACKAGE` as its validatorPackage, so that it does not load the
// index either.
import { createRequire } from 'node:module';
import type * as ClassValidator from 'class-validator';

const requireModule = createRequire(import.meta.url);

/** One of class-validator's CommonJS files under cjs/ (path without the extension). */
function part<T>(path: string): T {
  return requireModule(`class-validator/cjs/${path}.js`) as T;
}

type Index = typeof ClassValidator;

export const { IsOptional } = part<Pick<Index, 'IsOptional'>>('decorator/common/IsOptional');
export const { ValidateIf } = part<Pick<Index, 'ValidateIf'>>('decorator/common/ValidateIf');
export const { ValidateNested } = part<Pick<Index, 'ValidateNested'>>('decorator/common/ValidateNested');
export const { ValidateBy } = part<Pick<Index, 'ValidateBy'>>('decorator/common/ValidateBy');
export const { registerDecorator } = part<Pick<Index, 'registerDecorator'>>('register-decorator');
export const { getMetadataStorage } = part<Pick<Index, 'getMetadataStorage'>>('metadata/MetadataStorage');
const { getFromContainer } = part<Pick<Index, 'getFromContainer'>>('container');
const { Validator } = part<Pick<Index, 'Validator'>>('validation/Validator');

export type { ValidationArguments, ValidationError, ValidationOptions, ValidatorOptions } from 'class-validator';

/** class-validator's validateSync for a decorated object (the index's function, without its schema-name form). */
export function validateSync(
  object: object,
  options?: ClassValidator.ValidatorOptions,
): ClassValidator.ValidationError[] {
  return getFromContainer(Validator).validateSync(object, options);
}

/** class-validator's validate for a decorated object (the index's function, without its schema-name form). */
export function validate(
  object: object,
  options?: ClassValidator.ValidatorOptions,
): Promise<ClassValidator.ValidationError[]> {
  return getFromContainer(Validator).validate(object, options);
}

/** What Nest's ValidationPipe uses of class-validator: validate, and the metadata storage for its binary check. */
export const CLASS_VALIDATOR_PACKAGE = { validate, getMetadataStorage };
