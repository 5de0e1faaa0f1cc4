// Confluent's v3 envelopes: `kind`, `metadata.self` and `related` links, all absolute URLs on this broker's
// advertised address.
import { Inject, Injectable } from '@nestjs/common';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { BrokerConfig } from '../config/broker-config.js';

@Injectable()
export class Urls {
  constructor(@Inject(BROKER_CONFIG) private readonly config: BrokerConfig) {}

  cluster(clusterId: string, ...rest: Array<string | number>): string {
    return [
      `${this.config.advertisedUrl}/v3/clusters/${clusterId}`,
      ...rest.map((part) => encodeURIComponent(String(part))),
    ].join('/');
  }

  related(url: string): { related: string } {
    return { related: url };
  }
}

export function listEnvelope<T>(kind: string, self: string, data: T[]) {
  return { kind, metadata: { self, next: null }, data };
}
