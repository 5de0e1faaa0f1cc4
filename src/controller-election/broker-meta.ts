// What a broker keeps about itself in its data dir (Kafka's meta.properties plus the epochs Brook must never
// reuse): `<data-dir>/broker-meta.json`, JSON, replaced atomically.
//
//   brokerId                     the broker id this data dir belongs to; another id refuses to start on it
//   clusterId                    the cluster it joined (null before the first registration)
//   highestControllerEpochSeen   the highest controller epoch seen anywhere (the fencing rule's H)
//   lastBrokerEpoch              the broker epoch of the latest incarnation: the next one is above it
//   directoryId                  random, made at the first start: a registration carrying it is this broker's own
//   highestProducerIdBlockSeen   the highest producer-id block this broker took or saw in a registration: the
//                                block counter is raised above it, and above every registration's, when the store
//                                lost it (application/idempotence/producer-id-blocks.ts)
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../common/atomic-file.js';

export const BROKER_META_FILE = 'broker-meta.json';

export interface BrokerMeta {
  brokerId: number;
  clusterId: string | null;
  highestControllerEpochSeen: number;
  lastBrokerEpoch?: number;
  directoryId?: string;
  highestProducerIdBlockSeen?: number;
}

export class BrokerMetaFile {
  private saved = '';

  constructor(
    private readonly dataDir: string,
    private readonly brokerId: number,
  ) {}

  /** The data dir's meta, or a fresh one when there is none; refuses a data dir of another broker id. */
  async read(): Promise<BrokerMeta> {
    let text: string;
    try {
      text = await readFile(join(this.dataDir, BROKER_META_FILE), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return { brokerId: this.brokerId, clusterId: null, highestControllerEpochSeen: 0 };
      }
      throw error;
    }
    const meta = JSON.parse(text) as BrokerMeta;
    if (meta.brokerId !== this.brokerId) {
      throw new Error(`data dir ${this.dataDir} belongs to broker ${meta.brokerId}, not ${this.brokerId}`);
    }
    this.saved = text;
    return meta;
  }

  /** Writes `meta` when it changed since the last read or write. */
  async save(meta: BrokerMeta): Promise<void> {
    const text = JSON.stringify(meta);
    if (text === this.saved) return;
    await writeFileAtomic(join(this.dataDir, BROKER_META_FILE), text);
    this.saved = text;
  }
}
