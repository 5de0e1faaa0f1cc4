// The validation pipe of the control frames: `@MessageBody(ControlFramePipe(SubscribeFrameDto))` turns the client's
// JSON object into its DTO (frames.dto.ts), validates it with class-validator and hands the handler the typed
// frame; a frame with a problem is refused with a BrookError (400, 40002) naming the first one, which the
// exception filter answers with an `error` frame.
//
// Not Nest's ValidationPipe: class-transformer copies every nested value recursively (a frame may be nested
// hundreds of thousands of levels deep within BROOK_WS_FRAME_BYTES_MAX, past the call stack), and the pipe's
// packages are module-wide (a transformer of its own would replace the one the HTTP pipes use). The DTO is built
// here one level per `@Items` field: only declared fields are copied (own properties of the JSON object), an item
// that is not a JSON object becomes null (which class-validator refuses as not an object, without descending into
// it), and every other value is kept as it is for its rule to judge.
import { Inject, Injectable, mixin, type PipeTransform, type Type } from '@nestjs/common';
import { validateSync, type ValidationError } from '../common/class-validator.js';
import { errors } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import {
  declaredFields,
  FRAME_LIMITS,
  FRAME_RULE,
  itemDtoOf,
  passesRules,
  type ControlFrameLimits,
  type FrameFields,
  type FrameRule,
} from './frame-rules.js';
import { wording } from './frame-wording.js';
import type { ControlFrameDto } from './frames.dto.js';
import { DEFAULT_CREDITS } from './ws-limits.js';
import type { ControlFrameBody } from './ws-protocol.js';

/** The class-validator constraint of an item that is not a JSON object (`@Items`). */
const NOT_AN_OBJECT = 'nestedValidation';

export function ControlFramePipe<Frame>(dto: new () => ControlFrameDto<Frame>): Type<PipeTransform> {
  @Injectable()
  class ControlFrameValidation implements PipeTransform<ControlFrameBody, Frame> {
    private readonly limits: ControlFrameLimits;

    constructor(@Inject(BROKER_CONFIG) config: BrokerConfig) {
      this.limits = {
        creditsMax: config.ws.creditsMax,
        assignPartitionsMax: config.ws.assignPartitionsMax,
        defaultCredits: DEFAULT_CREDITS,
      };
    }

    transform(body: ControlFrameBody): Frame {
      return validControlFrame(dto, body, this.limits);
    }
  }
  return mixin(ControlFrameValidation);
}

/** The frame of `body` as `dto` reads it; throws the 40002 naming the first problem. */
export function validControlFrame<Frame>(
  dto: new () => ControlFrameDto<Frame>,
  body: ControlFrameBody,
  limits: ControlFrameLimits,
): Frame {
  const built = controlFrameDto(dto, body, limits);
  // class-validator only to find and word a problem: a frame every rule passes has none (passesRules)
  if (!passesRules(dto, built as unknown as FrameFields, limits)) {
    const problems = validateSync(built, { stopAtFirstError: true, forbidUnknownValues: false });
    if (problems.length > 0) throw errors.invalidRequest(firstProblem(problems, '', limits));
  }
  return built.toFrame(limits);
}

/** `body` as a DTO of `dto`, as the pipe validates it: its declared fields, its op and id. */
export function controlFrameDto<Frame>(
  dto: new () => ControlFrameDto<Frame>,
  body: ControlFrameBody,
  limits: ControlFrameLimits,
): ControlFrameDto<Frame> {
  const built = buildDto(dto, body, limits);
  built.op = body.op;
  built.id = body.id;
  return built;
}

function buildDto<T extends object>(dto: new () => T, json: FrameFields, limits: ControlFrameLimits): T {
  const built = new dto();
  const fields = built as FrameFields;
  Object.defineProperty(built, FRAME_LIMITS, { value: limits });
  for (const field of declaredFields(dto)) {
    if (!Object.hasOwn(json, field)) continue;
    const value = json[field];
    const item = itemDtoOf(dto, field);
    fields[field] =
      item !== undefined && Array.isArray(value)
        ? value.map((entry: unknown) => (isJsonObject(entry) ? buildDto(item, entry, limits) : null))
        : value;
  }
  return built;
}

function isJsonObject(value: unknown): value is FrameFields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first problem in declaration order, items in index order, worded with the field's path. */
function firstProblem(problems: ValidationError[], path: string, limits: ControlFrameLimits): string {
  for (const problem of problems) {
    const at =
      path === ''
        ? problem.property
        : /^\d+$/.test(problem.property)
          ? `${path}[${problem.property}]`
          : `${path}.${problem.property}`;
    if (problem.constraints?.[FRAME_RULE] !== undefined) {
      const { rule } = problem.contexts![FRAME_RULE] as { rule: FrameRule };
      const worded = rule(problem.value, problem.target as FrameFields, limits);
      if (worded === null) throw new Error(`frame rule of ${at} failed, then passed`);
      return worded(at);
    }
    if (problem.constraints?.[NOT_AN_OBJECT] !== undefined) return wording.object(at);
    if (problem.children !== undefined && problem.children.length > 0)
      return firstProblem(problem.children, at, limits);
  }
  throw new Error(
    `class-validator reported problems without a rule: ${JSON.stringify(problems.map((p) => p.property))}`,
  );
}
