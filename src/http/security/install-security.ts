// Wires security into the HTTP server (called once by main.ts, before the routes are registered): the TLS options
// of the listener, the authentication/authorisation hooks, and the start-up warning for an open broker.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PeerAuthenticator } from '../../cluster/peer-auth.js';
import { announce } from '../../common/announce.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { ConsumerInstances } from '../../application/consumer-instances/consumer-instances.service.js';
import { GroupCoordinator } from '../../group-coordinator/group-coordinator.service.js';
import { AuditLog } from '../../security/audit-log.js';
import { Authenticator } from '../../security/authenticator.service.js';
import { Authorizer } from '../../security/authorizer.service.js';
import { Metrics } from '../../metrics/metrics.service.js';
import { QuotaManager } from '../../security/quota-manager.service.js';
import { registerSecurityHooks } from './security-hooks.js';

/**
 * FastifyAdapter options for BROOK_TLS_*: HTTPS, and client certificates requested (not required) when a client
 * CA or a peer CA is given; both CAs are trusted by the handshake, the authenticator and peer-auth.ts tell them apart.
 */
export function tlsOptions(config: BrokerConfig): object {
  const tls = config.security.tls;
  if (tls === null) return {};
  const authorities = [tls.ca, tls.peerCa].filter((ca): ca is Buffer => ca !== null);
  return {
    https: {
      cert: tls.cert,
      key: tls.key,
      ...(authorities.length === 0 ? {} : { ca: authorities, requestCert: true, rejectUnauthorized: false }),
    },
  };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

/** Warnings printed at start-up about a broker others can reach without credentials or without TLS. */
export function securityWarnings(config: BrokerConfig): string[] {
  const warnings: string[] = [];
  const exposed = !LOOPBACK.test(config.host);
  const authenticated = config.security.authModes.length > 0 || config.security.tls?.ca != null;
  if (exposed && !authenticated) {
    warnings.push(
      `WARNING: listening on ${config.host} without authentication: anyone who can reach this port can produce, ` +
        'consume and delete topics. Set BROOK_AUTH (and BROOK_AUTHORIZER_ENABLE) or BROOK_HOST=127.0.0.1.',
    );
  }
  if (exposed && config.security.authModes.includes('basic') && config.security.tls === null) {
    warnings.push('WARNING: Basic authentication without TLS sends passwords in clear text; set BROOK_TLS_CERT/KEY.');
  }
  if (config.redisUrl !== null && config.security.tls !== null && config.security.tls.peerCa === null) {
    warnings.push(
      "WARNING: broker-to-broker TLS checks the other brokers' certificates against the system's CAs only, and " +
        'internal routes rest on the cluster secret alone; set BROOK_TLS_PEER_CA to the CA of the brokers.',
    );
  }
  if (config.security.authorizerEnable && !authenticated) {
    warnings.push('WARNING: BROOK_AUTHORIZER_ENABLE without BROOK_AUTH: every client is User:ANONYMOUS.');
  }
  return warnings;
}

export function installSecurity(app: NestFastifyApplication, config: BrokerConfig): void {
  for (const warning of securityWarnings(config)) announce(config.logFormat, 'warn', warning);
  const instances = app.get(ConsumerInstances, { strict: false });
  const coordinator = app.get(GroupCoordinator, { strict: false });
  registerSecurityHooks(app.getHttpAdapter().getInstance(), {
    authenticator: app.get(Authenticator),
    authorizer: app.get(Authorizer),
    audit: app.get(AuditLog),
    quotas: app.get(QuotaManager),
    metrics: app.get(Metrics, { strict: false }),
    peers: new PeerAuthenticator(config),
    lookups: {
      instanceTopics(group, instance) {
        try {
          const topics = new Set(instances.subscription(group, instance).topics);
          for (const { topic } of instances.assignments(group, instance)) topics.add(topic);
          return [...topics];
        } catch {
          return []; // no such instance: the route answers 40403
        }
      },
      groupTopics(groupId) {
        const group = coordinator.group(groupId);
        if (group === undefined) return [];
        const topics = new Set([...group.offsets.values()].map((stored) => stored.topic));
        for (const member of group.members.values()) for (const { topic } of member.assignment) topics.add(topic);
        return [...topics];
      },
    },
  });
}
