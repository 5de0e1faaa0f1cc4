import { Module } from '@nestjs/common';
import { TopicModule } from '../topic/topic.module.js';
import { ControllerElection } from './controller-election.service.js';
import { ControllerService } from './controller.service.js';

@Module({
  imports: [TopicModule],
  providers: [ControllerElection, ControllerService],
  exports: [ControllerElection, ControllerService],
})
export class ControllerElectionModule {}
