// Authentication, ACLs, client quotas and the audit log, for every interface: the REST edge's hooks
// (http/security/), the WebSocket endpoint (ws/ws-auth.ts) and SSE inject them; the v3 ACL and quota routes are
// in the REST edge.
import { Global, Module } from '@nestjs/common';
import { AclStore } from './acl-store.service.js';
import { AuditLog } from './audit-log.js';
import { Authenticator } from './authenticator.service.js';
import { Authorizer } from './authorizer.service.js';
import { QuotaManager } from './quota-manager.service.js';

@Global()
@Module({
  providers: [AclStore, Authenticator, Authorizer, AuditLog, QuotaManager],
  exports: [AclStore, Authenticator, Authorizer, AuditLog, QuotaManager],
})
export class SecurityModule {}
