// Query of GET .../partitions/{partition_id}/offset: Confluent's offset_type, of which Brook answers the one
// value its spec defines (400 with error_code 400 for any other).
import { IsOptional } from '../../common/class-validator.js';
import { OneOfText } from '../validation/query-rules.js';
import { BAD_REQUEST, RejectsWith } from '../validation/rest-validation.pipe.js';

@RejectsWith(BAD_REQUEST)
export class PartitionOffsetQuery {
  @IsOptional()
  @OneOfText(['earliest_and_latest'], 'earliest_and_latest')
  offset_type?: 'earliest_and_latest';
}
