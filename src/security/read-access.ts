// The one check every path that lets records leave the broker calls, at the moment they leave: REST v2 polls (at
// every round of the poll), stateless reads (after a long poll's wait), WebSocket and SSE deliveries (before each
// delivery), and the Kafka listener's fetches when it lands. May this principal, from this host, READ this topic
// now? The authorizer remembers its decisions until the ACLs change, so asking per delivery costs a map look-up.
// Every refusal is written to the audit log with the path the records would have left by.
import { Injectable } from '@nestjs/common';
import { AuditLog } from './audit-log.js';
import { Authorizer } from './authorizer.service.js';

export interface Reader {
  principal: string;
  host: string;
  /** What the records leave by, for the audit line: rest.poll, rest.read, ws.subscription, sse.stream... */
  path: string;
  requestId?: string;
}

@Injectable()
export class ReadAccess {
  constructor(
    private readonly authorizer: Authorizer,
    private readonly audit: AuditLog,
  ) {}

  mayRead(reader: Reader, topic: string): boolean {
    if (this.authorizer.authorize(reader.principal, reader.host, 'READ', { type: 'TOPIC', name: topic })) return true;
    this.audit.write({
      event: 'authorization.denied',
      ...(reader.requestId === undefined ? {} : { request_id: reader.requestId }),
      principal: reader.principal,
      host: reader.host,
      path: reader.path,
      operation: 'READ',
      resource_type: 'TOPIC',
      resource_name: topic,
    });
    return false;
  }

  /** A check for one reader, as the group layer takes it (ConsumerInstances' PollOptions.mayRead). */
  forReader(reader: Reader): (topic: string) => boolean {
    return (topic) => this.mayRead(reader, topic);
  }

  /** May the reader DESCRIBE the topic (what lists and descriptions show)? Not audited: lists just leave it out. */
  mayDescribe(reader: Pick<Reader, 'principal' | 'host'>, topic: string): boolean {
    return this.authorizer.authorize(reader.principal, reader.host, 'DESCRIBE', { type: 'TOPIC', name: topic });
  }
}
