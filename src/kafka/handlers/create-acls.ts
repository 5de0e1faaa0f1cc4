// CreateAcls (30), v1-3 (v2 flexible): each creation is a binding stored in the ACL store REST's
// POST /v3/clusters/{c}/acls writes, after the same checks (acl-codes.ts); a creation that fails them gets
// INVALID_REQUEST with the reason, the others are stored (Kafka answers each creation on its own). The same
// binding twice is one ACL. Authorization: ALTER on the cluster, else every creation is
// CLUSTER_AUTHORIZATION_FAILED. Bounded: at most ACL_COUNT_MAX stored bindings, as on REST.
import { ACL_COUNT_MAX } from '../../security/acl-store.service.js';
import type { AclBinding } from '../../security/acl.js';
import { bindingFromWire } from '../acl-codes.js';
import { authorized, CLUSTER } from '../kafka-authorization.js';
import { kafkaFailure } from '../kafka-errors.js';
import { defineHandler } from '../kafka-handler.js';
import { KafkaErrorCode } from '../protocol/error-codes.js';

interface Result {
  errorCode: number;
  errorMessage: string | null;
}

export const createAclsHandler = defineHandler({
  api: 'CreateAcls',
  minVersion: 1,
  maxVersion: 3,
  ordering: 'exclusive',
  async handle(request, context) {
    const { creations } = request.body;
    const every = (errorCode: number, errorMessage: string | null) => ({
      throttleTimeMs: 0,
      results: creations.map((): Result => ({ errorCode, errorMessage })),
    });
    if (!authorized(context, 'CreateAcls', 'ALTER', CLUSTER)) {
      return every(KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED, 'ALTER on the cluster is needed to create ACLs.');
    }
    const results: Result[] = [];
    const valid: Array<{ index: number; binding: AclBinding }> = [];
    creations.forEach((creation, index) => {
      const checked = bindingFromWire({ ...creation, patternType: creation.resourcePatternType });
      results.push(
        checked.ok
          ? { errorCode: KafkaErrorCode.NONE, errorMessage: null }
          : { errorCode: KafkaErrorCode.INVALID_REQUEST, errorMessage: checked.reason },
      );
      if (checked.ok) valid.push({ index, binding: checked.value });
    });
    const { acls } = context.services;
    const fail = (result: Result) => {
      for (const { index } of valid) results[index] = result;
    };
    if (acls.all().length + valid.length > ACL_COUNT_MAX) {
      fail({ errorCode: KafkaErrorCode.INVALID_REQUEST, errorMessage: `At most ${ACL_COUNT_MAX} ACLs can be stored.` });
    } else if (valid.length > 0) {
      try {
        await acls.createAll(valid.map((entry) => entry.binding));
      } catch (error) {
        fail(kafkaFailure(error));
      }
    }
    return { throttleTimeMs: 0, results };
  },
});
