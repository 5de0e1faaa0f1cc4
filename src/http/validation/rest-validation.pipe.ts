// The REST edge's validation: class-validator DTOs, checked by Nest's ValidationPipe (with class-transformer), every
// failure answered as Confluent's {"error_code", "message"} with the status and code the route has always answered.
// The conventions, for every body and query DTO of src/http (new routes follow them too):
//
// - Where: a DTO lives beside its controller as `<resource>.dto.ts` (topics.dto.ts beside v3-admin.controller.ts),
//   one class per body or query, nested entries as classes of their own in the same file. Path parameters are not
//   DTOs: the pipes of path-params.ts parse them (partition_id, broker_id: 400 with error_code 400).
// - Wiring: the controller carries `@UsePipes(RestValidationPipe)`; a handler types its parameter with the DTO
//   (`@Body() body: CreateTopicDto`, `@Query() query: ReadRecordsQuery`) and receives a validated instance, query
//   text already converted. Nothing else is converted implicitly: "9" is not 9 in a JSON body.
// - Codes: the DTO class declares what its failures answer, `@RejectsWith(INVALID_REQUEST)` (400, 40002),
//   `@RejectsWith(INVALID_CONSUMER_CONFIG)` (422, 42204), `@RejectsWith(BAD_REQUEST)` (400, 400: queries)...
//   `{ shape: CODE }` gives shape failures another code (the body or an entry is not a JSON object, a list is not
//   an array: REST Proxy v2 answers 400 40002 for those but 422 42206 for a bad field). A rule whose failure needs
//   yet another code names it in its options: `{ context: SUBSCRIPTION_CONFLICT }`. The root DTO's declaration
//   covers its nested classes.
// - Bodies: `null` or no body is a shape failure ("The request body must be a JSON object.") unless the DTO
//   declares `{ nil: 'empty' }`, when it is validated as {}. An array or a scalar body is always a shape failure.
// - Messages: a rule's message is a predicate ("must be a non-empty string."); the factory puts the field's path in
//   front ("configs[0].name must be a non-empty string."); a message that starts with "[" continues the path
//   ("[1] must be a non-negative integer." on `partitions` reads "partitions[1] must be ..."). A whole-body rule
//   (@BodyRule) has a whole sentence.
// - Which failure: one per request, the first: whole-body rules, then fields in declaration order, depth first, and
//   within a field its first failing rule (stopAtFirstError). Declare fields in the order the checks should run.
import { Injectable, ValidationPipe, type ArgumentMetadata, type Type } from '@nestjs/common';
import { CLASS_VALIDATOR_PACKAGE, type ValidationError } from '../../common/class-validator.js';
import { BrookError } from '../../common/brook-error.js';

/** The status and Confluent error code a failure answers. */
export interface Rejection {
  status: number;
  errorCode: number;
}

export const BAD_REQUEST: Rejection = { status: 400, errorCode: 400 };
export const INVALID_REQUEST: Rejection = { status: 400, errorCode: 40002 };
export const INVALID_PAYLOAD: Rejection = { status: 422, errorCode: 42206 };
export const INVALID_CONSUMER_CONFIG: Rejection = { status: 422, errorCode: 42204 };
export const SUBSCRIPTION_CONFLICT: Rejection = { status: 409, errorCode: 40901 };

/** The name under which whole-body rules are registered with class-validator (never a JSON field of Brook's). */
export const WHOLE_BODY = '(body)';
/** Rules whose failure is a shape failure (see the header). */
export const SHAPE_RULES = new Set(['jsonArray']);

interface DtoRejections {
  fields: Rejection;
  shape: Rejection;
  nil: 'reject' | 'empty';
}

const REJECTIONS = Symbol('brook:rejections');

/** Declares the code a DTO's failures answer (see the header). */
export function RejectsWith(
  fields: Rejection,
  options: { shape?: Rejection; nil?: 'reject' | 'empty' } = {},
): ClassDecorator {
  return (target) => {
    const rejections: DtoRejections = { fields, shape: options.shape ?? fields, nil: options.nil ?? 'reject' };
    Reflect.defineMetadata(REJECTIONS, rejections, target);
  };
}

function rejectionsOf(metatype: unknown): DtoRejections | undefined {
  return typeof metatype === 'function'
    ? (Reflect.getMetadata(REJECTIONS, metatype) as DtoRejections | undefined)
    : undefined;
}

/** What the base pipe's exception factory hands back, for transform() to turn into the DTO's BrookError. */
class DtoRejected {
  constructor(readonly errors: ValidationError[]) {}
}

@Injectable()
export class RestValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      stopAtFirstError: true,
      forbidUnknownValues: false,
      exceptionFactory: (errors) => new DtoRejected(errors),
      validatorPackage: CLASS_VALIDATOR_PACKAGE,
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const rejections = rejectionsOf(metadata.metatype);
    if (rejections === undefined) return super.transform(value, metadata);
    const isNil = value === undefined || value === null;
    if (metadata.type === 'body' && (isNil ? rejections.nil === 'reject' : !isJsonObject(value))) {
      throw rejectionError(rejections.shape, 'The request body must be a JSON object.');
    }
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (error instanceof DtoRejected) throw firstRejection(rejections, error.errors);
      throw error;
    }
  }

  /** No implicit conversion of path and query text: the DTO's rules and path-params.ts convert. */
  protected override transformPrimitive(value: unknown): unknown {
    return value;
  }
}

const sharedPipe = new RestValidationPipe();

/** Validates a body that did not come through Nest's parameter binding (a GET body read by hand). */
export async function validateBody<T>(dto: Type<T>, value: unknown): Promise<T> {
  return (await sharedPipe.transform(value, { type: 'body', metatype: dto })) as T;
}

function isJsonObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rejectionError(rejection: Rejection, message: string): BrookError {
  return new BrookError(rejection.status, rejection.errorCode, message);
}

interface Failure {
  path: string[];
  rule: string;
  message: string;
  context: unknown;
  whole: boolean;
}

/** The BrookError for the first failure (whole-body rules first, then fields in order, depth first). */
export function firstRejection(rejections: DtoRejections, errors: ValidationError[]): BrookError {
  const failure = firstFailure(errors, []);
  if (failure === null) return rejectionError(rejections.fields, 'The request is invalid.');
  const rejection = isRejection(failure.context)
    ? failure.context
    : SHAPE_RULES.has(failure.rule)
      ? rejections.shape
      : rejections.fields;
  return rejectionError(rejection, describe(failure));
}

function firstFailure(errors: ValidationError[], path: string[]): Failure | null {
  const ordered = [
    ...errors.filter((error) => error.property === WHOLE_BODY),
    ...errors.filter((error) => error.property !== WHOLE_BODY),
  ];
  for (const error of ordered) {
    const whole = error.property === WHOLE_BODY;
    const here = whole ? path : [...path, error.property];
    const rule = Object.keys(error.constraints ?? {})[0];
    if (rule !== undefined) {
      const message = error.constraints?.[rule] ?? '';
      return { path: here, rule, message, context: error.contexts?.[rule], whole };
    }
    const nested = firstFailure(error.children ?? [], here);
    if (nested !== null) return nested;
  }
  return null;
}

function describe({ path, message, whole }: Failure): string {
  const field = path.map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
  if (field === '') return message;
  if (whole) return `${field}: ${message}`;
  return message.startsWith('[') ? `${field}${message}` : `${field} ${message}`;
}

function isRejection(value: unknown): value is Rejection {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Rejection).status === 'number' &&
    typeof (value as Rejection).errorCode === 'number'
  );
}
