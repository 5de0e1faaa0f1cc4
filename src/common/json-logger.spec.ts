import { afterEach, describe, expect, it, vi } from 'vitest';
import { JsonLogger } from './json-logger.js';
import { outsideRequest, runInRequest } from './request-context.js';

describe('JsonLogger', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('adds the request id to lines logged while serving a request, and only then', () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const logger = new JsonLogger('Test', { json: true, logLevels: ['log'] });
    logger.log('outside');
    runInRequest({ requestId: 'r-1' }, () => {
      logger.log('inside');
      outsideRequest(() => logger.log('background'));
    });
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map((line) => [line.message, line.request_id])).toEqual([
      ['outside', undefined],
      ['inside', 'r-1'],
      ['background', undefined],
    ]);
  });
});
