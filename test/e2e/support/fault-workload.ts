// The load of a fault run and what it saw: producers sending acks=all records (each request sent once, to a random
// running broker, each value unique) to every partition of a topic in turn, and one reader per partition reading
// from offset 0 through random brokers. The ledger keeps
//   - every acknowledged value with its offset, and every failed one with how it failed: 40404 or a 50003 without
//     the unknown-outcome marker say nothing was appended; the marker (Brook-Outcome: unknown) or no answer at all
//     say it may have been;
//   - every (offset, value) a reader was served, and every high watermark, per reader: one that went down is
//     recorded with where it happened;
//   - when each request was sent and acknowledged, for the availability after a fault: how long until every
//     partition acknowledged a request sent after it.
// Idempotent producers run beside them (Kafka's system tests with idempotence on): each request carries an
// Idempotency-Key (or, for the others, a producer id and sequence from POST /producers) and is retried with the
// same key and body after every failure, including unknown outcomes and 40906, until it is acknowledged: any value
// stored twice is a duplicate the checks count. A retried answer must carry the offset of the first success.
import type { BrokerProcess } from './broker-process.js';
import type { TestCluster } from './cluster.js';

/** A client's patience with one produce request: longer than the acks=all bound plus forwarding. */
const PRODUCE_TIMEOUT_MS = 20_000;
const READ_TIMEOUT_MS = 5_000;
const READ_WAIT_MS = 200;
/** Pause between two requests of one producer, and after a failed one. */
const PRODUCE_PAUSE_MS = 10;
const FAILED_PAUSE_MS = 50;
/** How often an idempotent producer sends one request before it gives up on it (the run is ending, or it is stuck). */
const IDEMPOTENT_ATTEMPTS_MAX = 200;
/** High-watermark decreases recorded in detail (all are counted). */
const DETAILS_MAX = 10;

export interface Acknowledgement {
  partition: number;
  offset: number;
}

export type FailureKind = 'not-appended' | 'outcome-unknown' | 'no-answer' | 'other';

export interface Failure {
  kind: FailureKind;
  /** The answer: status, error code and message (or the client's error). */
  answer: string;
}

export class FaultWorkload {
  readonly acknowledged = new Map<string, Acknowledgement>();
  readonly failed = new Map<string, Failure>();
  /** Per partition: offset -> values served at it. */
  readonly seen: Array<Map<number, Set<string>>>;
  /** Per partition: [sent, acknowledged] times (performance.now()) of the acknowledged requests. */
  readonly ackTimes: Array<Array<[number, number]>>;
  readonly highWatermarkDecreases: string[] = [];
  highWatermarkDecreaseCount = 0;
  offsetsAckedTwice = 0;
  reads = 0;
  /** Requests of the idempotent producers that needed more than one attempt, and replays among their answers. */
  idempotentRetried = 0;
  idempotentReplays = 0;
  /** Answers of one idempotent request with different offsets (must stay 0). */
  idempotentOffsetChanges = 0;
  private readonly ackedOffsets: Array<Map<number, string>>;
  private stopping = false;
  private running: Array<Promise<void>> = [];

  constructor(
    private readonly cluster: TestCluster,
    private readonly clusterId: string,
    readonly topic: string,
    readonly partitions: number,
    private readonly producers: number,
    /** Idempotent producers: half with Idempotency-Key, half with a producer id and sequence. */
    private readonly idempotentProducers = 0,
  ) {
    this.seen = Array.from({ length: partitions }, () => new Map());
    this.ackTimes = Array.from({ length: partitions }, () => []);
    this.ackedOffsets = Array.from({ length: partitions }, () => new Map());
  }

