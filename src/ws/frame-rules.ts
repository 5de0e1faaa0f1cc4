// The class-validator vocabulary of the control frames' DTOs (frames.dto.ts). A field carries one `@Checked(rule)`:
// the rule returns the field's problem, worded by the pipe with the field's path (`assign[2].partition`), or null.
// The words are made here and not by class-validator because they quote the client's value, in which
// class-validator would replace tokens such as `$property`. `@Items(() => Dto)` makes each item of an array field
// a DTO of its own, validated in turn (class-validator's nested validation). Limits that come from the broker's
// settings (BROOK_WS_CREDITS_MAX, BROOK_WS_ASSIGN_PARTITIONS_MAX) are named by key and read from the limits the
// pipe gives every DTO it builds.
import { registerDecorator, ValidateNested, type ValidationArguments } from '../common/class-validator.js';
import { dotSegmentMessage, isDotSegment } from '../common/url-ids.js';
import { READ_FORMATS, shown, wording } from './frame-wording.js';

export interface ControlFrameLimits {
  /** BROOK_WS_CREDITS_MAX */
  creditsMax: number;
  /** BROOK_WS_ASSIGN_PARTITIONS_MAX: partitions (or topics, or offsets) named in one frame. */
  assignPartitionsMax: number;
  /** The credits of a subscription that names none (ws-limits.ts). */
  defaultCredits: number;
}

/** A bound: a number, or the name of a setting. */
export type Bound = number | 'creditsMax' | 'assignPartitionsMax';

/** A field's problem, worded for the field at `path`. */
export type Problem = (path: string) => string;

/** The fields of one DTO, as the builder (frame-validation.pipe.ts) copied them from the client's JSON. */
export type FrameFields = Record<string, unknown>;

/** One field's rule: its problem, knowing the other fields of its DTO and the limits, or null when it has none. */
export type FrameRule = (value: unknown, fields: FrameFields, limits: ControlFrameLimits) => Problem | null;

/** The constraint name of every `@Checked` rule in class-validator's errors. */
export const FRAME_RULE = 'frameRule';

/** Where the pipe puts the limits on each DTO it builds, for the rules. */
export const FRAME_LIMITS = Symbol('frame limits');

const fieldsByDto = new WeakMap<object, string[]>();
const rulesByDto = new WeakMap<object, Map<string, FrameRule>>();
const itemDtoByField = new WeakMap<object, Map<string, () => new () => object>>();

/** The fields a DTO class declares with `@Checked`, in declaration order. */
export function declaredFields(dto: object): readonly string[] {
  return fieldsByDto.get(dto) ?? [];
}

/** The DTO class of the items of an `@Items` field, if it is one. */
export function itemDtoOf(dto: object, field: string): (new () => object) | undefined {
  return itemDtoByField.get(dto)?.get(field)?.();
}

/**
 * Whether class-validator would find nothing to refuse in `fields`, a DTO of `dto` as the pipe builds it: every
 * `@Checked` rule passes, and each `@Items` field is absent or an array of DTOs that pass in turn. The pipe calls
 * class-validator only when this is false, to find and word the first problem (a credit frame, sent for every
 * records frame a subscriber takes, went through class-validator's metadata walk each time). False for anything
 * class-validator's nested validation would judge itself (a null item, a non-array value of an `@Items` field).
 */
export function passesRules(dto: object, fields: FrameFields, limits: ControlFrameLimits): boolean {
  const rules = rulesByDto.get(dto);
  for (const field of declaredFields(dto)) {
    const value = fields[field];
    if (rules!.get(field)!(value, fields, limits) !== null) return false;
    const item = itemDtoOf(dto, field);
    if (item === undefined || value === undefined) continue;
    if (!Array.isArray(value)) return false;
    for (const entry of value as unknown[]) {
      if (!(entry instanceof item) || !passesRules(item, entry as FrameFields, limits)) return false;
    }
  }
  return true;
}

export function limitsOf(fields: object): ControlFrameLimits {
  return (fields as { [FRAME_LIMITS]: ControlFrameLimits })[FRAME_LIMITS];
}

export function resolveBound(bound: Bound, limits: ControlFrameLimits): number {
  return typeof bound === 'number' ? bound : limits[bound];
}

export function Checked(rule: FrameRule): PropertyDecorator {
  return (prototype, property) => {
    const dto = prototype.constructor;
    const field = String(property);
    fieldsByDto.set(dto, [...(fieldsByDto.get(dto) ?? []), field]);
    const rules = rulesByDto.get(dto) ?? new Map<string, FrameRule>();
    rules.set(field, rule);
    rulesByDto.set(dto, rules);
    registerDecorator({
      name: FRAME_RULE,
      target: dto,
      propertyName: field,
      options: { context: { rule } },
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          rule(value, args.object as FrameFields, limitsOf(args.object)) === null,
        // Not the answer (the pipe words it with the rule); class-validator keeps the rule only beside a message.
        defaultMessage: () => 'a frame rule refused the field',
      },
    });
  };
}

/** Each item of the array field is a DTO of `item()`, validated after the field's own rule passed. */
export function Items(item: () => new () => object): PropertyDecorator {
  const nested = ValidateNested();
  return (prototype, property) => {
    const dto = prototype.constructor;
    const byField = itemDtoByField.get(dto) ?? new Map<string, () => new () => object>();
    byField.set(String(property), item);
    itemDtoByField.set(dto, byField);
    nested(prototype, property);
  };
}

const absent = (value: unknown) => value === undefined || value === null;

/** An integer from `min` to `max`. */
export function integerIn(min: number, max: Bound = Number.MAX_SAFE_INTEGER): FrameRule {
  return (value, _fields, limits) => {
    const top = resolveBound(max, limits);
    const valid = typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= top;
    return valid ? null : (path) => wording.integer(path, min, top, value);
  };
}

/** An integer from `min` to `max`, or nothing (absent or null). */
export function optionalIntegerIn(min: number, max: Bound = Number.MAX_SAFE_INTEGER): FrameRule {
  const present = integerIn(min, max);
  return (value, fields, limits) => (absent(value) ? null : present(value, fields, limits));
}

export const nonEmptyString: FrameRule = (value) =>
  typeof value === 'string' && value.length > 0 ? null : wording.nonEmptyString;

/** A group or group instance id, or nothing: it ends up in URL paths (v3 consumer-group routes), so not `.` or `..`. */
export const optionalGroupId: FrameRule = (value, fields, limits) => {
  if (absent(value)) return null;
  const problem = nonEmptyString(value, fields, limits);
  if (problem !== null) return problem;
  return isDotSegment(value as string) ? dotSegmentMessage : null;
};

/** One of `values` (the words list them), or nothing. */
export function optionalOneOf(values: readonly string[], listed: string): FrameRule {
  return (value) =>
    absent(value) || values.includes(value as string)
      ? null
      : (path) => `${path} must be ${listed}, got ${shown(value)}.`;
}

/** A record format to read in (string, json, binary, avro, jsonschema, protobuf), or nothing. */
export const optionalReadFormat: FrameRule = (value) =>
  absent(value) || READ_FORMATS.includes(value as never) ? null : () => wording.format(value);

/** An array of `min` to `max` items (each checked by its `@Items` DTO). */
export function arrayOf(min: number, max: Bound): FrameRule {
  return (value, _fields, limits) => {
    const top = resolveBound(max, limits);
    const valid = Array.isArray(value) && value.length >= min && value.length <= top;
    return valid ? null : (path) => wording.array(path, min, top);
  };
}
