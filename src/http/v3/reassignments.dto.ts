// Body of Brook's POST /v3/clusters/{c}/topics/-/partitions/-/reassignment: the target replicas of each partition
// (null cancels the reassignment in progress). Every failure is 400 with error_code 40002; the controller checks
// the brokers and partitions named (same code, or 404 for an unknown topic).
import type { AlterReassignmentsBody } from '../../application/admin/replica-admin.service.js';
import {
  IsArrayOfEntries,
  IsNonEmptyString,
  IsNonNegativeInteger,
  isNonNegativeInteger,
  Rule,
} from '../validation/body-rules.js';
import { INVALID_REQUEST, RejectsWith } from '../validation/rest-validation.pipe.js';

/** A partition named in a replica admin body. */
export class PartitionEntry {
  @IsNonNegativeInteger()
  partition_id: number;

  @IsNonEmptyString()
  topic_name: string;
}

/** A partition and its target replicas (fields in the order they are checked: no DTO extends another). */
export class ReassignmentEntry {
  @IsNonNegativeInteger()
  partition_id: number;

  @IsNonEmptyString()
  topic_name: string;

  @Rule(
    'replicas',
    (value) => value === null || (Array.isArray(value) && value.every(isNonNegativeInteger)),
    (value) =>
      Array.isArray(value)
        ? 'must be broker ids (non-negative integers).'
        : 'must be an array of broker ids, or null to cancel the reassignment.',
  )
  replicas: number[] | null;
}

@RejectsWith(INVALID_REQUEST)
export class AlterReassignmentsDto implements AlterReassignmentsBody {
  @IsArrayOfEntries(() => ReassignmentEntry)
  partitions: ReassignmentEntry[];
}
