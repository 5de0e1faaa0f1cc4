// Authentication, ACLs, client quotas and the audit log, for every interface: the REST edge's hooks
// (http/security/), the WebSocket endpoint (ws/ws-auth.ts) and SSE inject them, with ReadAccess (the one check
// before records leave) and StreamGuard (re-authorization of open streams); the v3 ACL and quota routes are in the
// REST edge. It also gives the group coordinator the topic visibility that pattern subscriptions are filtered by.
import { Global, Module } from '@nestjs/common';
import { AclStore } from './acl-store.service.js';
import { AuditLog } from './audit-log.js';
import { Authenticator } from './authenticator.service.js';
import { Authorizer } from './authorizer.service.js';
import { QuotaManager } from './quota-manager.service.js';
import { ReadAccess } from './read-access.js';
import { StreamGuard } from './stream-guard.service.js';
import { TOPIC_VISIBILITY, type TopicVisibility } from '../group-coordinator/subscription-topics.js';

/** What pattern subscriptions may match: topics the subscriber may DESCRIBE (Kafka's rule). */
const topicVisibility = {
  provide: TOPIC_VISIBILITY,
  inject: [Authorizer],
  useFactory:
    (authorizer: Authorizer): TopicVisibility =>
    (principal, host, topic) =>
      authorizer.authorize(principal, host, 'DESCRIBE', { type: 'TOPIC', name: topic }),
};

@Global()
@Module({
  providers: [AclStore, Authenticator, Authorizer, AuditLog, QuotaManager, ReadAccess, StreamGuard, topicVisibility],
  exports: [AclStore, Authenticator, Authorizer, AuditLog, QuotaManager, ReadAccess, StreamGuard, TOPIC_VISIBILITY],
})
export class SecurityModule {}
