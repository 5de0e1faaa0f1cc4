import { Module } from '@nestjs/common';
import { LogManager } from './log-manager.service.js';

@Module({ providers: [LogManager], exports: [LogManager] })
export class PartitionLogModule {}
