// Provides the coordination store: the embedded adapter in the data dir when BROOK_REDIS_URL is unset, the Redis
// adapter (a cluster) when it is set.
import { Global, Logger, Module } from '@nestjs/common';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { CoordinationStore } from './coordination-store.js';
import { EmbeddedCoordinationStore } from './embedded-store.js';
import { RedisCoordinationStore } from './redis-store.js';
import { redact } from '../config/redis-url.js';
import { type Clock, CLOCK, systemClock } from '../common/clock.js';

/** Connection errors are repeated while Redis is down; log one per interval. */
const REDIS_ERROR_LOG_INTERVAL_MS = 5_000;

@Global()
@Module({
  providers: [
    {
      provide: CoordinationStore,
      inject: [BROKER_CONFIG, { token: CLOCK, optional: true }],
      useFactory: async (config: BrokerConfig, clock: Clock = systemClock): Promise<CoordinationStore> => {
        if (config.redisUrl === null) return EmbeddedCoordinationStore.open(config.dataDir);
        const logger = new Logger('Coordination');
        let lastLoggedMs = -Infinity;
        const store = await RedisCoordinationStore.connect(config.redisUrl, {
          onConnectionError: (error) => {
            const now = clock.monotonicMs();
            if (now - lastLoggedMs < REDIS_ERROR_LOG_INTERVAL_MS) return;
            lastLoggedMs = now;
            logger.warn(`Redis ${redact(config.redisUrl ?? '')}: ${error.message}`);
          },
          clock,
        });
        return store;
      },
    },
  ],
  exports: [CoordinationStore],
})
export class CoordinationModule {}
