// Producer ids handed out cluster-wide without collisions (Kafka's ProducerIdManager): each broker takes a block
// of PRODUCER_ID_BLOCK_SIZE ids at a time from the counter `brook/producer-id-block` of the coordination store and
// hands them out one by one; block n holds ids [(n - 1) * size, n * size). The counter only moves up
// (raiseCounterAbove with the highest block this broker knows of: the ones it took, kept in its data dir, and the
// ones other brokers publish, read by loadHighestBlock before every block). A block taken is kept durably by this
// broker (saveHighestBlock) and then by every other live broker (replicateBlock, in their data dirs) before any of
// its ids is handed out: so when Redis loses the counter, the controller that restores the store raises it above
// every block any broker then alive keeps, even when the broker that took the highest block is down for the whole
// restore. The ids stay below KEY_PRODUCER_ID_BASE, where the idempotency keys' ids start
// (partition-log/producer-state.ts). Pure apart from the injected ports.
import { KEY_PRODUCER_ID_BASE } from '../../partition-log/producer-state.js';

export { PRODUCER_ID_BLOCK_KEY } from '../../coordination/cluster-keys.js';

export const PRODUCER_ID_BLOCK_SIZE = 1000;
/** The last block whose ids all lie below KEY_PRODUCER_ID_BASE. */
export const PRODUCER_ID_BLOCKS_MAX = Math.floor(KEY_PRODUCER_ID_BASE / PRODUCER_ID_BLOCK_SIZE);

export interface ProducerIdBlockPorts {
  /** Atomically sets the counter to max(current, floor) + 1 and returns it. */
  raiseCounterAbove(floor: number): Promise<number>;
  /**
   * The highest block this broker knows was taken (0: none), asked before every block; and saving a new one durably
   * before its ids are used.
   */
  loadHighestBlock(): Promise<number>;
  saveHighestBlock(block: number): Promise<void>;
  /** Has every other live broker keep the block durably; throws (and the block is not used) when one did not. */
  replicateBlock(block: number): Promise<void>;
}

export class ProducerIdsExhaustedError extends Error {}

export class ProducerIdBlocks {
  private next = 0;
  private end = 0;
  private highestBlock: number | null = null;
  /** One block request at a time: concurrent callers share it. */
  private taking: Promise<void> | null = null;

  constructor(private readonly ports: ProducerIdBlockPorts) {}

  async allocate(): Promise<number> {
    while (this.next >= this.end) {
      this.taking ??= this.takeBlock().finally(() => (this.taking = null));
      await this.taking;
    }
    return this.next++;
  }

  private async takeBlock(): Promise<void> {
    const known = Math.max(this.highestBlock ?? 0, await this.ports.loadHighestBlock());
    const block = await this.ports.raiseCounterAbove(known);
    if (block > PRODUCER_ID_BLOCKS_MAX) throw new ProducerIdsExhaustedError('every producer id block was taken');
    await this.ports.saveHighestBlock(block);
    this.highestBlock = block;
    await this.ports.replicateBlock(block);
    this.next = (block - 1) * PRODUCER_ID_BLOCK_SIZE;
    this.end = block * PRODUCER_ID_BLOCK_SIZE;
  }
}
