// Authentication, ACLs and the audit log, for every interface: the REST hooks (security-hooks.ts, registered by
// main.ts), and the WebSocket gateway and SSE, which inject Authenticator and Authorizer, ReadAccess (the one check
// before records leave) and StreamGuard (re-authorization of open streams); and the topic visibility that pattern
// subscriptions are filtered by, for the group coordinator.
import { Global, Module } from '@nestjs/common';
import { ControllerElectionModule } from '../controller-election/controller-election.module.js';
import { AclController } from './acl.controller.js';
import { AclStore } from './acl-store.service.js';
import { AuditLog } from './audit-log.js';
import { Authenticator } from './authenticator.service.js';
import { Authorizer } from './authorizer.service.js';
import { QuotaController } from './quota.controller.js';
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
  imports: [ControllerElectionModule],
  controllers: [AclController, QuotaController],
  providers: [AclStore, Authenticator, Authorizer, AuditLog, QuotaManager, ReadAccess, StreamGuard, topicVisibility],
  exports: [AclStore, Authenticator, Authorizer, AuditLog, QuotaManager, ReadAccess, StreamGuard, TOPIC_VISIBILITY],
})
export class SecurityModule {}
