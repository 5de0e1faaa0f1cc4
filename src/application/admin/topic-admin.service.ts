// The write side of the v3 topic admin API: creating topics, adding partitions and changing topic configs, with
// Confluent's request bodies (validated by the REST edge) turned into controller commands and the answers built
// from the metadata the controller wrote. Defaults come from the broker's settings, dynamic ones included
// (num.partitions, default.replication.factor); validate_only checks everything and changes nothing.
import { Injectable } from '@nestjs/common';
import { DynamicBrokerConfigs } from '../../topic/dynamic-broker-configs.service.js';
import { ControllerService } from '../../controller-election/controller.service.js';
import { AdminService } from './admin.service.js';

/** Confluent's CreateTopicRequest. */
export interface CreateTopicBody {
  topic_name: string;
  partitions_count?: number | null;
  replication_factor?: number | null;
  configs?: Array<{ name: string; value?: string | null }> | null;
  validate_only?: boolean | null;
}

/** Confluent's AlterConfigBatchRequest. */
export interface AlterConfigsBody {
  data: Array<{ name: string; value?: string | null; operation?: 'SET' | 'DELETE' | null }>;
  validate_only?: boolean | null;
}

@Injectable()
export class TopicAdminService {
  constructor(
    private readonly admin: AdminService,
    private readonly controller: ControllerService,
    private readonly brokerConfigs: DynamicBrokerConfigs,
  ) {}

  async create(body: CreateTopicBody) {
    const validateOnly = body.validate_only ?? false;
    const assignment = await this.controller.createTopic({
      name: body.topic_name,
      partitions: body.partitions_count ?? this.brokerConfigs.settings().numPartitions,
      replicationFactor: body.replication_factor ?? this.brokerConfigs.settings().defaultReplicationFactor,
      configs: (body.configs ?? []).map(({ name, value }) => ({ name, value: value ?? null })),
      validateOnly,
    });
    if (validateOnly) return this.admin.topic({ assignment, states: [], stateVersions: [], configs: {} });
    return this.admin.topic(this.admin.topicOrThrow(body.topic_name));
  }

  async addPartitions(topic: string, partitionsCount: number) {
    await this.controller.addPartitions(topic, partitionsCount);
    return this.admin.topic(this.admin.topicOrThrow(topic));
  }

  async alterConfigs(topic: string, body: AlterConfigsBody): Promise<void> {
    if (body.validate_only) return;
    const changes = body.data.map(({ name, value, operation }) => ({
      name,
      value: value ?? null,
      operation: operation ?? 'SET',
    }));
    await this.controller.alterConfigs(topic, changes);
  }

  async setConfig(topic: string, name: string, value: string): Promise<void> {
    await this.controller.alterConfigs(topic, [{ name, value, operation: 'SET' }]);
  }

  /** Removes a config override: 404 for a config name the topic does not have. */
  async deleteConfig(topic: string, name: string): Promise<void> {
    this.admin.topicConfigByName(topic, name);
    await this.controller.alterConfigs(topic, [{ name, value: null, operation: 'DELETE' }]);
  }

  async deleteTopic(topic: string): Promise<void> {
    await this.controller.deleteTopic(topic);
  }
}
