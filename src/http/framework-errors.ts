// Limits and errors at the HTTP edge. Errors Fastify answers itself, before any route, hook or Nest filter runs (a path parameter longer than
// maxParamLength is 414, a URL that is not valid UTF-8 once decoded is 400): Fastify's `frameworkErrors` option
// renders them as Brook's {"error_code", "message"}, so that every error a client sees has one shape.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** Longest path parameter (Fastify's default, 100, is shorter than a legal topic name of 249 characters). */
export const PATH_PARAMETER_CHARS_MAX = 1024;

export function frameworkErrors(
  error: { statusCode?: number; message: string },
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 400;
  const message = error.message.length > 200 ? `${error.message.slice(0, 200)}...` : error.message;
  void reply.code(status).header('content-type', 'application/json').send({ error_code: status, message });
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before there is a request (headers larger than
 * the limit: 431, a malformed request line: 400, a request timeout: 408) answered as {"error_code", "message"}.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request headers are larger than the limit.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request was not received in time.']
        : [400, 'Bad Request', 'Malformed HTTP request.'];
  const body = JSON.stringify({ error_code: status, message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Bounds the open connections of the listener: past `max`, a new plain-HTTP connection is answered 503 (50302)
 * and closed, a TLS one is closed (there is no HTTP to speak before the handshake).
 */
export function limitConnections(server: Server, max: number, tls: boolean): void {
  let open = 0;
  const body = JSON.stringify({ error_code: 50302, message: `The broker has ${max} open connections, its limit.` });
  server.on('connection', (socket: Socket) => {
    if (open >= max) {
      if (tls) socket.destroy();
      else
        socket.end(
          `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
      return;
    }
    open++;
    socket.once('close', () => open--);
  });
}
