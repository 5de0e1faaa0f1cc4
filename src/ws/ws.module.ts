// The WebSocket edge: GET /v3/ws (ws.gateway.ts) on `@nestjs/websockets`, through Brook's adapter (ws.adapter.ts):
// produce and consume with credit-based flow control. `useWebSocketEdge` puts the adapter in place (main.ts calls
// it before the application listens).
import { Module, type INestApplication } from '@nestjs/common';
import { ProduceModule } from '../application/produce/produce.module.js';
import { StreamingModule } from '../application/streaming/streaming.module.js';
import { systemClock } from '../common/clock.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { ReplicationModule } from '../replication/replication.module.js';
import { TopicModule } from '../topic/topic.module.js';
import { BrookWsAdapter } from './ws.adapter.js';
import { WsGateway } from './ws.gateway.js';
import { routeMessage } from './produce-frame-scanner.js';
import { WsSessions } from './ws-sessions.js';
import { WsUpgrade } from './ws-upgrade.js';

@Module({
  imports: [TopicModule, ReplicationModule, ProduceModule, StreamingModule],
  providers: [WsGateway, WsSessions, WsUpgrade],
})
export class WsModule {}

export function useWebSocketEdge(app: INestApplication, config: BrokerConfig): void {
  const routerLimits = { produceRecordsMax: config.produceBatchEntriesMax };
  app.useWebSocketAdapter(
    new BrookWsAdapter(app, {
      frameBytesMax: config.ws.frameBytesMax,
      messageParser: (data, isBinary) => routeMessage(data, isBinary, routerLimits, systemClock.nowMs()),
      gate: app.get(WsUpgrade),
      intake: app.get(WsSessions),
    }),
  );
}
