import { Module } from '@nestjs/common';
import { DynamicBrokerConfigs } from './dynamic-broker-configs.service.js';
import { MetadataCache } from './metadata-cache.service.js';

@Module({ providers: [MetadataCache, DynamicBrokerConfigs], exports: [MetadataCache, DynamicBrokerConfigs] })
export class TopicModule {}
