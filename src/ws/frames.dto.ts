// The control frames of GET /v3/ws as class-validator DTOs (asyncapi.yaml has their fields): subscribe, credit,
// commit, unsubscribe. The pipe (frame-validation.pipe.ts) builds one from the client's JSON object, validates it
// and gives the handler the typed frame (`toFrame`). Fields are checked in the order they are declared here and
// the first problem is the answer, so a frame with several problems is refused for the one that comes first.
import { validateSync } from '../common/class-validator.js';
import { timestampParam } from '../application/params.js';
import type { ReadFormat } from '../application/record-format.js';
import { BrookError } from '../common/brook-error.js';
import {
  arrayOf,
  Checked,
  integerIn,
  Items,
  nonEmptyString,
  optionalGroupId,
  optionalIntegerIn,
  optionalOneOf,
  optionalReadFormat,
  type ControlFrameLimits,
  type FrameRule,
} from './frame-rules.js';
import { wording } from './frame-wording.js';
import type {
  CommitFrame,
  ControlOp,
  CreditFrame,
  FrameId,
  PartitionStart,
  StartFrom,
  SubscribeFrame,
  UnsubscribeFrame,
} from './ws-protocol.js';

export abstract class ControlFrameDto<Frame> {
  /** Set by the router, which routed the frame by it and checked it. */
  op: ControlOp;
  id: FrameId;

  abstract toFrame(limits: ControlFrameLimits): Frame;
}

export class PartitionStartDto {
  @Checked(nonEmptyString) topic: string;
  @Checked(integerIn(0)) partition: number;
  @Checked(optionalIntegerIn(0)) offset?: number | null;

  toStart(): PartitionStart {
    return { topic: this.topic, partition: this.partition, offset: this.offset ?? null };
  }
}

const absent = (value: unknown) => value === undefined || value === null;

/**
 * `assign`: not beside `topics` or a group, 1 to BROOK_WS_ASSIGN_PARTITIONS_MAX partitions, none named twice. A
 * repeat counts only among the partitions before the first malformed one, which is then refused for what it is.
 */
const partitionList: FrameRule = (value, fields, limits) => {
  if (value === undefined) return null;
  if (fields.topics !== undefined) return () => 'Give either assign or topics, not both.';
  if (!absent(fields.group)) return () => 'A group subscription names topics, not assign.';
  const size = arrayOf(1, 'assignPartitionsMax')(value, fields, limits);
  if (size !== null) return size;
  const seen = new Set<string>();
  for (const start of value as Array<PartitionStartDto | null>) {
    if (!(start instanceof PartitionStartDto) || validateSync(start).length > 0) return null;
    const key = `${start.topic}\u0000${start.partition}`;
    if (seen.has(key)) return () => `assign names ${start.topic}-${start.partition} twice.`;
    seen.add(key);
  }
  return null;
};

/** `topics` of a group subscription: 1 to BROOK_WS_ASSIGN_PARTITIONS_MAX names, and a group. */
const groupTopics: FrameRule = (value, fields, limits) => {
  if (fields.assign !== undefined) return null;
  if (value === undefined) return () => 'subscribe needs assign (explicit partitions) or topics with a group.';
  const size = arrayOf(1, 'assignPartitionsMax')(value, fields, limits);
  if (size !== null) return size;
  const unnamed = (value as unknown[]).findIndex((topic) => nonEmptyString(topic, fields, limits) !== null);
  if (unnamed >= 0) return (path) => wording.nonEmptyString(`${path}[${unnamed}]`);
  if (absent(fields.group)) return () => 'A subscription to topics needs a group; without one, use assign.';
  return null;
};

/** `timestamp`: with from=timestamp (and only then), epoch milliseconds or an RFC 3339 date-time. */
const startTimestamp: FrameRule = (value, fields, limits) => {
  if (fields.from !== 'timestamp')
    return value === undefined ? null : () => 'timestamp is only allowed with from=timestamp.';
  if (typeof value === 'number') return integerIn(0)(value, fields, limits);
  if (typeof value !== 'string') return () => 'from=timestamp needs timestamp (epoch milliseconds or RFC 3339).';
  try {
    timestampParam(value, 'timestamp');
    return null;
  } catch (error) {
    if (!(error instanceof BrookError)) throw error;
    return () => error.message;
  }
};

export class SubscribeFrameDto extends ControlFrameDto<SubscribeFrame> {
  @Checked(optionalGroupId) group?: string | null;
  @Checked(optionalGroupId) group_instance_id?: string | null;
  @Checked(partitionList) @Items(() => PartitionStartDto) assign?: PartitionStartDto[];
  @Checked(groupTopics) topics?: string[];
  @Checked(optionalOneOf(['earliest', 'latest', 'timestamp'], 'earliest, latest or timestamp')) from?: StartFrom | null;
  @Checked(startTimestamp) timestamp?: number | string;
  @Checked(optionalIntegerIn(0, 'creditsMax')) credits?: number | null;
  @Checked(optionalReadFormat) format?: ReadFormat | null;

  toFrame(limits: ControlFrameLimits): SubscribeFrame {
    const assign = this.assign?.map((start) => start.toStart()) ?? null;
    return {
      op: 'subscribe',
      id: this.id,
      assign,
      topics: assign === null ? (this.topics ?? null) : null,
      group: this.group ?? null,
      groupInstanceId: this.group_instance_id ?? null,
      from: this.from ?? 'latest',
      timestampMs: this.from !== 'timestamp' ? null : this.timestampMs(),
      format: this.format ?? 'string',
      credits: this.credits ?? Math.min(limits.defaultCredits, limits.creditsMax),
    };
  }

  private timestampMs(): number {
    return typeof this.timestamp === 'number' ? this.timestamp : timestampParam(this.timestamp!, 'timestamp');
  }
}

export class CreditFrameDto extends ControlFrameDto<CreditFrame> {
  @Checked(integerIn(1, 'creditsMax')) n: number;

  toFrame(): CreditFrame {
    return { op: 'credit', id: this.id, n: this.n };
  }
}

export class CommittedOffsetDto {
  @Checked(nonEmptyString) topic: string;
  @Checked(integerIn(0)) partition: number;
  @Checked(integerIn(0)) offset: number;
}

export class CommitFrameDto extends ControlFrameDto<CommitFrame> {
  @Checked(arrayOf(1, 'assignPartitionsMax')) @Items(() => CommittedOffsetDto) offsets: CommittedOffsetDto[];

  toFrame(): CommitFrame {
    const offsets = this.offsets.map(({ topic, partition, offset }) => ({ topic, partition, offset }));
    return { op: 'commit', id: this.id, offsets };
  }
}

export class UnsubscribeFrameDto extends ControlFrameDto<UnsubscribeFrame> {
  toFrame(): UnsubscribeFrame {
    return { op: 'unsubscribe', id: this.id };
  }
}
