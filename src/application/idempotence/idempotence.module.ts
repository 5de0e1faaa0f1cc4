// Idempotent produce's application services: producer ids for Brook-Producer-* clients (and the Kafka listener).
import { Module } from '@nestjs/common';
import { ControllerElectionModule } from '../../controller-election/controller-election.module.js';
import { ProducerIdService } from './producer-ids.service.js';

@Module({
  imports: [ControllerElectionModule],
  providers: [ProducerIdService],
  exports: [ProducerIdService],
})
export class IdempotenceModule {}
