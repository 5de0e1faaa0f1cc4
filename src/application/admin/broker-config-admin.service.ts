// The broker configs of Confluent's v3 API: the cluster-wide dynamic defaults (`broker-configs`, Kafka's BROKER
// resource with an empty name: only the ones set are listed, as Kafka describes them) and each live broker's
// configs (`brokers/{id}/configs`: every config with its source), read and altered through the dynamic broker
// configs kept in the coordination store (topic/dynamic-broker-configs.service.ts). The Kafka listener's
// DescribeConfigs/AlterConfigs for BROKER resources call the same methods.
import { Injectable } from '@nestjs/common';
import { errors } from '../../common/brook-error.js';
import { brokerConfigDefinition } from '../../config/broker-config-table.js';
import {
  describeBrokerConfigs,
  describeClusterDefaults,
  type BrokerConfigChange,
  type BrokerConfigDescription,
} from '../../config/broker-configs.js';
import { ControllerElection } from '../../controller-election/controller-election.service.js';
import { DynamicBrokerConfigs, type BrokerConfigScope } from '../../topic/dynamic-broker-configs.service.js';
import { listEnvelope, Urls } from '../urls.js';
import type { AlterConfigsBody } from './topic-admin.service.js';

@Injectable()
export class BrokerConfigAdminService {
  constructor(
    private readonly election: ControllerElection,
    private readonly brokerConfigs: DynamicBrokerConfigs,
    private readonly urls: Urls,
  ) {}

  // ---- descriptions (also for the Kafka listener) ----

  /** The cluster-wide dynamic defaults that are set. */
  describeDefaults(): BrokerConfigDescription[] {
    return describeClusterDefaults(this.brokerConfigs.defaults());
  }

  /** Every config of a live broker: 404 for a broker that is not live. */
  async describeBroker(brokerId: number): Promise<BrokerConfigDescription[]> {
    await this.liveBrokerOrThrow(brokerId);
    const start = await this.brokerConfigs.startLayerOf(brokerId);
    if (start === null) throw errors.brokerNotFound(brokerId);
    return describeBrokerConfigs(start, this.brokerConfigs.defaults(), this.brokerConfigs.brokerLayer(brokerId));
  }

  async liveBrokerIds(): Promise<number[]> {
    return (await this.election.liveBrokers()).map((broker) => broker.brokerId).sort((a, b) => a - b);
  }

  /** Alters one layer; 400 40002 for an unknown or read-only name or an invalid value, nothing changed. */
  async alter(scope: BrokerConfigScope, changes: readonly BrokerConfigChange[], validateOnly: boolean) {
    if (scope.kind === 'broker') await this.liveBrokerOrThrow(scope.brokerId);
    for (const change of changes) {
      const definition = brokerConfigDefinition(change.name);
      if (definition !== undefined && !definition.dynamic) {
        throw errors.invalidRequest(`Cannot update these configs dynamically: ${change.name}`);
      }
    }
    await this.brokerConfigs.alter(scope, changes, validateOnly);
  }

  // ---- Confluent's cluster configs: /v3/clusters/{c}/broker-configs ----

  clusterConfigs() {
    const c = this.election.clusterId;
    return listEnvelope(
      'KafkaClusterConfigList',
      this.urls.cluster(c, 'broker-configs'),
      this.describeDefaults().map((description) => this.clusterConfig(description)),
    );
  }

  clusterConfigByName(name: string) {
    const description = this.describeDefaults().find((entry) => entry.name === name);
    if (description === undefined) throw errors.configNotFound(name);
    return this.clusterConfig(description);
  }

  alterClusterConfigs(body: AlterConfigsBody) {
    return this.alter({ kind: 'default' }, changesOf(body), body.validate_only ?? false);
  }

  setClusterConfig(name: string, value: string) {
    return this.alter({ kind: 'default' }, [{ name, value, operation: 'SET' }], false);
  }

