import { describe, expect, it } from 'vitest';
import { schemaField, topicSubject } from './schema-lines.js';

describe('schemaField', () => {
  it('sends a JSON line with the schema id, or with the subject for its latest version', () => {
    expect(schemaField('{"name":"x","tags":{"array":[]}}', { schemaId: 7 }, 'value')).toEqual({
      ok: true,
      field: { schema_id: 7, data: { name: 'x', tags: { array: [] } } },
    });
    expect(schemaField('"k1"', { subject: 'orders-key' }, 'key')).toEqual({
      ok: true,
      field: { subject: 'orders-key', data: 'k1' },
    });
    expect(schemaField('null', { schemaId: 1 }, 'value')).toEqual({ ok: true, field: { schema_id: 1, data: null } });
  });

  it('refuses a line that is not JSON, naming the field', () => {
    const result = schemaField('{name: x}', { schemaId: 7 }, 'value');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/^the value is not JSON \(/);
    expect(schemaField('', { schemaId: 7 }, 'key')).toMatchObject({ ok: false });
  });

  it("names subjects by Confluent's topic strategy", () => {
    expect(topicSubject('orders', 'value')).toBe('orders-value');
    expect(topicSubject('orders', 'key')).toBe('orders-key');
  });
});
