// Another listener of the same HTTP application (the schema registry's own port): requests whose URL `serves`
// accepts go to the application's router, so that every hook of the request pipeline runs for them as on the main
// port (authentication, rights, quotas, metrics, request ids, errors); other URLs are answered 404. TLS, the bound
// on open connections and the answers to malformed requests are the main listener's. Closing the application
// closes this listener too and drops its connections.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { BrokerConfig } from '../config/broker-config.js';
import { clientErrorHandler, limitConnections } from './framework-errors.js';
import { tlsOptions } from './security/install-security.js';

export interface SecondListener {
  /** Starts listening; rejects when the port cannot be bound. */
  listen(port: number, host: string): Promise<void>;
}

/** Makes the listener; call before the application listens (its close hook is registered then). */
export function createSecondListener(
  app: NestFastifyApplication,
  config: BrokerConfig,
  serves: (url: string) => boolean,
): SecondListener {
  const fastify = app.getHttpAdapter().getInstance();
  const notFound = JSON.stringify({ error_code: 404, message: 'Not found: this port serves the schema registry.' });
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    if (serves(request.url ?? '')) {
      fastify.routing(request, response);
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json' }).end(notFound);
  };
  const https = (tlsOptions(config) as { https?: object }).https;
  const server: Server = https === undefined ? createHttpServer(handler) : createHttpsServer(https, handler);
  server.on('clientError', clientErrorHandler);
  limitConnections(server, config.security.connectionsMax, config.security.tls !== null);
  fastify.addHook('onClose', (_instance, done) => {
    if (!server.listening) {
      done();
      return;
    }
    server.close(() => done());
    server.closeAllConnections();
  });
  return {
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      }),
  };
}
