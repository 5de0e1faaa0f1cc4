// DeleteAcls (31), v1-3 (v2 flexible): each filter deletes the matching bindings of the ACL store REST's
// DELETE /v3/clusters/{c}/acls deletes from, and answers them. Brook's SUBJECT bindings are out of Kafka's reach:
// a filter of ANY resource type deletes TOPIC, GROUP and CLUSTER bindings only. A filter with an UNKNOWN code is
// INVALID_REQUEST and deletes nothing. Authorization: ALTER on the cluster, else every filter is
// CLUSTER_AUTHORIZATION_FAILED.
import { bindingToWire, filterFromWire, kafkaTypedFilters } from '../acl-codes.js';
import { authorized, CLUSTER } from '../kafka-authorization.js';
import { kafkaFailure } from '../kafka-errors.js';
import { defineHandler } from '../kafka-handler.js';
import type { ResponseInput } from '../protocol/apis.js';
import { KafkaErrorCode } from '../protocol/error-codes.js';

type FilterResult = ResponseInput<'DeleteAcls'>['filterResults'][number];

export const deleteAclsHandler = defineHandler({
  api: 'DeleteAcls',
  minVersion: 1,
  maxVersion: 3,
  ordering: 'exclusive',
  async handle(request, context) {
    const { filters } = request.body;
    const refused = (errorCode: number, errorMessage: string): FilterResult => ({
      errorCode,
      errorMessage,
      matchingAcls: [],
    });
    if (!authorized(context, 'DeleteAcls', 'ALTER', CLUSTER)) {
      const message = 'ALTER on the cluster is needed to delete ACLs.';
      return {
        throttleTimeMs: 0,
        filterResults: filters.map(() => refused(KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED, message)),
      };
    }
    const filterResults: FilterResult[] = [];
    for (const wireFilter of filters) {
      const filter = filterFromWire(wireFilter);
      if (!filter.ok) {
        filterResults.push(refused(KafkaErrorCode.INVALID_REQUEST, filter.reason));
        continue;
      }
      const matchingAcls: FilterResult['matchingAcls'] = [];
      try {
        for (const typed of filter.value === null ? [] : kafkaTypedFilters(filter.value)) {
          for (const acl of await context.services.acls.delete(typed)) {
            const wire = bindingToWire(acl);
            if (wire !== null) matchingAcls.push({ errorCode: KafkaErrorCode.NONE, errorMessage: null, ...wire });
          }
        }
        filterResults.push({ errorCode: KafkaErrorCode.NONE, errorMessage: null, matchingAcls });
      } catch (error) {
        const { errorCode, errorMessage } = kafkaFailure(error);
        filterResults.push({ errorCode, errorMessage, matchingAcls });
      }
    }
    return { throttleTimeMs: 0, filterResults };
  },
});
