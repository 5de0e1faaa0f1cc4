// Renders every error as Confluent's {"error_code", "message"} with the right status: BrookErrors as they are,
// Fastify's own errors (bad JSON, body too large, unsupported media type, schema validation) by their status,
// Nest's HttpExceptions (unknown route 404, 405), and anything else as 500 without leaking internals. A produce
// whose outcome is unknown (common/brook-error.ts) says so in the Brook-Outcome header.
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { BrookError, OUTCOME_HEADER } from '../common/brook-error.js';

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message: string;
  validation?: unknown;
}

@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, body, retryAfter } = this.render(exception);
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.end();
      return;
    }
    if (retryAfter !== undefined) void reply.header('Retry-After', String(retryAfter));
    if (exception instanceof BrookError && exception.outcome !== undefined) {
      void reply.header(OUTCOME_HEADER, exception.outcome);
    }
    void reply.status(status).header('content-type', 'application/json').send(body);
  }

  private render(exception: unknown): {
    status: number;
    body: { error_code: number; message: string };
    retryAfter?: number;
  } {
    if (exception instanceof BrookError) {
      return {
        status: exception.status,
        body: { error_code: exception.errorCode, message: exception.message },
        retryAfter: exception.retryAfterSeconds,
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
    if (
      typeof fastifyError?.statusCode === 'number' &&
      fastifyError.statusCode >= 400 &&
      fastifyError.statusCode < 500
    ) {
      return {
        status: fastifyError.statusCode,
        body: { error_code: fastifyError.statusCode, message: fastifyError.message },
      };
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return { status: 500, body: { error_code: 500, message: 'Internal server error' } };
  }
}
