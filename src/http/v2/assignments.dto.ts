// Bodies of REST Proxy v2's routes that name partitions of a consumer instance: POST .../assignments, POST
// .../positions/beginning and .../positions/end, and the partitions of GET .../offsets sent as a body. A body or an
// entry that is not a JSON object, or `partitions` that is not an array, is 400 (40002); a bad topic or partition is
// 422 (42206), as Confluent answers. No body is an empty one (which names no partitions: 400).
import type { TopicPartition } from '../../group-coordinator/assignors/assignor.js';
import { IsArrayOfEntries, IsNonEmptyString, IsNonNegativeInteger } from '../validation/body-rules.js';
import { INVALID_PAYLOAD, INVALID_REQUEST, RejectsWith } from '../validation/rest-validation.pipe.js';

export class TopicPartitionEntry implements TopicPartition {
  @IsNonEmptyString({ message: 'must be a topic name.' })
  topic: string;

  @IsNonNegativeInteger()
  partition: number;
}

@RejectsWith(INVALID_PAYLOAD, { shape: INVALID_REQUEST, nil: 'empty' })
export class PartitionsDto {
  @IsArrayOfEntries(() => TopicPartitionEntry)
  partitions: TopicPartitionEntry[];

  /** The partitions named, as plain objects (nothing else the entries carried). */
  topicPartitions(): TopicPartition[] {
    return this.partitions.map(({ topic, partition }) => ({ topic, partition }));
  }
}
