// Inputs of Brook's client-quota routes (kafka-configs.sh --entity-type users, as REST): the entity of the path
// (User:<name>, or <default> for everyone without quotas of their own) and the body of PUT, each quota a positive
// number up to QUOTA_VALUE_MAX or null. Every failure is 400 with error_code 40002.
import type { PipeTransform } from '@nestjs/common';
import { IsOptional } from '../../common/class-validator.js';
import { errors } from '../../common/brook-error.js';
import { DEFAULT_ENTITY, QUOTA_KINDS, QUOTA_VALUE_MAX, type QuotaValues } from '../../security/quota.js';
import { BodyRules, givenFields, Rule } from '../validation/body-rules.js';
import { INVALID_REQUEST, RejectsWith } from '../validation/rest-validation.pipe.js';

const ENTITY = /^User:[^\s;]{1,255}$/;

/** The path's entity: User:<name> or <default>. */
class QuotaEntityPipe implements PipeTransform<string, string> {
  transform(entity: string): string {
    if (entity !== DEFAULT_ENTITY && !ENTITY.test(entity))
      throw errors.invalidRequest(`The entity must be User:<name> or ${DEFAULT_ENTITY}.`);
    return entity;
  }
}

export const QUOTA_ENTITY = new QuotaEntityPipe();

const isKind = (name: string): boolean => (QUOTA_KINDS as readonly string[]).includes(name);

function QuotaValue(): PropertyDecorator {
  return Rule(
    'quotaValue',
    (value) => typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= QUOTA_VALUE_MAX,
    `must be a positive number up to ${QUOTA_VALUE_MAX}.`,
  );
}

@RejectsWith(INVALID_REQUEST)
@BodyRules(
  {
    name: 'knownQuotas',
    check: (body) => givenFields(body).every(isKind),
    message: (body) =>
      `Unknown quota '${givenFields(body).find((name) => !isKind(name))}'; expected ${QUOTA_KINDS.join(', ')}.`,
  },
  {
    name: 'someQuota',
    check: (body) => QUOTA_KINDS.some((kind) => body[kind] !== undefined && body[kind] !== null),
    message: `Give at least one of ${QUOTA_KINDS.join(', ')}.`,
  },
)
export class PutQuotaDto {
  @IsOptional()
  @QuotaValue()
  producer_byte_rate?: number | null;

  @IsOptional()
  @QuotaValue()
  consumer_byte_rate?: number | null;

  @IsOptional()
  @QuotaValue()
  request_rate?: number | null;

  /** The quotas set (null ones left out). */
  values(): QuotaValues {
    const values: QuotaValues = {};
    for (const kind of QUOTA_KINDS) {
      const value = this[kind];
      if (value !== undefined && value !== null) values[kind] = value;
    }
    return values;
  }
}
