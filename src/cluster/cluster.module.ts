import { Global, Module } from '@nestjs/common';
import { PeerClient } from './peer-client.js';

/** Broker-to-broker calls, used by the controller, the partition router and the consumer paths. */
@Global()
@Module({ providers: [PeerClient], exports: [PeerClient] })
export class ClusterModule {}
