import { describe, expect, it } from 'vitest';
import { acceptsV2Json } from './v2-accept.js';

describe('acceptsV2Json', () => {
  it('admits the v2 media types, JSON and wildcards, and a missing header', () => {
    for (const accept of [
      undefined,
      '',
      '*/*',
      'application/*',
      'application/json',
      'application/vnd.kafka.v2+json',
      'application/vnd.kafka.binary.v2+json, application/json;q=0.5',
      'text/html, application/vnd.kafka.json.v2+json;q=0.9',
      'Application/JSON',
      'application/vnd.kafka.avro.v2+json',
      'application/vnd.kafka.jsonschema.v2+json',
      'application/vnd.kafka.protobuf.v2+json',
    ]) {
      expect(acceptsV2Json(accept), String(accept)).toBe(true);
    }
  });

  it('refuses types the v2 routes cannot answer, and ranges with q=0', () => {
    for (const accept of [
      'text/html',
      'application/xml',
      'application/vnd.kafka.xml.v2+json',
      'application/json;q=0',
      '*/*;q=0.000',
    ]) {
      expect(acceptsV2Json(accept), accept).toBe(false);
    }
  });
});
