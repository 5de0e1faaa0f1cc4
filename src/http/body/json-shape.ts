// Checks on parsed JSON for the admin and control routes (small bodies): each failure is a 400 naming the field.
import { errors } from '../../common/brook-error.js';

export type Json = unknown;
export type JsonObject = Record<string, unknown>;

export function asObject(value: unknown, what: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw errors.invalidRequest(`${what} must be a JSON object.`);
  return value as JsonObject;
}

export function asArray(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw errors.invalidRequest(`${what} must be an array.`);
  return value;
}

export function requiredString(object: JsonObject, field: string, what = field): string {
  const value = object[field];
  if (typeof value !== 'string' || value.length === 0)
    throw errors.invalidRequest(`${what} must be a non-empty string.`);
  return value;
}

export function optionalInteger(object: JsonObject, field: string): number | undefined {
  const value = object[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw errors.invalidRequest(`${field} must be an integer.`);
  return value;
}

export function optionalBoolean(object: JsonObject, field: string): boolean | undefined {
  const value = object[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw errors.invalidRequest(`${field} must be true or false.`);
  return value;
}
