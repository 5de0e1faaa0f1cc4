// Start-up and shutdown order of one broker: register and elect, load metadata, open the hosted logs, take each
// partition's replica role (leader or follower), let a broker that is controller settle leadership (its own
// partitions of before the restart move to a new leader epoch), start the periodic work, replay the consumer groups,
// follow the schema registry's topic; on shutdown close every log (flush, clean-shutdown marker) after requests have
// finished.
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ClusterController } from './controller-election/cluster-controller.service.js';
import { ControllerElection } from './controller-election/controller-election.service.js';
import { CoordinationStore } from './coordination/coordination-store.js';
import { ConsumerInstances } from './application/consumer-instances/consumer-instances.service.js';
import { GroupCoordinator } from './group-coordinator/group-coordinator.service.js';
import { LogManager } from './partition-log/log-manager.service.js';
import { ReplicaManager } from './replication/replica-manager.service.js';
import { DynamicBrokerConfigs } from './topic/dynamic-broker-configs.service.js';
import { MetadataCache } from './topic/metadata-cache.service.js';
import { SchemaStore } from './application/schemas/schema-store.service.js';

/** How long start-up waits for the controller's first pass when this broker is the controller. */
const CONTROLLER_SETTLE_WAIT_MS = 10_000;

@Injectable()
export class BrokerLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Broker');

  constructor(
    private readonly election: ControllerElection,
    private readonly cluster: ClusterController,
    private readonly metadata: MetadataCache,
    private readonly logs: LogManager,
    private readonly replicas: ReplicaManager,
    private readonly store: CoordinationStore,
    private readonly groups: GroupCoordinator,
    private readonly instances: ConsumerInstances,
    private readonly schemas: SchemaStore,
    private readonly brokerConfigs: DynamicBrokerConfigs,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.metadata.setLogEpochSource(() => this.logs.latestEpochs());
    await this.election.start();
    this.metadata.onChange((topics) => this.logs.reconcile(topics, this.brokerConfigs.settings().topicConfigDefaults));
    await this.replicas.start(this.election.brokerEpoch);
    await this.metadata.start();
    // a change of the dynamic broker configs reconfigures the logs and renews every per-metadata cache
    this.brokerConfigs.onChange(() => void this.metadata.reload({ retell: true }));
    await this.cluster.settle(CONTROLLER_SETTLE_WAIT_MS);
    await this.logs.removeStrayLogs(this.metadata.allTopics());
    this.logs.startScheduler();
    await this.groups.start();
    this.instances.start();
    await this.schemas.start();
    this.logger.log(`cluster ${this.election.clusterId}: ${this.metadata.allTopics().size} topic(s) loaded`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.logs.closeAll();
    await this.store.close();
  }
}
