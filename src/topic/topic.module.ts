import { Module } from '@nestjs/common';
import { MetadataCache } from './metadata-cache.service.js';

@Module({ providers: [MetadataCache], exports: [MetadataCache] })
export class TopicModule {}
