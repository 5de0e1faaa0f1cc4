import { describe, expect, it } from 'vitest';
import { subjectName } from './subject-names.js';

describe("Confluent's subject name strategies", () => {
  it('name the subject from the topic, the record name, or both', () => {
    expect(subjectName('TOPIC_NAME', 'orders', false, 'acme.Order')).toBe('orders-value');
    expect(subjectName('TOPIC_NAME', 'orders', true, undefined)).toBe('orders-key');
    expect(subjectName('RECORD_NAME', 'orders', false, 'acme.Order')).toBe('acme.Order');
    expect(subjectName('TOPIC_RECORD_NAME', 'orders', true, 'acme.Order')).toBe('orders-acme.Order');
    expect(subjectName('RECORD_NAME', 'orders', false, undefined)).toBeUndefined();
  });
});
