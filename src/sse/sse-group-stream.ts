// An SSE stream with `group=`: the stream is a member of the consumer group (application/streaming/group-member.ts,
// the same member a WebSocket group subscription is), streams only the partitions the group assigns it, and
// announces each generation as `event: assigned` (and `event: revoked`) before the records of newly assigned
// partitions. A newly assigned partition starts at the group's committed offset, else where `from` says.
//
// SSE has no way back from the client, so the broker commits for it, as Kafka's auto-commit does (which commits, at
// each poll, what the previous poll returned): every BROOK_SSE_AUTO_COMMIT_INTERVAL_MS, and when the stream closes,
// it commits per owned partition the position reached one interval earlier (past an idempotency key's marker too,
// partition-stream.ts: a partition whose last batch is one is committed to its end), so a record is committed only
// once the stream has stayed open a whole interval after writing it. Records written in the last interval before a
// close are delivered again to the next member (at least once); a record still in a socket buffer when the
// connection broke is not committed past. The open response is the member's liveness: heartbeats go out while it is
// open; a closed response commits and leaves the group. A partition whose stream fails ends the response (the
// member leaves, the group reassigns the partition).
import { type CancelTimer, everyMs } from '../common/clock.js';
import type { ReadFormat } from '../application/record-format.js';
import { GroupMember, type MemberEvent, type MemberOwner } from '../application/streaming/group-member.js';
import type { StreamGroupPort } from '../application/streaming/group-port.js';
import type { StreamSink } from '../application/streaming/partition-stream.js';
import {
  PartitionStreams,
  type RunningPartition,
  type StreamDeps,
} from '../application/streaming/partition-streams.js';
import type { EncodedRun } from '../application/streaming/record-json-cache.js';
import type { StartFrom } from '../application/streaming/start-offset.js';
import { errorEvent } from './sse-format.js';

export interface SseGroupOptions {
  topic: string;
  group: string;
  from: StartFrom;
  format: ReadFormat;
  fetchBytes: number;
  sessionTimeoutMs: number;
  heartbeatMs: number;
  autoCommitIntervalMs: number;
}

export interface SseGroupDeps extends Omit<StreamDeps, 'fetchBytes'> {
  port: StreamGroupPort;
}

/** Writes events to the response. */
export interface EventWriter {
  write(text: string): void;
  /** Ends the response (the member is gone, or the stream failed). */
  end(text?: string): void;
}

/** The positions of one running partition, for the auto-commit. */
interface Positions {
  /** The stream's position: every offset below it was written or holds no record (a marker); null at first. */
  delivered: number | null;
  /** `delivered` as it was at the previous auto-commit tick: what the next commit stores. */
  settled: number | null;
  committed: number | null;
}

export class SseGroupStream {
  private readonly streams: PartitionStreams<Positions>;
  private readonly member: GroupMember;
  private readonly timers: CancelTimer[] = [];
  private streamClosed = false;

  constructor(
    private readonly options: SseGroupOptions,
    private readonly deps: SseGroupDeps,
    private readonly events: EventWriter,
    private readonly sink: Omit<StreamSink, 'fail'>,
  ) {
    this.streams = new PartitionStreams<Positions>(
      options.format,
      { ...deps, fetchBytes: options.fetchBytes },
      {
        progress: () => ({ delivered: null, settled: null, committed: null }),
        sinkFor: (running) => this.partitionSink(running),
      },
    );
    const owner: MemberOwner = {
      announce: (event) => this.announce(event),
      sendError: (error) => this.events.write(errorEvent(error.errorCode, error.message)),
      ended: () => this.events.end(),
    };
    this.member = new GroupMember(
      {
        id: 'sse',
        topics: [options.topic],
        group: options.group,
        groupInstanceId: null,
        from: options.from,
        timestampMs: null,
      },
      this.streams,
      deps.port,
      deps.replicas,
      owner,
      options.sessionTimeoutMs,
      deps.reads.clock,
    );
  }

  get memberId(): string {
    return this.member.memberId;
  }

  /** Joins the group; throws what the coordinator answered (the caller turns it into the HTTP answer). */
  async open(): Promise<void> {
    await this.member.join();
    if (this.streamClosed) return; // closed while joining: the member has left
    const clock = this.deps.reads.clock;
    this.timers.push(everyMs(clock, this.options.heartbeatMs, () => void this.member.heartbeat()));
    this.timers.push(everyMs(clock, this.options.autoCommitIntervalMs, () => void this.autoCommit()));
  }

  /** The response closed: commit what had settled, then leave the group. */
  async closeStream(): Promise<void> {
    if (this.streamClosed) return;
    this.streamClosed = true;
    for (const cancel of this.timers) cancel();
    await this.commitSettled();
    this.member.close();
    this.streams.close();
  }

  /** Writes a partition's records to the response, noting how far it got; a failed partition ends the response. */
  private partitionSink(running: RunningPartition<Positions>): StreamSink {
    return {
      room: () => this.sink.room(),
      waitForRoom: (signal) => this.sink.waitForRoom(signal),
      deliver: (topic: string, partition: number, run: EncodedRun) => {
        this.sink.deliver(topic, partition, run);
      },
      reached: (_topic, _partition, offset) => {
        running.progress.delivered = offset;
      },
      fail: (topic, partition, error) => {
        // the member would keep a partition it no longer reads: end the stream, the group reassigns it
        this.events.end(errorEvent(error.errorCode, `Stream of ${topic}-${partition} stopped: ${error.message}`));
      },
    };
  }

  /** One auto-commit tick: commit what had settled at the previous tick, then let what was written since settle. */
  private async autoCommit(): Promise<void> {
    await this.commitSettled();
    for (const { progress } of this.streams.runningPartitions()) progress.settled = progress.delivered;
  }

  /** Commits the settled position of each owned partition that moved since its last commit. */
  private async commitSettled(): Promise<void> {
    const moved = [...this.streams.runningPartitions()].filter(
      ({ progress }) => progress.settled !== null && progress.settled !== progress.committed,
    );
    if (moved.length === 0) return;
    const offsets = moved.map(({ topic, partition, progress }) => ({ topic, partition, offset: progress.settled! }));
    try {
      await this.deps.port.commit(this.options.group, this.member.memberId, offsets, this.streams.generations());
      for (const [index, { progress }] of moved.entries()) progress.committed = offsets[index].offset;
    } catch {
      // a partition just revoked (40903) or a coordinator moving: the next interval, or the new owner, goes on
    }
  }

  /** The member's `assigned` / `revoked`, as named SSE events. */
  private announce(event: MemberEvent): void {
    const { op, ...data } = event;
    this.events.write(`event: ${op}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}