  start(): void {
    this.running = [
      ...Array.from({ length: this.producers }, (_, producer) => this.produceLoop(producer)),
      ...Array.from({ length: this.idempotentProducers }, (_, producer) => this.idempotentLoop(producer)),
      ...Array.from({ length: this.partitions }, (_, partition) => this.readLoop(partition)),
    ];
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.running);
  }

  /**
   * Milliseconds from `since` until every partition had acknowledged a request sent at or after it; null when a
   * partition has not yet.
   */
  availabilityAfter(since: number): number | null {
    let worst = 0;
    for (const times of this.ackTimes) {
      const first = times.find(([sentAt]) => sentAt >= since);
      if (first === undefined) return null;
      worst = Math.max(worst, first[1] - since);
    }
    return Math.round(worst);
  }

  failures(kind: FailureKind): number {
    return [...this.failed.values()].filter((failure) => failure.kind === kind).length;
  }

  private running_brokers(): BrokerProcess[] {
    return this.cluster.brokers.filter((broker) => broker.child !== null);
  }

  private async produceLoop(producer: number): Promise<void> {
    for (let sequence = 0; !this.stopping; sequence++) {
      const partition = (producer + sequence) % this.partitions;
      const value = `p${producer}-${sequence}`;
      const brokers = this.running_brokers();
      if (brokers.length === 0) {
        await sleep(FAILED_PAUSE_MS);
        continue;
      }
      const through = brokers[Math.floor(Math.random() * brokers.length)];
      const sentAt = performance.now();
      const result = await this.produceOnce(through, partition, value);
      if (typeof result === 'number') {
        const earlier = this.ackedOffsets[partition].get(result);
        if (earlier !== undefined && earlier !== value) this.offsetsAckedTwice++;
        this.ackedOffsets[partition].set(result, value);
        this.acknowledged.set(value, { partition, offset: result });
        this.ackTimes[partition].push([sentAt, performance.now()]);
        await sleep(PRODUCE_PAUSE_MS);
      } else {
        this.failed.set(value, result);
        await sleep(FAILED_PAUSE_MS);
      }
    }
  }

  /**
   * An idempotent producer: request i goes to partition i mod partitions, and is sent again after any failure
   * until it is acknowledged (or IDEMPOTENT_ATTEMPTS_MAX, or the run stops); its failure is the worst it saw.
   */
  private async idempotentLoop(producer: number): Promise<void> {
    const withKey = producer % 2 === 0;
    let producerId: { id: number; epoch: number } | null = null;
    for (let sequence = 0; !this.stopping; sequence++) {
      const partition = (producer + sequence) % this.partitions;
      const value = `i${producer}-${sequence}`;
      let worst: Failure | null = null;
      let offset: number | null = null;
      let attempts = 0;
      const sentAt = performance.now();
      while (offset === null && attempts < IDEMPOTENT_ATTEMPTS_MAX && !(this.stopping && attempts > 0)) {
        const brokers = this.running_brokers();
        if (brokers.length === 0) {
          await sleep(FAILED_PAUSE_MS);
          continue;
        }
        const through = brokers[Math.floor(Math.random() * brokers.length)];
        producerId ??= withKey ? null : await this.newProducerId(through);
        if (!withKey && producerId === null) {
          await sleep(FAILED_PAUSE_MS);
          continue;
        }
        attempts++;
        const headers: Record<string, string> =
          producerId === null
            ? { 'idempotency-key': `${this.topic}-${value}` }
            : {
                'brook-producer-id': String(producerId.id),
                'brook-producer-epoch': String(producerId.epoch),
                // one request per partition in turn: each partition's requests are this producer's every
                // partitions-th sequence, which the per-partition state sees as gaps only with keys; here each
                // request names its partition, so the sequence counts per partition
                'brook-producer-sequence': String(Math.floor(sequence / this.partitions)),
              };
        const result = await this.produceOnce(through, partition, value, headers);
        if (typeof result === 'number') {
          offset = result;
          break;
        }
        if (worst === null || worst.kind === 'not-appended' || worst.kind === 'other') worst = result;
        await sleep(FAILED_PAUSE_MS);
      }
      if (attempts > 1) this.idempotentRetried++;
      if (offset !== null) {
        const earlier = this.ackedOffsets[partition].get(offset);
        if (earlier !== undefined && earlier !== value) this.offsetsAckedTwice++;
        this.ackedOffsets[partition].set(offset, value);
        this.acknowledged.set(value, { partition, offset });
        this.ackTimes[partition].push([sentAt, performance.now()]);
        // a retry of an acknowledged request is answered with its offset again, and appends nothing
        const again = await this.produceAgain(partition, value, producerId, sequence);
        if (again !== null) {
          this.idempotentReplays++;
          if (again !== offset) this.idempotentOffsetChanges++;
        }
        await sleep(PRODUCE_PAUSE_MS);
      } else if (worst !== null) {
        this.failed.set(value, worst);
      }
    }
  }

  /** Sends an acknowledged idempotent request once more: its offset, or null when this attempt failed. */
  private async produceAgain(
    partition: number,
    value: string,
    producerId: { id: number; epoch: number } | null,
    sequence: number,
  ): Promise<number | null> {
    const brokers = this.running_brokers();
    if (brokers.length === 0 || sequence % 4 !== 0) return null;
    const headers: Record<string, string> =
      producerId === null
        ? { 'idempotency-key': `${this.topic}-${value}` }
        : {
            'brook-producer-id': String(producerId.id),
            'brook-producer-epoch': String(producerId.epoch),
            'brook-producer-sequence': String(Math.floor(sequence / this.partitions)),
          };
    const result = await this.produceOnce(
      brokers[Math.floor(Math.random() * brokers.length)],
      partition,
      value,
      headers,
    );
    return typeof result === 'number' ? result : null;
  }

  private async newProducerId(through: BrokerProcess): Promise<{ id: number; epoch: number } | null> {
    try {
      const response = await fetch(`${through.url}/v3/clusters/${this.clusterId}/producers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        signal: AbortSignal.timeout(READ_TIMEOUT_MS),
      });
      if (response.status !== 200) return null;
      const body = (await response.json()) as { producer_id: number; producer_epoch: number };
      return { id: body.producer_id, epoch: body.producer_epoch };
    } catch {
      return null;
    }
  }

  private async produceOnce(
    through: BrokerProcess,
    partition: number,
    value: string,
    extraHeaders: Record<string, string> = {},
  ): Promise<number | Failure> {
    let response: Response;
    try {
      response = await fetch(`${through.url}/v3/clusters/${this.clusterId}/topics/${this.topic}/records?acks=all`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...extraHeaders },
        body: JSON.stringify({ partition_id: partition, value: { type: 'STRING', data: value } }),
        signal: AbortSignal.timeout(PRODUCE_TIMEOUT_MS),
      });
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code;
      // a refused connection sent nothing; anything else (reset, timeout) may have delivered the request
      return {
        kind: code === 'ECONNREFUSED' ? 'not-appended' : 'no-answer',
        answer: `${(error as Error).message} ${code}`,
      };
    }
    const body = (await response.json().catch(() => ({}))) as {
      offset?: number;
      error_code?: number;
      message?: string;
    };
    if (response.status === 200 && typeof body.offset === 'number') return body.offset;
    const answer = `${response.status} ${body.error_code} ${body.message}`;
    if (response.headers.get('brook-outcome') === 'unknown') return { kind: 'outcome-unknown', answer };
    if (body.error_code === 40404 || body.error_code === 50003 || body.error_code === 42901) {
      return { kind: 'not-appended', answer };
    }
    return { kind: 'other', answer };
  }

  private async readLoop(partition: number): Promise<void> {
    let offset = 0;
    let highest = -1;
    while (!this.stopping) {
      const brokers = this.running_brokers();
      const through = brokers[Math.floor(Math.random() * brokers.length)];
      if (through === undefined) {
        await sleep(FAILED_PAUSE_MS);
        continue;
      }
      try {
        const response = await fetch(
          `${through.url}/v3/clusters/${this.clusterId}/topics/${this.topic}/partitions/${partition}/records` +
            `?offset=${offset}&format=string&wait_ms=${READ_WAIT_MS}`,
          { signal: AbortSignal.timeout(READ_TIMEOUT_MS) },
        );
        if (!response.ok) throw new Error(String(response.status));
        const body = (await response.json()) as {
          records: Array<{ offset: number; value: string }>;
          next_offset: number;
          high_watermark: number;
        };
        this.reads++;
        if (body.high_watermark < highest) {
          this.highWatermarkDecreaseCount++;
          if (this.highWatermarkDecreases.length < DETAILS_MAX) {
            this.highWatermarkDecreases.push(
              `partition ${partition}: ${highest} then ${body.high_watermark} (through port ${through.port})`,
            );
          }
        }
        highest = Math.max(highest, body.high_watermark);
        for (const record of body.records) {
          let values = this.seen[partition].get(record.offset);
          if (values === undefined) this.seen[partition].set(record.offset, (values = new Set()));
          values.add(record.value);
        }
        offset = body.next_offset;
      } catch {
        await sleep(FAILED_PAUSE_MS);
      }
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
