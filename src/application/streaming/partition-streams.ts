// The partitions one consumer streams (a WebSocket subscription, an SSE group stream): started and stopped one by
// one (all at once for an explicit assignment, per rebalance for a group member), each with the group generation
// it was assigned in (0 outside a group). A stopped partition sends nothing more, since a stream checks its
// signal after every read and delivers synchronously; a partition whose stream fails is forgotten before the
// consumer's sink hears of it. `Progress` is what the owner keeps per running partition (an SSE stream's commit
// positions), made fresh at each start.
import type { PartitionRouter } from '../../replication/partition-router.service.js';
import { topicPartitionKey } from '../../group-coordinator/group-records.js';
import type { ReadFormat } from '../record-format.js';
import { streamPartition, type SharedReads, type StreamSink } from './partition-stream.js';
import type { RecordJsonCache } from './record-json-cache.js';

export interface StreamDeps {
  replicas: PartitionRouter;
  cache: RecordJsonCache;
  reads: SharedReads;
  fetchBytes: number;
}

export interface RunningPartition<Progress> {
  readonly topic: string;
  readonly partition: number;
  /** The group generation the partition was assigned in (0 outside a group). */
  readonly generation: number;
  readonly progress: Progress;
}

interface Running<Progress> extends RunningPartition<Progress> {
  readonly abort: AbortController;
}

export interface PartitionStreamsOwner<Progress> {
  /** The progress a newly started partition begins with. */
  progress(): Progress;
  /** Where the records of a running partition go. */
  sinkFor(running: RunningPartition<Progress>): StreamSink;
}

export class PartitionStreams<Progress> {
  private readonly abort = new AbortController();
  private readonly running = new Map<string, Running<Progress>>();

  constructor(
    private readonly format: ReadFormat,
    private readonly deps: StreamDeps,
    private readonly owner: PartitionStreamsOwner<Progress>,
  ) {}

  get closed(): boolean {
    return this.abort.signal.aborted;
  }

  /** The generation each running partition was assigned in, by topicPartitionKey. */
  generations(): Map<string, number> {
    return new Map([...this.running].map(([key, running]) => [key, running.generation]));
  }

  runningPartitions(): IterableIterator<RunningPartition<Progress>> {
    return this.running.values();
  }

  startPartition(topic: string, partition: number, offset: number, generation = 0): void {
    if (this.closed) return;
    const key = topicPartitionKey(topic, partition);
    this.running.get(key)?.abort.abort();
    const abort = new AbortController();
    const running: Running<Progress> = { topic, partition, generation, progress: this.owner.progress(), abort };
    this.running.set(key, running);
    const sink = this.owner.sinkFor(running);
    void streamPartition(
      this.deps.replicas,
      {
        room: () => sink.room(),
        waitForRoom: (signal) => sink.waitForRoom(signal),
        deliver: (deliveredTopic, deliveredPartition, run) => sink.deliver(deliveredTopic, deliveredPartition, run),
        reached: (reachedTopic, reachedPartition, offset) => sink.reached?.(reachedTopic, reachedPartition, offset),
        fail: (failedTopic, failedPartition, error) => {
          if (this.running.get(key) === running) this.running.delete(key);
          sink.fail(failedTopic, failedPartition, error);
        },
      },
      {
        topic,
        partition,
        offset,
        format: this.format,
        fetchBytes: this.deps.fetchBytes,
        cache: this.deps.cache,
        reads: this.deps.reads,
        signal: AbortSignal.any([this.abort.signal, abort.signal]),
      },
    );
  }

  stopPartition(topic: string, partition: number): void {
    const key = topicPartitionKey(topic, partition);
    this.running.get(key)?.abort.abort();
    this.running.delete(key);
  }

  close(): void {
    this.abort.abort();
    this.running.clear();
  }
}
