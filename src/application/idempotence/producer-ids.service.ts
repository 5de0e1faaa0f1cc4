// Hands out producer ids and epochs (POST /v3/clusters/{c}/producers, and later the Kafka listener's
// InitProducerId): a new id with epoch 0 each time, from this broker's block (producer-id-blocks.ts). The highest
// block taken is kept in `<data dir>/producer-id-block` as a decimal number, and in broker-meta.json, which the
// broker's registration publishes (controller-election/): the next block is raised above the highest of them and of
// every live broker's. Before its ids are handed out, a new block is sent to every other live broker
// (POST internal/v1/producer-id-blocks), which keeps it in its broker-meta.json before answering, so a block
// survives in the data dirs (and registrations) of the brokers that stay up when the one that took it is down. A
// broker that does not answer makes the block unused and the route 503 50003 (retry) until its registration lapses.
// After the coordination store lost its data, no block is taken until a controller has restored it (the metadata
// incarnation key is back, and the counter was raised above every live broker's block first): meanwhile the route
// answers 503 50003 and the client retries.
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { readFileIfPresent, writeFileAtomic } from '../../common/atomic-file.js';
import { errors } from '../../common/brook-error.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { CoordinationStore } from '../../coordination/coordination-store.js';
import { METADATA_INCARNATION_KEY } from '../../coordination/cluster-keys.js';
import { ControllerElection } from '../../controller-election/controller-election.service.js';
import { PeerClient } from '../../cluster/peer-client.js';
import { PRODUCER_ID_BLOCK_KEY, ProducerIdBlocks, ProducerIdsExhaustedError } from './producer-id-blocks.js';

export const PRODUCER_ID_BLOCK_FILE = 'producer-id-block';
/** The internal route by which a broker has its peers keep a block it took. */
export const PRODUCER_ID_BLOCKS_PATH = '/producer-id-blocks';
/** How long a peer has to keep a new block. */
const REPLICATE_BLOCK_TIMEOUT_MS = 5_000;

export interface ProducerIdentity {
  producerId: number;
  producerEpoch: number;
}

@Injectable()
export class ProducerIdService {
  private readonly blocks: ProducerIdBlocks;

  constructor(
    @Inject(BROKER_CONFIG) config: BrokerConfig,
    store: CoordinationStore,
    election: ControllerElection,
    peers: PeerClient,
  ) {
    const path = join(config.dataDir, PRODUCER_ID_BLOCK_FILE);
    this.blocks = new ProducerIdBlocks({
      raiseCounterAbove: (floor) => store.raiseCounterAbove(PRODUCER_ID_BLOCK_KEY, floor),
      loadHighestBlock: async () => {
        if ((await store.get(METADATA_INCARNATION_KEY)) === null) {
          throw errors.retriable('The coordination store is being restored; no producer id can be handed out yet.');
        }
        return Math.max(await readHighestBlock(path), await election.producerIdBlockFloor());
      },
      saveHighestBlock: async (block) => {
        await writeFileAtomic(path, `${block}\n`);
        await election.observeProducerIdBlock(block);
      },
      replicateBlock: async (block) => {
        const others = (await election.liveBrokers()).filter((broker) => broker.brokerId !== config.brokerId);
        const answers = await Promise.allSettled(
          others.map((broker) =>
            peers.call(broker.url, {
              method: 'POST',
              path: PRODUCER_ID_BLOCKS_PATH,
              json: { block },
              timeoutMs: REPLICATE_BLOCK_TIMEOUT_MS,
            }),
          ),
        );
        const failed = others.filter((_, i) => answers[i].status === 'rejected').map((broker) => broker.brokerId);
        if (failed.length > 0) {
          throw errors.retriable(
            `Producer-id block ${block} could not be recorded by broker(s) ${failed.join(', ')}; retry.`,
          );
        }
      },
    });
  }

  async initProducerId(): Promise<ProducerIdentity> {
    try {
      return { producerId: await this.blocks.allocate(), producerEpoch: 0 };
    } catch (error) {
      if (error instanceof ProducerIdsExhaustedError) throw errors.kafkaError(error.message);
      throw error;
    }
  }
}

async function readHighestBlock(path: string): Promise<number> {
  const text = await readFileIfPresent(path);
  if (text === null) return 0;
  const block = Number(text.trim());
  if (!Number.isSafeInteger(block) || block < 0) throw new Error(`${path} does not hold a producer id block`);
  return block;
}
