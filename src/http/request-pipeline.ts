// Everything around the REST routes, in one place and in the order it runs; main.ts calls this once. The Fastify
// adapter's options come first (TLS, request ids, the path parameter bound, Brook's error shape for what Fastify
// refuses itself, the body bound, 503 while closing); then, on the created application, in registration order:
// CORS (preflights answered before anything else), the JSON body parser (streaming for v3 produce, the scanner for
// v2 binary produce), the v2 Accept check and answer type, the request id header and request context, group
// forwarding to the coordinator (cluster mode), the error filter, request metrics, the security hooks
// (authentication, authorisation, quotas, audit), the refusal of v3 writes without a body, and the bound on open
// connections of the listener.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { GroupForwarding } from '../application/consumer-groups/group-forwarding.js';
import type { BrokerConfig } from '../config/broker-config.js';
import { Metrics } from '../metrics/metrics.service.js';
import { registerEmptyBodyCheck } from './body/empty-body.js';
import { registerJsonBodyParser } from './body/json-body-parser.js';
import { registerCors } from './cors.js';
import { ErrorFilter } from './error.filter.js';
import { clientErrorHandler, frameworkErrors, limitConnections, PATH_PARAMETER_CHARS_MAX } from './framework-errors.js';
import { registerGroupForwarding } from './group-forwarding.hook.js';
import { registerHttpMetrics } from './http-metrics.js';
import {
  registerRequestContext,
  registerRequestIdHeader,
  requestContextNeeded,
  requestIdOptions,
} from './request-id.js';
import { installSecurity, tlsOptions } from './security/install-security.js';
import { registerV2AcceptCheck, registerV2AnswerContentType } from './v2/v2-accept.js';

/** The FastifyAdapter's options for this broker. */
export function httpAdapterOptions(config: BrokerConfig) {
  return {
    ...tlsOptions(config),
    ...requestIdOptions,
    routerOptions: { maxParamLength: PATH_PARAMETER_CHARS_MAX },
    frameworkErrors,
    clientErrorHandler,
    bodyLimit: config.socketRequestMaxBytes,
    return503OnClosing: true,
  };
}

/** Installs the request pipeline on the created application, before it listens. */
export function installRequestPipeline(app: NestFastifyApplication, config: BrokerConfig): void {
  const fastify = app.getHttpAdapter().getInstance();
  registerCors(fastify, config.corsAllowedOrigins);
  registerJsonBodyParser(fastify, config.socketRequestMaxBytes);
  registerV2AcceptCheck(fastify);
  registerV2AnswerContentType(fastify);
  registerRequestIdHeader(fastify);
  registerRequestContext(fastify, requestContextNeeded(config));
  registerGroupForwarding(fastify, app.get(GroupForwarding));
  app.useGlobalFilters(new ErrorFilter());
  registerHttpMetrics(fastify, app.get(Metrics));
  installSecurity(app, config);
  registerEmptyBodyCheck(fastify);
  limitConnections(app.getHttpServer(), config.security.connectionsMax, config.security.tls !== null);
}
