// Body of REST Proxy v2's POST /consumers/{g}/instances/{i}/positions (seek): an offset per partition, the next
// to read. Shape failures are 400 (40002), bad fields 422 (42206), as for the other partition lists.
import { IsOptional } from '../../common/class-validator.js';
import { IsArrayOfEntries, IsNonEmptyString, IsNonNegativeInteger, IsText } from '../validation/body-rules.js';
import { INVALID_PAYLOAD, INVALID_REQUEST, RejectsWith } from '../validation/rest-validation.pipe.js';

/** A partition and an offset, as the service takes it. */
export interface PartitionOffset {
  topic: string;
  partition: number;
  offset: number;
  metadata?: string;
}

/** The entries as plain objects (nothing else they carried; metadata only when it is a string). */
export function partitionOffsets(entries: PartitionOffsetEntry[]): PartitionOffset[] {
  return entries.map(({ topic, partition, offset, metadata }) => ({
    topic,
    partition,
    offset,
    ...(typeof metadata === 'string' ? { metadata } : {}),
  }));
}

/** A partition and an offset; commits may add metadata. */
export class PartitionOffsetEntry {
  @IsNonEmptyString({ message: 'must be a topic name.' })
  topic: string;

  @IsNonNegativeInteger()
  partition: number;

  @IsNonNegativeInteger()
  offset: number;

  @IsOptional()
  @IsText()
  metadata?: string | null;
}

@RejectsWith(INVALID_PAYLOAD, { shape: INVALID_REQUEST, nil: 'empty' })
export class SeekDto {
  @IsArrayOfEntries(() => PartitionOffsetEntry)
  offsets: PartitionOffsetEntry[];

  positions(): PartitionOffset[] {
    return partitionOffsets(this.offsets);
  }
}
