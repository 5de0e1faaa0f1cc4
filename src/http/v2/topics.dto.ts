// Query of REST Proxy v2's GET /topics: internal topics (`__consumer_offsets`) are listed only with
// include_internal=true, as Confluent lists them; anything but true or false is 400 with error_code 400.
import { IsOptional } from '../../common/class-validator.js';
import { BooleanText } from '../validation/query-rules.js';
import { BAD_REQUEST, RejectsWith } from '../validation/rest-validation.pipe.js';

@RejectsWith(BAD_REQUEST)
export class ListTopicsQuery {
  @IsOptional()
  @BooleanText()
  include_internal = false;
}
