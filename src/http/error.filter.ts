// Renders every error as Confluent's {"error_code", "message"} with the right status (common/error-answer.ts says
// how each kind of error is answered). A produce whose outcome is unknown (common/brook-error.ts) says so in the
// Brook-Outcome header.
import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { OUTCOME_HEADER } from '../common/brook-error.js';
import { errorAnswer } from '../common/error-answer.js';

@Catch()
export class ErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, body, retryAfter, outcome } = errorAnswer(exception);
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.end();
      return;
    }
    if (retryAfter !== undefined) void reply.header('Retry-After', String(retryAfter));
    if (outcome !== undefined) void reply.header(OUTCOME_HEADER, outcome);
    void reply.status(status).header('content-type', 'application/json').send(body);
  }
}
