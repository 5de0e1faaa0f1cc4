// Authentication, ACLs and the audit log, for every interface: the REST hooks (security-hooks.ts, registered by
// main.ts), and the WebSocket gateway and SSE, which inject Authenticator and Authorizer.
import { Global, Module } from '@nestjs/common';
import { ControllerElectionModule } from '../controller-election/controller-election.module.js';
import { AclController } from './acl.controller.js';
import { AclStore } from './acl-store.service.js';
import { AuditLog } from './audit-log.js';
import { Authenticator } from './authenticator.service.js';
import { Authorizer } from './authorizer.service.js';

@Global()
@Module({
  imports: [ControllerElectionModule],
  controllers: [AclController],
  providers: [AclStore, Authenticator, Authorizer, AuditLog],
  exports: [AclStore, Authenticator, Authorizer, AuditLog],
})
export class SecurityModule {}
