import { describe, expect, it } from 'vitest';
import { brokerError, networkReason, unwrap } from './client.js';
import { BrokerError, EXIT } from './errors.js';

const response = (status: number, statusText = ''): Response => new Response(null, { status, statusText });

describe('unwrap', () => {
  it('returns the data of a successful answer', () => {
    expect(unwrap({ data: { a: 1 }, response: response(200) })).toEqual({ a: 1 });
  });

  it("throws the broker's message and error code, as exit code 1", () => {
    const error = (() => {
      try {
        unwrap({ error: { error_code: 40401, message: 'Topic nope not found.' }, response: response(404) });
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(BrokerError);
    expect(error).toMatchObject({
      message: 'Topic nope not found. (error 40401)',
      status: 404,
      errorCode: 40401,
      exitCode: EXIT.brokerError,
    });
  });
});

describe('brokerError', () => {
  it('falls back to the body text, then to the HTTP status', () => {
    expect(brokerError(response(502), 'Bad gateway from the proxy').message).toBe('Bad gateway from the proxy');
    expect(brokerError(response(503, 'Service Unavailable'), undefined).message).toBe('HTTP 503 Service Unavailable');
  });
});

describe('networkReason', () => {
  const failed = (cause: unknown): Error => new TypeError('fetch failed', { cause });

  it('names the usual connection failures in words', () => {
    expect(networkReason(failed({ code: 'ECONNREFUSED' }))).toBe('connection refused');
    expect(networkReason(failed({ code: 'ENOTFOUND' }))).toBe('unknown host');
  });

  it('keeps an unknown code or message as it is', () => {
    expect(networkReason(failed({ code: 'EWEIRD' }))).toBe('EWEIRD');
    expect(networkReason(failed(new Error('socket hang up')))).toBe('socket hang up');
    expect(networkReason(new Error('plain'))).toBe('plain');
  });
});
