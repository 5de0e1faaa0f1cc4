// The Prometheus registry (metrics.service.ts), global so that every layer can count. A leaf: the gauges that read
// the broker's state live in application/observability/, GET /metrics in the HTTP edge.
import { Global, Module } from '@nestjs/common';
import { Metrics } from './metrics.service.js';

@Global()
@Module({ providers: [Metrics], exports: [Metrics] })
export class MetricsModule {}
