// Bodies of the v3 topic config routes: PUT .../configs/{name} (Confluent's UpdateConfigRequest) and
// POST .../configs:alter (AlterConfigBatchRequest: SET or DELETE per entry, validate_only). Every failure is 400
// with error_code 40002; names and values are checked further against the topic config definitions (same code).
import { IsOptional } from '../../common/class-validator.js';
import type { AlterConfigsBody } from '../../application/admin/topic-admin.service.js';
import { IsArrayOfEntries, IsNonEmptyString, IsOneOf, IsText, IsTrueOrFalse } from '../validation/body-rules.js';
import { INVALID_REQUEST, RejectsWith } from '../validation/rest-validation.pipe.js';

@RejectsWith(INVALID_REQUEST)
export class UpdateConfigDto {
  @IsText()
  value: string;
}

export class AlterConfigEntry {
  @IsOptional()
  @IsOneOf(['SET', 'DELETE'], 'must be SET or DELETE.')
  operation?: 'SET' | 'DELETE' | null;

  @IsOptional()
  @IsText()
  value?: string | null;

  @IsNonEmptyString()
  name: string;
}

@RejectsWith(INVALID_REQUEST)
export class AlterConfigsDto implements AlterConfigsBody {
  @IsArrayOfEntries(() => AlterConfigEntry)
  data: AlterConfigEntry[];

  @IsOptional()
  @IsTrueOrFalse()
  validate_only?: boolean | null;
}