  /** Removes a cluster-wide default: 404 for a name that is no broker config. */
  deleteClusterConfig(name: string) {
    if (brokerConfigDefinition(name) === undefined) throw errors.configNotFound(name);
    return this.alter({ kind: 'default' }, [{ name, value: null, operation: 'DELETE' }], false);
  }

  // ---- Confluent's broker configs: /v3/clusters/{c}/brokers/{id}/configs ----

  async brokerConfigList(brokerId: number) {
    const data = (await this.describeBroker(brokerId)).map((description) => this.brokerConfig(brokerId, description));
    return listEnvelope(
      'KafkaBrokerConfigList',
      this.urls.cluster(this.election.clusterId, 'brokers', brokerId, 'configs'),
      data,
    );
  }

  /** Every live broker's configs (GET .../brokers/-/configs), by broker id. */
  async allBrokerConfigs() {
    const data = [];
    for (const brokerId of await this.liveBrokerIds()) {
      const described = await this.describeBroker(brokerId).catch(() => []);
      data.push(...described.map((description) => this.brokerConfig(brokerId, description)));
    }
    return listEnvelope(
      'KafkaBrokerConfigList',
      this.urls.cluster(this.election.clusterId, 'brokers', '-', 'configs'),
      data,
    );
  }

  async brokerConfigByName(brokerId: number, name: string) {
    const description = (await this.describeBroker(brokerId)).find((entry) => entry.name === name);
    if (description === undefined) throw errors.configNotFound(name);
    return this.brokerConfig(brokerId, description);
  }

  alterBrokerConfigs(brokerId: number, body: AlterConfigsBody) {
    return this.alter({ kind: 'broker', brokerId }, changesOf(body), body.validate_only ?? false);
  }

  setBrokerConfig(brokerId: number, name: string, value: string) {
    return this.alter({ kind: 'broker', brokerId }, [{ name, value, operation: 'SET' }], false);
  }

  /** Removes a broker's dynamic config: 404 for a name that is no broker config. */
  deleteBrokerConfig(brokerId: number, name: string) {
    if (brokerConfigDefinition(name) === undefined) throw errors.configNotFound(name);
    return this.alter({ kind: 'broker', brokerId }, [{ name, value: null, operation: 'DELETE' }], false);
  }

  private async liveBrokerOrThrow(brokerId: number): Promise<void> {
    if (!(await this.liveBrokerIds()).includes(brokerId)) throw errors.brokerNotFound(brokerId);
  }

  private clusterConfig(description: BrokerConfigDescription) {
    const c = this.election.clusterId;
    return {
      kind: 'KafkaClusterConfig',
      metadata: {
        self: this.urls.cluster(c, 'broker-configs', description.name),
        resource_name: `crn:///kafka=${c}/broker-config=${description.name}`,
      },
      cluster_id: c,
      config_type: 'BROKER',
      ...fields(description),
    };
  }

  private brokerConfig(brokerId: number, description: BrokerConfigDescription) {
    const c = this.election.clusterId;
    return {
      kind: 'KafkaBrokerConfig',
      metadata: {
        self: this.urls.cluster(c, 'brokers', brokerId, 'configs', description.name),
        resource_name: `crn:///kafka=${c}/broker=${brokerId}/config=${description.name}`,
      },
      cluster_id: c,
      broker_id: brokerId,
      ...fields(description),
    };
  }
}

function fields(description: BrokerConfigDescription) {
  return {
    name: description.name,
    value: description.value,
    is_default: description.isDefault,
    is_read_only: description.isReadOnly,
    is_sensitive: description.isSensitive,
    source: description.source,
    synonyms: description.synonyms.map(({ name, value, source }) => ({ name, value, source })),
  };
}

function changesOf(body: AlterConfigsBody): BrokerConfigChange[] {
  return body.data.map(({ name, value, operation }) => ({
    name,
    value: value ?? null,
    operation: operation ?? 'SET',
  }));
}
