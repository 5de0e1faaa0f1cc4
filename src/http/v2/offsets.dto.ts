// Inputs of REST Proxy v2's committed offsets: POST /consumers/{g}/instances/{i}/offsets (the offsets of the last
// records processed; no body, {} or an empty list commits every record returned to the client), and the
// `?partition=topic:p` query of GET .../offsets, Brook's alternative to a GET body (topic names have no ':').
import { Transform } from 'class-transformer';
import { IsOptional, ValidateIf } from '../../common/class-validator.js';
import { integerProblem } from '../../application/params.js';
import type { TopicPartition } from '../../group-coordinator/assignors/assignor.js';
import { givenFields, IsArrayOfEntries, Rule } from '../validation/body-rules.js';
import { BAD_REQUEST, INVALID_PAYLOAD, INVALID_REQUEST, RejectsWith } from '../validation/rest-validation.pipe.js';
import { PartitionOffsetEntry, partitionOffsets, type PartitionOffset } from './positions.dto.js';

@RejectsWith(INVALID_PAYLOAD, { shape: INVALID_REQUEST, nil: 'empty' })
export class CommitOffsetsDto {
  @ValidateIf((body: CommitOffsetsDto) => givenFields(body as never).length > 0)
  @IsArrayOfEntries(() => PartitionOffsetEntry)
  offsets?: PartitionOffsetEntry[];

  /** The offsets to commit, or null to commit what was returned to the client. */
  explicit(): PartitionOffset[] | null {
    return this.offsets === undefined || this.offsets.length === 0 ? null : partitionOffsets(this.offsets);
  }
}

/** What is wrong with a `topic:partition` text, as a predicate; null when nothing is. */
function partitionTextProblem(raw: string): string | null {
  const colon = raw.lastIndexOf(':');
  if (colon <= 0) return `must look like topic:partition, got '${raw}'.`;
  return integerProblem(raw.slice(colon + 1));
}

@RejectsWith(BAD_REQUEST)
export class CommittedOffsetsQuery {
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => [value].flat())
  @Rule(
    'partitionTexts',
    (value) => (value as string[]).every((text) => partitionTextProblem(text) === null),
    (value) => (value as string[]).map(partitionTextProblem).find((problem) => problem !== null) ?? '',
  )
  partition?: string[];

  /** The partitions the query names (none when it names none). */
  partitions(): TopicPartition[] {
    return (this.partition ?? []).map((text) => {
      const colon = text.lastIndexOf(':');
      return { topic: text.slice(0, colon), partition: Number(text.slice(colon + 1)) };
    });
  }
}
