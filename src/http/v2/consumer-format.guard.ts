// A poll of a v2 consumer instance (GET .../records): the instance must exist (404, 40403) and the Accept header
// must not ask for another embedded format (406, 40601), before the query is looked at, as Confluent answers.
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { errors } from '../../common/brook-error.js';
import type { InstanceFormat } from '../../group-coordinator/group-records.js';
import { ConsumerInstances } from '../../application/consumer-instances/consumer-instances.service.js';

export const CONSUMER_MEDIA_TYPES: Readonly<Record<InstanceFormat, string>> = {
  binary: 'application/vnd.kafka.binary.v2+json',
  json: 'application/vnd.kafka.json.v2+json',
  avro: 'application/vnd.kafka.avro.v2+json',
  jsonschema: 'application/vnd.kafka.jsonschema.v2+json',
  protobuf: 'application/vnd.kafka.protobuf.v2+json',
};

@Injectable()
export class ConsumerFormatGuard implements CanActivate {
  constructor(private readonly instances: ConsumerInstances) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const { group_name: group, instance } = request.params as { group_name: string; instance: string };
    const format = this.instances.format(group, instance);
    const accept = request.headers.accept;
    const other = (Object.keys(CONSUMER_MEDIA_TYPES) as InstanceFormat[]).find(
      (name) => name !== format && accept?.includes(CONSUMER_MEDIA_TYPES[name]),
    );
    if (other !== undefined && !accept?.includes(CONSUMER_MEDIA_TYPES[format])) {
      throw errors.consumerFormatMismatch(
        `The requested embedded data format (${other}) does not match the deserializer for this consumer instance (${format}).`,
      );
    }
    return true;
  }
}
