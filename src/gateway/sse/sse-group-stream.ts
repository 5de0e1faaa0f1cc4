// An SSE stream with `group=`: the stream is a member of the consumer group (group-member.ts, the same member a
// WebSocket group subscription is), streams only the partitions the group assigns it, and announces each
// generation as `event: assigned` (and `event: revoked`) before the records of newly assigned partitions. A newly
// assigned partition starts at the group's committed offset, else where `from` says.
//
// SSE has no way back from the client, so the broker commits for it, as Kafka's auto-commit does (which commits, at
// each poll, what the previous poll returned): every BROOK_SSE_AUTO_COMMIT_INTERVAL_MS, and when the stream closes,
// it commits per owned partition the position reached one interval earlier, so a record is committed only once the
// stream has stayed open a whole interval after writing it. Records written in the last interval before a close
// are delivered again to the next member (at least once); a record still in a socket buffer when the connection
// broke is not committed past. The open response is the member's liveness: heartbeats go out while it is open; a
// closed response commits and leaves the group. A partition whose stream fails ends the response (the member
// leaves, the group reassigns the partition).
import type { PartitionRouter } from '../../replication/partition-router.service.js';
import type { ReadFormat } from '../record-format.js';
import { GroupMember, type MemberOwner, type MemberStreams } from '../ws/group-member.js';
import type { WsGroupPort } from '../ws/group-port.js';
import { type SharedReads, streamPartition, type StreamSink } from '../ws/partition-stream.js';
import type { EncodedRun, RecordJsonCache } from '../ws/record-json-cache.js';
import { partitionKey } from '../ws/subscription.js';
import type { StartFrom } from '../ws/ws-protocol.js';
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

export interface SseGroupDeps {
  port: WsGroupPort;
  replicas: PartitionRouter;
  cache: RecordJsonCache;
  reads: SharedReads;
}

/** Writes events to the response; the partition streams of the member (a MemberStreams for GroupMember). */
export interface EventWriter {
  write(text: string): void;
  /** Ends the response (the member is gone, or the stream failed). */
  end(text?: string): void;
}

interface RunningPartition {
  topic: string;
  partition: number;
  abort: AbortController;
  generation: number;
  /** The offset after the last record written; null before the first. */
  delivered: number | null;
  /** `delivered` as it was at the previous auto-commit tick: what the next commit stores. */
  settled: number | null;
  committed: number | null;
}

export class SseGroupStream implements MemberStreams {
  private readonly abort = new AbortController();
  private readonly running = new Map<string, RunningPartition>();
  private readonly member: GroupMember;
  private readonly timers: NodeJS.Timeout[] = [];
  private streamClosed = false;

  constructor(
    private readonly options: SseGroupOptions,
    private readonly deps: SseGroupDeps,
    private readonly events: EventWriter,
    private readonly sink: Omit<StreamSink, 'deliver' | 'fail'> & {
      deliver(topic: string, partition: number, run: EncodedRun): void;
    },
  ) {
    const owner: MemberOwner = {
      send: (text) => this.announce(text),
      sendError: (error) => this.events.write(errorEvent(error.errorCode, error.message)),
      ended: () => this.events.end(),
    };
    this.member = new GroupMember(
      {
        op: 'subscribe',
        id: 'sse',
        assign: null,
        topics: [options.topic],
        group: options.group,
        groupInstanceId: null,
        from: options.from,
        timestampMs: null,
        format: options.format,
        credits: 0,
      },
      this,
      deps.port,
      deps.replicas,
      owner,
      options.sessionTimeoutMs,
    );
  }

  get memberId(): string {
    return this.member.memberId;
  }

  get closed(): boolean {
    return this.abort.signal.aborted;
  }

  /** Joins the group; throws what the coordinator answered (the caller turns it into the HTTP answer). */
  async open(): Promise<void> {
    await this.member.join();
    if (this.streamClosed) return; // closed while joining: the member has left
    this.timers.push(setInterval(() => void this.member.heartbeat(), this.options.heartbeatMs));
    this.timers.push(setInterval(() => void this.autoCommit(), this.options.autoCommitIntervalMs));
  }

  /** The response closed: commit what had settled, then leave the group. */
  async closeStream(): Promise<void> {
    if (this.streamClosed) return;
    this.streamClosed = true;
    for (const timer of this.timers) clearInterval(timer);
    await this.commitSettled();
    this.member.close();
    this.close();
  }

  generations(): Map<string, number> {
    return new Map([...this.running].map(([key, running]) => [key, running.generation]));
  }

  startPartition(topic: string, partition: number, offset: number, generation = 0): void {
    if (this.closed) return;
    const key = partitionKey(topic, partition);
    this.running.get(key)?.abort.abort();
    const abort = new AbortController();
    const running: RunningPartition = {
      topic,
      partition,
      abort,
      generation,
      delivered: null,
      settled: null,
      committed: null,
    };
    this.running.set(key, running);
    const sink: StreamSink = {
      room: () => this.sink.room(),
      waitForRoom: (signal) => this.sink.waitForRoom(signal),
      deliver: (deliveredTopic, deliveredPartition, run) => {
        this.sink.deliver(deliveredTopic, deliveredPartition, run);
        running.delivered = run.records[run.records.length - 1].offset + 1;
      },
      fail: (failedTopic, failedPartition, error) => {
        if (this.running.get(key) === running) this.running.delete(key);
        // the member would keep a partition it no longer reads: end the stream, the group reassigns it
        this.events.end(
          errorEvent(error.errorCode, `Stream of ${failedTopic}-${failedPartition} stopped: ${error.message}`),
        );
      },
    };
    void streamPartition(this.deps.replicas, sink, {
      topic,
      partition,
      offset,
      format: this.options.format,
      fetchBytes: this.options.fetchBytes,
      cache: this.deps.cache,
      reads: this.deps.reads,
      signal: AbortSignal.any([this.abort.signal, abort.signal]),
    });
  }

  stopPartition(topic: string, partition: number): void {
    const key = partitionKey(topic, partition);
    this.running.get(key)?.abort.abort();
    this.running.delete(key);
  }

  close(): void {
    this.abort.abort();
    this.running.clear();
  }

  /** One auto-commit tick: commit what had settled at the previous tick, then let what was written since settle. */
  private async autoCommit(): Promise<void> {
    await this.commitSettled();
    for (const running of this.running.values()) running.settled = running.delivered;
  }

  /** Commits the settled position of each owned partition that moved since its last commit. */
  private async commitSettled(): Promise<void> {
    const moved = [...this.running.values()].filter(
      (running) => running.settled !== null && running.settled !== running.committed,
    );
    if (moved.length === 0) return;
    const offsets = moved.map((running) => ({
      topic: running.topic,
      partition: running.partition,
      offset: running.settled!,
    }));
    try {
      await this.deps.port.commit(this.options.group, this.member.memberId, offsets, this.generations());
      for (const [index, running] of moved.entries()) running.committed = offsets[index].offset;
    } catch {
      // a partition just revoked (40903) or a coordinator moving: the next interval, or the new owner, goes on
    }
  }

  /** The member's `assigned` / `revoked` frames, as named SSE events. */
  private announce(frameText: string): void {
    const { op, id: _id, ...data } = JSON.parse(frameText) as { op: string; id: unknown };
    this.events.write(`event: ${op}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}
