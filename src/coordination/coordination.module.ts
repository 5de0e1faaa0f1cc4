// Provides the coordination store: the embedded adapter in the data dir when BROOK_REDIS_URL is unset.
import { Global, Module } from '@nestjs/common';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { CoordinationStore } from './coordination-store.js';
import { EmbeddedCoordinationStore } from './embedded-store.js';

@Global()
@Module({
  providers: [
    {
      provide: CoordinationStore,
      inject: [BROKER_CONFIG],
      useFactory: async (config: BrokerConfig): Promise<CoordinationStore> => {
        if (config.redisUrl !== null) {
          throw new Error('BROOK_REDIS_URL is set, but this build runs single-node only (embedded store); unset it');
        }
        return EmbeddedCoordinationStore.open(config.dataDir);
      },
    },
  ],
  exports: [CoordinationStore],
})
export class CoordinationModule {}
