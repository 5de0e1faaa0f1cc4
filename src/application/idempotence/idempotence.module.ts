// Idempotent produce's application services: producer ids for Brook-Producer-* clients (and the Kafka listener).
import { Module } from '@nestjs/common';
import { ProducerIdService } from './producer-ids.service.js';

@Module({
  providers: [ProducerIdService],
  exports: [ProducerIdService],
})
export class IdempotenceModule {}
