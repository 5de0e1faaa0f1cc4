// The audit log: one JSON line on stdout per admin change and per authentication or authorisation failure, with
// `"audit": true` so that log shippers can route them apart, e.g.
//   {"time":"2026-...","audit":true,"event":"acl.create","principal":"User:admin","host":"10.0.0.7",...}
// Events: authentication.failed, authorization.denied, authorization.revoked (an open stream ended because its
// rights or credential went), admin (a successful mutating admin request: topic,
// config, partition, reassignment, leader election, group, ACL or quota change; with method, route, params and
// status).
import { Injectable } from '@nestjs/common';

export type AuditEvent = { event: string; principal: string; host: string } & Record<string, unknown>;

@Injectable()
export class AuditLog {
  write(event: AuditEvent): void {
    process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), audit: true, ...event })}\n`);
  }
}
