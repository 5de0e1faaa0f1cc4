// Authentication, ACLs and the audit log, for every interface: the REST hooks (security-hooks.ts, registered by
// main.ts), and the WebSocket gateway and SSE, which inject Authenticator and Authorizer.
import { Global, Module } from '@nestjs/common';
import { ControllerElectionModule } from '../controller-election/controller-election.module.js';
import { AclController } from './acl.controller.js';
import { AclStore } from './acl-store.service.js';
import { AuditLog } from './audit-log.js';
import { Authenticator } from './authenticator.service.js';
import { Authorizer } from './authorizer.service.js';
import { QuotaController } from './quota.controller.js';
import { QuotaManager } from './quota-manager.service.js';

@Global()
@Module({
  imports: [ControllerElectionModule],
  controllers: [AclController, QuotaController],
  providers: [AclStore, Authenticator, Authorizer, AuditLog, QuotaManager],
  exports: [AclStore, Authenticator, Authorizer, AuditLog, QuotaManager],
})
export class SecurityModule {}
