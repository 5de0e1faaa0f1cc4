// The application and core services the Kafka handlers call: the same ones the REST routes call, so that the
// Kafka protocol is a second edge over one broker, never a second copy of its logic.
import { Inject, Injectable, Optional } from '@nestjs/common';
import { AdminService } from '../application/admin/admin.service.js';
import { ProduceService } from '../application/produce/produce.service.js';
import { ProducerIdService } from '../application/idempotence/producer-ids.service.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { ControllerElection } from '../controller-election/controller-election.service.js';
import { ControllerService } from '../controller-election/controller.service.js';
import { ClassicGroups } from '../group-coordinator/classic-groups.service.js';
import { GroupCoordinator } from '../group-coordinator/group-coordinator.service.js';
import { Metrics } from '../metrics/metrics.service.js';
import { ReplicaManager } from '../replication/replica-manager.service.js';
import { AclStore } from '../security/acl-store.service.js';
import { AuditLog } from '../security/audit-log.js';
import { Authenticator } from '../security/authenticator.service.js';
import { Authorizer } from '../security/authorizer.service.js';
import { QuotaManager } from '../security/quota-manager.service.js';
import { ReadAccess } from '../security/read-access.js';
import { DynamicBrokerConfigs } from '../topic/dynamic-broker-configs.service.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import { BrokerConfigAdminService } from '../application/admin/broker-config-admin.service.js';
import { BrokerDirectory } from './broker-directory.js';
import { type Clock, CLOCK, systemClock } from '../common/clock.js';

@Injectable()
export class KafkaServices {
  /** The live brokers' Kafka listeners. */
  readonly brokers: BrokerDirectory;

  constructor(
    @Inject(BROKER_CONFIG) readonly config: BrokerConfig,
    readonly metadata: MetadataCache,
    readonly election: ControllerElection,
    readonly controller: ControllerService,
    readonly admin: AdminService,
    readonly replicas: ReplicaManager,
    readonly produce: ProduceService,
    /** Idempotent producers' ids (InitProducerId), from the allocator REST's POST .../producers uses. */
    readonly producerIds: ProducerIdService,
    readonly authenticator: Authenticator,
    readonly authorizer: Authorizer,
    readonly readAccess: ReadAccess,
    readonly acls: AclStore,
    readonly quotas: QuotaManager,
    readonly audit: AuditLog,
    readonly metrics: Metrics,
    /** The group coordinator, and Kafka clients' requests to it (the classic group protocol, offsets, admin). */
    readonly coordinator: GroupCoordinator,
    readonly groups: ClassicGroups,
    /** The dynamic broker configs (DescribeConfigs/AlterConfigs of BROKER resources) and the settings they give. */
    readonly brokerConfigs: DynamicBrokerConfigs,
    readonly brokerConfigAdmin: BrokerConfigAdminService,
    @Optional() @Inject(CLOCK) readonly clock: Clock = systemClock,
  ) {
    this.brokers = new BrokerDirectory(election);
  }
}
