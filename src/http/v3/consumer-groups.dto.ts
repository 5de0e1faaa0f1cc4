// Body of Brook's POST /v3/clusters/{c}/consumer-groups/{g}/offsets:reset: where to move the committed offsets
// (to earliest, latest, an offset or a timestamp), of which topics and partitions, dry run by default. Failures are
// 400 with error_code 40002, but a timestamp that is neither epoch milliseconds nor an RFC 3339 date-time is
// 400 with error_code 400, as a timestamp query parameter is.
import { IsOptional, ValidateIf } from '../../common/class-validator.js';
import { timestampProblem } from '../../application/params.js';
import type { ResetOffsetsBody } from '../../application/consumer-groups/reset-offsets-body.js';
import {
  IsArrayOf,
  IsArrayOfEntries,
  IsNonEmptyString,
  IsNonNegativeInteger,
  isNonNegativeInteger,
  IsOneOf,
  IsTrueOrFalse,
  Rule,
} from '../validation/body-rules.js';
import { BAD_REQUEST, INVALID_REQUEST, RejectsWith } from '../validation/rest-validation.pipe.js';

export class ResetTopicEntry {
  @IsNonEmptyString({ message: 'must be a topic name.' })
  topic_name: string;

  @IsOptional()
  @IsArrayOf(isNonNegativeInteger, 'must be a non-negative integer.')
  partitions?: number[] | null;
}

/** The timestamp's two checks, in this order: given as a number or a string (40002), then readable (400). */
function ResetTimestamp(): PropertyDecorator {
  return (target, property) => {
    Rule(
      'timestampGiven',
      (value) => typeof value === 'number' || typeof value === 'string',
      '(epoch ms or RFC 3339) is required when to is timestamp.',
    )(target, property);
    Rule(
      'timestampReadable',
      (value) => timestampProblem(String(value)) === null,
      (value) => timestampProblem(String(value)) ?? '',
      {
        context: BAD_REQUEST,
      },
    )(target, property);
  };
}

@RejectsWith(INVALID_REQUEST)
export class ResetOffsetsDto implements ResetOffsetsBody {
  @IsOptional()
  @IsTrueOrFalse()
  dry_run?: boolean | null;

  @IsOneOf(['earliest', 'latest', 'offset', 'timestamp'], 'must be earliest, latest, offset or timestamp.')
  to: 'earliest' | 'latest' | 'offset' | 'timestamp';

  @ValidateIf((body: ResetOffsetsDto) => body.to === 'offset')
  @IsNonNegativeInteger({ message: 'must be a non-negative integer when to is offset.' })
  offset?: number | null;

  @ValidateIf((body: ResetOffsetsDto) => body.to === 'timestamp')
  @ResetTimestamp()
  timestamp?: number | string | null;

  @IsOptional()
  @IsArrayOfEntries(() => ResetTopicEntry)
  topics?: ResetTopicEntry[] | null;
}
