// The rules of JSON body DTOs, as class-validator decorators whose messages are predicates (the pipe puts the
// field's path in front; see rest-validation.pipe.ts). Values are taken as JSON gives them: no rule converts, so
// "3" is not an integer and 1.5 is not a partition. A field that may be absent (or null) says so with
// @IsOptional() above its rule; a rule without it rejects absence like any other wrong value.
import { Type } from 'class-transformer';
import { registerDecorator, ValidateBy, ValidateNested, type ValidationOptions } from '../../common/class-validator.js';
import { WHOLE_BODY } from './rest-validation.pipe.js';

type Predicate = (value: unknown) => boolean;
type Body = Record<string, unknown>;

/**
 * A rule from a predicate (of the field's value, and of the object it is in when a field depends on another) and
 * its message: a predicate sentence, or one built from the value.
 */
export function Rule(
  name: string,
  check: (value: unknown, object: Body) => boolean,
  message: string | ((value: unknown, object: Body) => string),
  options: ValidationOptions = {},
): PropertyDecorator {
  return ValidateBy(
    {
      name,
      validator: {
        validate: (value: unknown, args) => check(value, args?.object as Body),
        defaultMessage: (args) => (typeof message === 'string' ? message : message(args?.value, args?.object as Body)),
      },
    },
    options,
  );
}

export const isNonEmptyString: Predicate = (value) => typeof value === 'string' && value.length > 0;
export const isSafeInteger: Predicate = (value) => typeof value === 'number' && Number.isSafeInteger(value);
export const isNonNegativeInteger: Predicate = (value) => isSafeInteger(value) && (value as number) >= 0;

export function IsNonEmptyString(options?: ValidationOptions & { message?: string }): PropertyDecorator {
  return Rule('nonEmptyString', isNonEmptyString, 'must be a non-empty string.', options);
}

export function IsText(options?: ValidationOptions & { message?: string }): PropertyDecorator {
  return Rule('text', (value) => typeof value === 'string', 'must be a string.', options);
}

export function IsSafeInteger(options?: ValidationOptions & { message?: string }): PropertyDecorator {
  return Rule('safeInteger', isSafeInteger, 'must be an integer.', options);
}

export function IsNonNegativeInteger(options?: ValidationOptions & { message?: string }): PropertyDecorator {
  return Rule('nonNegativeInteger', isNonNegativeInteger, 'must be a non-negative integer.', options);
}

export function IsTrueOrFalse(options?: ValidationOptions & { message?: string }): PropertyDecorator {
  return Rule('trueOrFalse', (value) => typeof value === 'boolean', 'must be true or false.', options);
}

/** One of a few strings, exactly as written (case matters). */
export function IsOneOf(
  allowed: readonly string[],
  message: string,
  options?: ValidationOptions & { message?: string },
): PropertyDecorator {
  return Rule('oneOf', (value) => typeof value === 'string' && allowed.includes(value), message, options);
}

/** An array whose items pass `check`; the message names the first bad item ("[2] must be ..."). */
export function IsArrayOf(check: Predicate, itemMessage: string, options?: ValidationOptions): PropertyDecorator {
  return Rule(
    'arrayItems',
    (value) => Array.isArray(value) && value.every(check),
    (value) =>
      Array.isArray(value) ? `[${value.findIndex((item) => !check(item))}] ${itemMessage}` : 'must be an array.',
    options,
  );
}

const isJsonObject: Predicate = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An array of JSON objects, each validated as `entry` (a class). "must be an array." and "[i] must be a JSON
 * object." are shape failures (the rule's name, jsonArray, is in SHAPE_RULES).
 */
export function IsArrayOfEntries(entry: () => new () => object, options?: ValidationOptions): PropertyDecorator {
  return (target, property) => {
    Type(entry)(target, property);
    ValidateNested(options)(target, property);
    Rule(
      'jsonArray',
      (value) => Array.isArray(value) && value.every(isJsonObject),
      (value) =>
        Array.isArray(value)
          ? `[${value.findIndex((item) => !isJsonObject(item))}] must be a JSON object.`
          : 'must be an array.',
      options,
    )(target, property);
  };
}

export interface WholeBodyRule {
  name: string;
  check: (body: Body) => boolean;
  /** A whole sentence. */
  message: string | ((body: Body) => string);
  options?: ValidationOptions;
}

/**
 * Rules on the whole body (two fields that exclude each other, at least one of several), checked before the
 * fields, in the order given.
 */
export function BodyRules(...rules: WholeBodyRule[]): ClassDecorator {
  return (target) => {
    for (const { name, check, message, options } of rules) {
      registerDecorator({
        name,
        target,
        propertyName: WHOLE_BODY,
        options,
        validator: {
          validate: (_value, args) => check(args?.object as Body),
          defaultMessage: (args) => (typeof message === 'string' ? message : message(args?.object as Body)),
        },
      });
    }
  };
}

/** The fields of a DTO instance that the request gave (JSON has no undefined, so absent means undefined). */
export function givenFields(body: Body): string[] {
  return Object.keys(body).filter((key) => body[key] !== undefined);
}
