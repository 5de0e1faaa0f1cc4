import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { isEmptyV3Write } from './empty-body.js';
import { StreamingBody } from './json-body-parser.js';

describe('isEmptyV3Write', () => {
  it('is true for a v3 POST, PUT or PATCH without a body', () => {
    for (const method of ['POST', 'PUT', 'PATCH']) {
      for (const body of [undefined, null, '']) {
        expect(isEmptyV3Write({ method, url: '/v3/clusters/c/topics', body })).toBe(true);
      }
    }
  });

  it('is false for bodies, reads, deletes, v2 routes and streaming produce', () => {
    expect(isEmptyV3Write({ method: 'POST', url: '/v3/clusters/c/topics', body: {} })).toBe(false);
    expect(isEmptyV3Write({ method: 'GET', url: '/v3/clusters/c/topics', body: undefined })).toBe(false);
    expect(isEmptyV3Write({ method: 'DELETE', url: '/v3/clusters/c/topics/t', body: undefined })).toBe(false);
    expect(isEmptyV3Write({ method: 'POST', url: '/consumers/g/instances/i/offsets', body: undefined })).toBe(false);
    const streaming = new StreamingBody(new PassThrough());
    expect(isEmptyV3Write({ method: 'POST', url: '/v3/clusters/c/topics/t/records', body: streaming })).toBe(false);
  });
});
