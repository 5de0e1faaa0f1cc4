// Bodies of the v3 topic routes: create (Confluent's CreateTopicRequest) and PATCH partitions_count (add
// partitions), every failure 400 with error_code 40002; names, partition counts, replication factors and config
// values are checked further by the controller against the cluster (same code). And the query of the topic list
// (400 with error_code 400).
import { IsOptional } from '../../common/class-validator.js';
import type { CreateTopicBody } from '../../application/admin/topic-admin.service.js';
import {
  IsArrayOfEntries,
  IsNonEmptyString,
  IsSafeInteger,
  IsText,
  IsTrueOrFalse,
  isSafeInteger,
  Rule,
} from '../validation/body-rules.js';
import { BooleanText } from '../validation/query-rules.js';
import { BAD_REQUEST, INVALID_REQUEST, RejectsWith } from '../validation/rest-validation.pipe.js';

export class TopicConfigEntry {
  @IsOptional()
  @IsText()
  value?: string | null;

  @IsNonEmptyString()
  name: string;
}

@RejectsWith(INVALID_REQUEST)
export class CreateTopicDto implements CreateTopicBody {
  @IsNonEmptyString()
  topic_name: string;

  @IsOptional()
  @IsArrayOfEntries(() => TopicConfigEntry)
  configs?: TopicConfigEntry[] | null;

  @IsOptional()
  @IsSafeInteger()
  partitions_count?: number | null;

  @IsOptional()
  @IsSafeInteger()
  replication_factor?: number | null;

  @IsOptional()
  @IsTrueOrFalse()
  validate_only?: boolean | null;
}

@RejectsWith(INVALID_REQUEST)
export class UpdatePartitionsDto {
  @Rule('partitionsCount', isSafeInteger, (value) =>
    value === undefined || value === null ? 'is required.' : 'must be an integer.',
  )
  partitions_count: number;
}

/** Query of GET .../topics: internal topics (`__consumer_offsets`) are listed only with include_internal=true. */
@RejectsWith(BAD_REQUEST)
export class ListTopicsQuery {
  @IsOptional()
  @BooleanText()
  include_internal = false;
}
