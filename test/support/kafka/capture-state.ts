// The capture broker's state: topics (with ids), the batches produced to each partition (kept so that consumers
// can fetch them back, with offsets assigned as a log would), and groups with their committed offsets; and what
// its answers share (the one node, the answer shapes).
import { randomUUID } from 'node:crypto';
import { readBatchHeader } from '../../../src/partition-log/record-batch.js';

export const NODE_ID = 1;
export const CLUSTER_ID = 'capture-cluster';
export const ZERO_UUID = '00000000-0000-0000-0000-000000000000';
export type Answer =
  | { readonly kind: 'frame'; readonly chunks: Buffer[] }
  | { readonly kind: 'none' }
  | { readonly kind: 'wait'; readonly waitMs: number; readonly then: () => Buffer[] };

export const frame = (chunks: Buffer[]): Answer => ({ kind: 'frame', chunks });

interface StoredBatch {
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly bytes: Buffer;
}

interface Topic {
  readonly id: string;
  partitions: number;
}

interface Group {
  generation: number;
  memberId: string;
  protocol: string | null;
  assignment: Buffer;
  readonly committed: Map<string, number>;
}

export class CaptureState {
  readonly topics = new Map<string, Topic>();
  readonly logs = new Map<string, StoredBatch[]>();
  readonly groups = new Map<string, Group>();

  constructor(
    readonly host: string,
    readonly port: number,
    topics: Record<string, number>,
  ) {
    for (const [name, partitions] of Object.entries(topics)) this.createTopic(name, partitions);
  }

  createTopic(name: string, partitions: number): boolean {
    if (this.topics.has(name)) return false;
    this.topics.set(name, { id: randomUUID(), partitions: Math.max(1, partitions) });
    return true;
  }

  /**
   * The topic a Fetch names. @platformatic/kafka 1.35.0 sends Fetch v12 with the topic's id, as text, where the
   * topic's name belongs (and expects the same text back), so a name that is a known topic id means that topic.
   */
  topicNamedInFetch(nameOrId: string): string {
    for (const [name, topic] of this.topics) if (topic.id === nameOrId) return name;
    return nameOrId;
  }

  log(topic: string, partition: number): StoredBatch[] {
    const key = `${topic}:${partition}`;
    let log = this.logs.get(key);
    if (log === undefined) this.logs.set(key, (log = []));
    return log;
  }

  endOffset(topic: string, partition: number): number {
    const log = this.log(topic, partition);
    return log.length === 0 ? 0 : log[log.length - 1].lastOffset + 1;
  }

  append(topic: string, partition: number, batches: Buffer): number {
    const base = this.endOffset(topic, partition);
    let position = 0;
    let next = base;
    while (position < batches.length) {
      const header = readBatchHeader(batches.subarray(position));
      const bytes = Buffer.from(batches.subarray(position, position + header.sizeBytes));
      bytes.writeBigInt64BE(BigInt(next), 0);
      this.log(topic, partition).push({ baseOffset: next, lastOffset: next + header.lastOffsetDelta, bytes });
      next += header.lastOffsetDelta + 1;
      position += header.sizeBytes;
    }
    return base;
  }

  group(groupId: string): Group {
    let group = this.groups.get(groupId);
    if (group === undefined) {
      group = { generation: 0, memberId: '', protocol: null, assignment: Buffer.alloc(0), committed: new Map() };
      this.groups.set(groupId, group);
    }
    return group;
  }
}

export function brokers(state: CaptureState) {
  return [{ nodeId: NODE_ID, host: state.host, port: state.port, rack: null }];
}
