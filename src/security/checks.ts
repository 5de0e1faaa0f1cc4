// One right a request, a frame or a stream needs: an operation on a resource (acl.ts). The REST routes' table
// (route-rights.ts), the WebSocket frames' rights (stream-auth.ts) and the re-authorization of open streams
// (stream-reauthorizer.ts) all speak in Checks.
import type { Resource } from './acl.js';
import type { CheckedOperation } from './authorizer.service.js';

export interface Check {
  operation: CheckedOperation;
  resource: Resource;
  /** Also satisfied by the same operation on the cluster (Kafka's rule for CREATE). */
  orCluster?: boolean;
}
