// GET /metrics: the Prometheus text exposition of this broker's registry (metrics.service.ts lists the metrics).
import { Controller, Get, Header } from '@nestjs/common';
import { Metrics } from '../metrics/metrics.service.js';

@Controller()
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
