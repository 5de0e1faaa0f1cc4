// BROOK_LOG_FORMAT=json: Nest's JSON console logger, plus the id of the request a line is logged for (as
// `request_id`, the audit log's name) when it is written while serving one (request-context.ts).
import { ConsoleLogger } from '@nestjs/common';
import { currentRequestId } from './request-context.js';

export class JsonLogger extends ConsoleLogger {
  protected override getJsonLogObject(
    message: unknown,
    options: Parameters<ConsoleLogger['getJsonLogObject']>[1],
  ): ReturnType<ConsoleLogger['getJsonLogObject']> {
    const line = super.getJsonLogObject(message, options);
    const requestId = currentRequestId();
    return requestId === undefined ? line : { ...line, request_id: requestId };
  }
}
