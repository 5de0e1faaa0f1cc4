// The SSE edge: GET /v3/clusters/{c}/topics/{t}/records:stream, a topic's records as Server-Sent Events.
import { Module } from '@nestjs/common';
import { AdminModule } from '../application/admin/admin.module.js';
import { StreamingModule } from '../application/streaming/streaming.module.js';
import { ReplicationModule } from '../replication/replication.module.js';
import { RecordsStreamController } from './records-stream.controller.js';

@Module({
  imports: [ReplicationModule, AdminModule, StreamingModule],
  controllers: [RecordsStreamController],
})
export class SseModule {}
