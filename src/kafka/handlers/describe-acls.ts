// DescribeAcls (29), v1-3 (v2 flexible; v3 allows the USER resource type, which Brook does not store): the
// bindings of the ACL store REST's GET /v3/clusters/{c}/acls searches that match the filter, grouped by resource
// pattern, in Kafka's codes (acl-codes.ts). Brook's SUBJECT bindings (the schema registry's) are left out: Kafka
// cannot name them. Authorization: DESCRIBE on the cluster (CLUSTER_AUTHORIZATION_FAILED), as REST's route and
// Kafka. A filter with an UNKNOWN code is INVALID_REQUEST.
import { bindingToWire, filterFromWire } from '../acl-codes.js';
import { authorized, CLUSTER } from '../kafka-authorization.js';
import { defineHandler } from '../kafka-handler.js';
import type { ResponseInput } from '../protocol/apis.js';
import { KafkaErrorCode } from '../protocol/error-codes.js';

type Resources = ResponseInput<'DescribeAcls'>['resources'];

export const describeAclsHandler = defineHandler({
  api: 'DescribeAcls',
  minVersion: 1,
  maxVersion: 3,
  ordering: 'pipelined',
  handle(request, context) {
    const answer = (errorCode: number, errorMessage: string | null, resources: Resources = []) => ({
      throttleTimeMs: 0,
      errorCode,
      errorMessage,
      resources,
    });
    if (!authorized(context, 'DescribeAcls', 'DESCRIBE', CLUSTER)) {
      return answer(KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED, 'DESCRIBE on the cluster is needed to list ACLs.');
    }
    const filter = filterFromWire(request.body);
    if (!filter.ok) return answer(KafkaErrorCode.INVALID_REQUEST, filter.reason);
    if (filter.value === null) return answer(KafkaErrorCode.NONE, null);
    const byResource = new Map<string, Resources[number]>();
    for (const acl of context.services.acls.searchKafka(filter.value)) {
      const wire = bindingToWire(acl);
      if (wire === null) continue;
      const key = JSON.stringify([wire.resourceType, wire.resourceName, wire.patternType]);
      let resource = byResource.get(key);
      if (resource === undefined) {
        resource = {
          resourceType: wire.resourceType,
          resourceName: wire.resourceName,
          patternType: wire.patternType,
          acls: [],
        };
        byResource.set(key, resource);
      }
      resource.acls.push({
        principal: wire.principal,
        host: wire.host,
        operation: wire.operation,
        permissionType: wire.permissionType,
      });
    }
    return answer(KafkaErrorCode.NONE, null, [...byResource.values()]);
  },
});
