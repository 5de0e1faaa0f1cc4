// Body of REST Proxy v2's POST /consumers/{group_name} (CreateConsumerRequest): Confluent's field names, booleans
// and numbers also as strings, as its clients send them. No body is an empty one; every failure is 422 with
// error_code 42204 (invalid consumer config), as Confluent answers.
import { IsOptional } from '../../common/class-validator.js';
import {
  countOf,
  flagOf,
  INSTANCE_FORMATS,
  INSTANCE_NAME_MAX_LENGTH,
  isInstanceName,
  offsetResetOf,
  type CreateInstanceBody,
} from '../../application/consumer-instances/instance-config.js';
import type { InstanceFormat } from '../../group-coordinator/group-records.js';
import { DOT_SEGMENT_RULE, isDotSegment } from '../../common/url-ids.js';
import { BodyRules, Rule } from '../validation/body-rules.js';
import { INVALID_CONSUMER_CONFIG, RejectsWith } from '../validation/rest-validation.pipe.js';

const NAME_RULE = `must be 1 to ${INSTANCE_NAME_MAX_LENGTH} characters of letters, digits, '.', '_', '~' and '-'.`;

/** A name a client may choose: path-safe characters, and not a dot segment of base_uri. */
const isChosenName = (value: unknown): boolean => isInstanceName(value) && !isDotSegment(value as string);
const chosenNameRule = (value: unknown): string => (isInstanceName(value) ? DOT_SEGMENT_RULE : NAME_RULE);

/** A count given as a number or as its digits. */
function Count(): PropertyDecorator {
  return Rule('count', (value) => countOf(value) !== null, 'must be a non-negative integer.');
}

const isAbsent = (value: unknown): boolean => value === undefined || value === null;

@RejectsWith(INVALID_CONSUMER_CONFIG, { nil: 'empty' })
@BodyRules({
  name: 'instanceId',
  check: (body) => !isAbsent(body.name) || isAbsent(body.id) || isChosenName(body.id),
  message: (body) => `name ${chosenNameRule(body.id)}`,
})
export class CreateInstanceDto implements CreateInstanceBody {
  @IsOptional()
  @Rule('instanceName', isChosenName, chosenNameRule)
  name?: string | null;

  /** The old name of `name`, read only without one (see the body rule). */
  id?: string | null;

  @IsOptional()
  @Rule(
    'format',
    (value) => INSTANCE_FORMATS.includes(value as InstanceFormat),
    `must be one of ${INSTANCE_FORMATS.join(', ')}.`,
  )
  format?: InstanceFormat | null;

  @IsOptional()
  @Rule('offsetReset', (value) => offsetResetOf(value) !== null, 'must be earliest, latest or none.')
  'auto.offset.reset'?: string | null;

  @IsOptional()
  @Rule('flag', (value) => flagOf(value) !== null, 'must be true or false.')
  'auto.commit.enable'?: boolean | string | null;

  @IsOptional()
  @Count()
  'fetch.min.bytes'?: number | string | null;

  @IsOptional()
  @Count()
  'consumer.request.timeout.ms'?: number | string | null;
}
