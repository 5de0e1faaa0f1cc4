// Query of REST Proxy v2's GET /consumers/{g}/instances/{i}/records: how long to wait for records (timeout, ms)
// and how many bytes at most (max_bytes); each absent means the instance's own setting. 400 (400) for bad ones.
import { IsOptional } from '../../common/class-validator.js';
import { IntegerText } from '../validation/query-rules.js';
import { BAD_REQUEST, RejectsWith } from '../validation/rest-validation.pipe.js';

@RejectsWith(BAD_REQUEST)
export class ConsumerRecordsQuery {
  @IsOptional()
  @IntegerText()
  timeout?: number;

  @IsOptional()
  @IntegerText({ min: 1 })
  max_bytes?: number;
}
