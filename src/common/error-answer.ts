// What an HTTP error answer says, whoever writes it: Confluent's {"error_code", "message"} with the right status.
// BrookErrors as they are, Fastify's own errors (bad JSON, body too large, unsupported media type, schema
// validation) by their status, Nest's HttpExceptions (unknown route 404, 405), and anything else as 500 without
// leaking internals (logged here). The Nest error filter (http/error.filter.ts) and the follower fetch's own route
// (internal/replica-fetch-route.ts) both answer with it.
import { HttpException, Logger } from '@nestjs/common';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { BrookError, OUTCOME_HEADER } from './brook-error.js';

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message: string;
  validation?: unknown;
}

export interface ErrorAnswer {
  status: number;
  body: { error_code: number; message: string };
  retryAfter?: number;
  /** A produce whose outcome is unknown (common/brook-error.ts): the Brook-Outcome header's value. */
  outcome?: string;
}

const logger = new Logger('HTTP');

export function errorAnswer(exception: unknown): ErrorAnswer {
  if (exception instanceof BrookError) {
    return {
      status: exception.status,
      body: { error_code: exception.errorCode, message: exception.message },
      retryAfter: exception.retryAfterSeconds,
      outcome: exception.outcome,
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    const message =
      typeof response === 'string'
        ? response
        : ((response as { message?: string | string[] }).message ?? exception.message);
    return { status, body: { error_code: status, message: Array.isArray(message) ? message.join('; ') : message } };
  }
  const fastifyError = exception as FastifyLikeError;
  if (fastifyError?.validation !== undefined) {
    return { status: 422, body: { error_code: 42206, message: fastifyError.message } };
  }
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return {
      status: fastifyError.statusCode,
      body: { error_code: fastifyError.statusCode, message: fastifyError.message },
    };
  }
  logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
  return { status: 500, body: { error_code: 500, message: 'Internal server error' } };
}

/**
 * Writes the answer to `error` as the error filter has Fastify write it (http/error.filter.ts), for the routes in
 * front of Fastify: the `headers` Fastify's reply would hold by then (the X-Request-Id first), then Retry-After and
 * Brook-Outcome when the error has them, `contentType` (what the route's answers are labelled with once Fastify's
 * hooks ran) and the JSON body. Returns the error_code for the route's metrics, or null when the head was already
 * sent (the answer is then only ended).
 */
export function writeErrorAnswer(
  response: ServerResponse,
  headers: OutgoingHttpHeaders,
  error: unknown,
  contentType: string,
): number | null {
  const { status, body, retryAfter, outcome } = errorAnswer(error);
  if (response.headersSent) {
    response.end();
    return null;
  }
  const text = JSON.stringify(body);
  const answerHeaders: OutgoingHttpHeaders = { ...headers };
  if (retryAfter !== undefined) answerHeaders['retry-after'] = String(retryAfter);
  if (outcome !== undefined) answerHeaders[OUTCOME_HEADER] = outcome;
  answerHeaders['content-type'] = contentType;
  answerHeaders['content-length'] = String(Buffer.byteLength(text));
  response.writeHead(status, answerHeaders);
  response.end(text);
  return body.error_code;
}
