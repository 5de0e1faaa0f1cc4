// Body of Brook's POST /v3/clusters/{c}/topics/-/partitions/-/leader-election (kafka-leader-election.sh's
// request): PREFERRED or UNCLEAN, for the partitions named or (no partitions, or null) every partition. Every
// failure is 400 with error_code 40002.
import { IsOptional } from '../../common/class-validator.js';
import type { ElectLeadersBody } from '../../application/admin/replica-admin.service.js';
import type { ElectionType } from '../../controller-election/leader-election.js';
import { IsArrayOfEntries, IsOneOf } from '../validation/body-rules.js';
import { INVALID_REQUEST, RejectsWith } from '../validation/rest-validation.pipe.js';
import { PartitionEntry } from './reassignments.dto.js';

@RejectsWith(INVALID_REQUEST)
export class ElectLeadersDto implements ElectLeadersBody {
  @IsOneOf(['PREFERRED', 'UNCLEAN'], 'must be PREFERRED or UNCLEAN.')
  election_type: ElectionType;

  @IsOptional()
  @IsArrayOfEntries(() => PartitionEntry)
  partitions?: PartitionEntry[] | null;
}
