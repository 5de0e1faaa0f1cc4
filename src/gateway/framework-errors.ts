// Errors Fastify answers itself, before any route, hook or Nest filter runs (a path parameter longer than
// maxParamLength is 414, a URL that is not valid UTF-8 once decoded is 400): Fastify's `frameworkErrors` option
// renders them as Brook's {"error_code", "message"}, so that every error a client sees has one shape.
import type { FastifyReply, FastifyRequest } from 'fastify';

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
