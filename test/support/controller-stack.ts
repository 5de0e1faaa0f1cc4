// The controller's services wired by hand over one coordination store, as the broker's modules wire them, for specs
// of the controller without a Nest application (fencing.spec.ts, cluster-controller.restart.spec.ts).
import { PeerClient } from '../../src/cluster/peer-client.js';
import type { BrokerConfig } from '../../src/config/broker-config.js';
import { effectiveBrokerSettings } from '../../src/config/broker-configs.js';
import { ClusterController } from '../../src/controller-election/cluster-controller.service.js';
import { ControllerElection } from '../../src/controller-election/controller-election.service.js';
import { ControllerService } from '../../src/controller-election/controller.service.js';
import type { CoordinationStore } from '../../src/coordination/coordination-store.js';
import type { TopicMetadata } from '../../src/topic/cluster-metadata.js';
import type { DynamicBrokerConfigs } from '../../src/topic/dynamic-broker-configs.service.js';
import { MetadataCache } from '../../src/topic/metadata-cache.service.js';

export interface ControllerStack<Store extends CoordinationStore> {
  store: Store;
  election: ControllerElection;
  controller: ControllerService;
  cluster: ClusterController;
  metadata: MetadataCache;
  /** Stops the services and closes the store. */
  close: () => Promise<void>;
}

/**
 * Starts the election and the metadata cache over `store` (`onMetadata` hears every metadata telling from the
 * first); the caller settles the controller when it needs to.
 */
export async function startControllerStack<Store extends CoordinationStore>(
  store: Store,
  config: BrokerConfig,
  onMetadata?: (topics: ReadonlyMap<string, TopicMetadata>) => void,
): Promise<ControllerStack<Store>> {
  const election = new ControllerElection(store, config);
  const metadata = new MetadataCache(store, config);
  const peers = new PeerClient(config, store);
  const brokerConfigs = { settings: () => effectiveBrokerSettings(config, {}, {}) } as unknown as DynamicBrokerConfigs;
  const cluster = new ClusterController(config, store, election, metadata, peers, brokerConfigs);
  const controller = new ControllerService(store, election, metadata, peers, cluster);
  await election.start();
  if (onMetadata !== undefined) metadata.onChange(onMetadata);
  await metadata.start();
  return {
    store,
    election,
    controller,
    cluster,
    metadata,
    close: async () => {
      cluster.onModuleDestroy();
      metadata.onModuleDestroy();
      await election.onModuleDestroy();
      await store.close();
    },
  };
}
