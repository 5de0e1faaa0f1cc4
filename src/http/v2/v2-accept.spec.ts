import { describe, expect, it } from 'vitest';
import { acceptsV2Json, negotiatedV2Type } from './v2-accept.js';

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

describe('negotiatedV2Type', () => {
  it('answers the most preferred v2 type the client named, the v2 type for wildcards or no Accept', () => {
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'application/vnd.kafka.v2+json'],
      ['', 'application/vnd.kafka.v2+json'],
      ['*/*', 'application/vnd.kafka.v2+json'],
      ['application/*', 'application/vnd.kafka.v2+json'],
      ['application/vnd.kafka.v2+json', 'application/vnd.kafka.v2+json'],
      ['application/json', 'application/json'],
      ['Application/JSON', 'application/json'],
      ['application/json, application/vnd.kafka.v2+json', 'application/vnd.kafka.v2+json'],
      ['application/json;q=0.5, application/vnd.kafka.binary.v2+json', 'application/vnd.kafka.binary.v2+json'],
      ['application/vnd.kafka.v2+json;q=0.2, application/json;q=0.9', 'application/json'],
      ['text/html, application/vnd.kafka.json.v2+json;q=0.9', 'application/vnd.kafka.json.v2+json'],
      ['application/json;q=0, */*', 'application/vnd.kafka.v2+json'],
    ];
    for (const [accept, type] of cases) expect(negotiatedV2Type(accept), String(accept)).toBe(type);
  });
});
