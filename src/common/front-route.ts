// Routes answered on the HTTP server's request event, in front of Fastify's listener, each for one exact request
// shape that costs more in Fastify's and Nest's pipeline than in its own work (internal/replica-fetch-route.ts,
// http/v2/v2-produce-route.ts). A request a route does not take goes on, in the same turn, to the listeners that
// were there before it (Fastify's, or a front route installed earlier): nothing of it has been read.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface FrontRoute {
  /** Answers the request (true), or leaves it alone (false). */
  take(request: IncomingMessage, response: ServerResponse): boolean;
  /** From now on every request goes on (Fastify answers 503 while the broker closes). */
  close(): void;
}

/** Puts `route` in front of the application's HTTP server's request listeners (before it listens). */
export function installFrontRoute(app: NestFastifyApplication, route: FrontRoute): void {
  const server = app.getHttpServer();
  const behind = server.listeners('request') as Array<(...args: unknown[]) => void>;
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (route.take(request, response)) return;
    for (const listener of behind) listener.call(server, request, response);
  });
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('preClose', (done) => {
      route.close();
      done();
    });
}
