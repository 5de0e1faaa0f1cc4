// A poll of a v2 consumer instance (GET .../records): the instance must exist (404, 40403) and the Accept header
// must not ask for the other embedded format (406, 40601), before the query is looked at, as Confluent answers.
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { errors } from '../../common/brook-error.js';
import { ConsumerInstances } from '../../application/consumer-instances/consumer-instances.service.js';

export const CONSUMER_MEDIA_TYPES = {
  binary: 'application/vnd.kafka.binary.v2+json',
  json: 'application/vnd.kafka.json.v2+json',
} as const;

@Injectable()
export class ConsumerFormatGuard implements CanActivate {
  constructor(private readonly instances: ConsumerInstances) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const { group_name: group, instance } = request.params as { group_name: string; instance: string };
    const format = this.instances.format(group, instance);
    const other = format === 'binary' ? 'json' : 'binary';
    const accept = request.headers.accept;
    if (accept?.includes(CONSUMER_MEDIA_TYPES[other]) && !accept.includes(CONSUMER_MEDIA_TYPES[format])) {
      throw errors.consumerFormatMismatch(
        `The requested embedded data format (${other}) does not match the deserializer for this consumer instance (${format}).`,
      );
    }
    return true;
  }
}
