// A broker's controlled shutdown (Kafka's KafkaServer.controlledShutdown): on SIGTERM, before it closes anything,
// the broker stops appending as leader (produce requests park, then go to the new leader through the router) and
// lets its followers reach its log end, then asks the controller to move the leadership of its partitions to other in-sync replicas and to take it
// out of every ISR, then checks its metadata; it retries controlled.shutdown.max.retries times, waiting
// controlled.shutdown.retry.backoff.ms, and stops anyway after that. Requests parked on acks=all when leadership
// moves keep waiting as a follower (replica-manager.service.ts), so a rolling restart fails no request.
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { type Clock, CLOCK, sleep, systemClock } from '../common/clock.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { ReplicaManager } from '../replication/replica-manager.service.js';
import { MetadataCache } from '../topic/metadata-cache.service.js';
import { ControllerElection } from './controller-election.service.js';
import { ControllerService } from './controller.service.js';

@Injectable()
export class ControlledShutdown {
  private readonly logger = new Logger(ControlledShutdown.name);

  constructor(
    @Inject(BROKER_CONFIG) private readonly config: BrokerConfig,
    private readonly election: ControllerElection,
    private readonly controller: ControllerService,
    private readonly metadata: MetadataCache,
    private readonly replicas: ReplicaManager,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {}

  /** Resolves once this broker leads nothing, or after the last retry; never throws. */
  async run(): Promise<void> {
    if (this.config.redisUrl === null || !this.config.controlledShutdownEnable) return;
    await this.replicas.drainLeadership();
    for (let attempt = 0; attempt <= this.config.controlledShutdownMaxRetries; attempt++) {
      try {
        await this.controller.controlledShutdown(this.config.brokerId, this.election.brokerEpoch);
        await this.metadata.reload();
        const led = this.ledPartitions();
        if (led === 0) {
          this.logger.log('controlled shutdown: leadership moved to other replicas');
          return;
        }
        this.logger.warn(`controlled shutdown: still leading ${led} partition(s)`);
      } catch (error) {
        this.logger.warn(`controlled shutdown attempt ${attempt + 1} failed: ${(error as Error).message}`);
      }
      if (attempt < this.config.controlledShutdownMaxRetries) {
        await sleep(this.clock, this.config.controlledShutdownRetryBackoffMs);
      }
    }
    this.logger.warn('controlled shutdown did not complete; stopping anyway');
  }

  private ledPartitions(): number {
    let led = 0;
    for (const topic of this.metadata.allTopics().values()) {
      for (const state of topic.states) if (state?.leader === this.config.brokerId) led++;
    }
    return led;
  }
}
