// The WebSocket edge: GET /v3/ws (ws.gateway.ts), produce and consume with credit-based flow control.
import { Module } from '@nestjs/common';
import { ProduceModule } from '../application/produce/produce.module.js';
import { StreamingModule } from '../application/streaming/streaming.module.js';
import { ReplicationModule } from '../replication/replication.module.js';
import { TopicModule } from '../topic/topic.module.js';
import { WsGateway } from './ws.gateway.js';

@Module({
  imports: [TopicModule, ReplicationModule, ProduceModule, StreamingModule],
  providers: [WsGateway],
})
export class WsModule {}
