// A plain HTTP server on a free loopback port with a front route (src/common/front-route.ts) in front of a stand-in
// for Fastify's listener: the stand-in records the URL of each request the route leaves alone and answers it 418
// once its body was read, so that a spec sees what was taken and what went on.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FrontRoute } from '../../src/common/front-route.js';

export interface FrontRouteServer {
  port: number;
  /** The URLs the route left to the listener behind it, in arrival order. */
  passedOn: string[];
  close(): Promise<void>;
}

export async function frontRouteServer(route: Pick<FrontRoute, 'take'>): Promise<FrontRouteServer> {
  const passedOn: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (route.take(request, response)) return;
    passedOn.push(request.url ?? '');
    request.resume();
    request.on('end', () => response.writeHead(418).end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    passedOn,
    close: async () => {
      server.close();
      await once(server, 'close');
    },
  };
}
