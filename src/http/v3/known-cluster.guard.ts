// Every v3 route under /v3/clusters/{cluster_id}: an unknown cluster id is 404 before anything else about the
// request is looked at (its body and query included), as each route answered when it checked the id first.
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { errors } from '../../common/brook-error.js';
import { ControllerElection } from '../../controller-election/controller-election.service.js';

@Injectable()
export class KnownClusterGuard implements CanActivate {
  constructor(private readonly election: ControllerElection) {}

  canActivate(context: ExecutionContext): boolean {
    const params = context.switchToHttp().getRequest<FastifyRequest>().params as { cluster_id?: string };
    if (params.cluster_id !== undefined && params.cluster_id !== this.election.clusterId) {
      throw errors.clusterNotFound(params.cluster_id);
    }
    return true;
  }
}
