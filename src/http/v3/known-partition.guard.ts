// The read of one partition (GET .../partitions/{partition_id}/records): the partition id must be an integer (400)
// and the partition must exist (404, 40401 or 40402) before the query is looked at, as the route always answered.
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AdminService } from '../../application/admin/admin.service.js';
import { PARTITION_ID } from '../validation/path-params.js';

@Injectable()
export class KnownPartitionGuard implements CanActivate {
  constructor(private readonly admin: AdminService) {}

  canActivate(context: ExecutionContext): boolean {
    const params = context.switchToHttp().getRequest<FastifyRequest>().params as {
      topic_name: string;
      partition_id: string;
    };
    this.admin.partitionOrThrow(params.topic_name, PARTITION_ID.transform(params.partition_id));
    return true;
  }
}
