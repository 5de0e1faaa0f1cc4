// Brook's statistics routes (Brook additions, openapi.yaml): GET /v3/clusters/{c}/status (brokers with their
// incarnation and liveness, the controller and its epoch, partition health) and GET /v3/clusters/{c}/topic-stats
// (size on disk, record counts and cluster-wide produce and fetch rates per topic and partition), listing the
// topics the caller may DESCRIBE. Gathered by application/observability/cluster-stats.service.ts.
import { Controller, Get, Inject, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ClusterStatsService } from '../../application/observability/cluster-stats.service.js';
import { clusterStatusView, topicStatsView } from '../../application/observability/stats-views.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { resolveTopicConfig } from '../../config/topic-config.js';
import { ControllerElection } from '../../controller-election/controller-election.service.js';
import { Authorizer } from '../../security/authorizer.service.js';
import { MetadataCache } from '../../topic/metadata-cache.service.js';
import { describable } from '../security/security-hooks.js';
import { KnownClusterGuard } from './known-cluster.guard.js';

@Controller('v3/clusters')
@UseGuards(KnownClusterGuard)
export class V3StatsController {
  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly stats: ClusterStatsService,
    private readonly election: ControllerElection,
    private readonly metadata: MetadataCache,
    private readonly authorizer: Authorizer,
  ) {}

  @Get(':cluster_id/status')
  async status() {
    return clusterStatusView(this.election.clusterId, await this.stats.clusterStats(), this.stats.partitionHealth());
  }

  @Get(':cluster_id/topic-stats')
  async topicStats(@Req() request: FastifyRequest) {
    const visible = describable(this.authorizer, request);
    const stats = await this.stats.clusterStats();
    const topics = [...this.metadata.allTopics().values()]
      .filter((topic) => visible('TOPIC', topic.assignment.name))
      .sort((a, b) => a.assignment.name.localeCompare(b.assignment.name));
    const compacted = (topic: (typeof topics)[number]) =>
      resolveTopicConfig(topic.configs, this.config.topicConfigDefaults).cleanupPolicyCompact;
    return {
      kind: 'BrookTopicStatsList',
      metadata: { self: `${this.config.advertisedUrl}/v3/clusters/${this.election.clusterId}/topic-stats`, next: null },
      data: topicStatsView(stats, topics, compacted),
    };
  }
}
