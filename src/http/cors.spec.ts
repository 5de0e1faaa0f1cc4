import { describe, expect, it } from 'vitest';
import { allowedRequestHeaders, CORS_REQUEST_HEADERS } from './cors.js';

describe('the headers a preflight allows', () => {
  it("are Brook's request headers without a request for more", () => {
    expect(allowedRequestHeaders(undefined)).toEqual([...CORS_REQUEST_HEADERS]);
    expect(allowedRequestHeaders('')).toEqual([...CORS_REQUEST_HEADERS]);
  });

  it('add the Brook-* and X-Brook-* headers asked for, once, and nothing else', () => {
    const allowed = allowedRequestHeaders('x-brook-trace, Brook-Thing,content-type, x-evil, brook-, X-BROOK-TRACE');
    expect(allowed).toEqual([...CORS_REQUEST_HEADERS, 'x-brook-trace', 'Brook-Thing']);
  });
});
