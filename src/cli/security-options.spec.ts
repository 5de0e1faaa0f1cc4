import { describe, expect, it } from 'vitest';
import { authorizationFromEnv } from './client.js';
import { operationOf } from './commands/acls.js';
import { mergeQuotas, quotaEntity } from './commands/user-quotas.js';
import { UsageError } from './errors.js';

describe('CLI security options', () => {
  it("reads ACL operations in Kafka's spelling and the API's", () => {
    expect(['Read', 'DescribeConfigs', 'describe-configs', 'ALTER_CONFIGS', 'all'].map(operationOf)).toEqual([
      'READ',
      'DESCRIBE_CONFIGS',
      'DESCRIBE_CONFIGS',
      'ALTER_CONFIGS',
      'ALL',
    ]);
    expect(() => operationOf('Fly')).toThrow(UsageError);
  });

  it('names quota entities as kafka-configs does', () => {
    expect(quotaEntity('alice', false)).toBe('User:alice');
    expect(quotaEntity('User:bob', false)).toBe('User:bob');
    expect(quotaEntity(undefined, true)).toBe('<default>');
    expect(quotaEntity(undefined, false)).toBeUndefined();
    expect(() => quotaEntity('alice', true)).toThrow(UsageError);
  });

  it('merges quota changes into what the entity has', () => {
    const current = { producer_byte_rate: 10, consumer_byte_rate: null, request_rate: 5 };
    expect(mergeQuotas(current, [{ name: 'consumer_byte_rate', value: '20' }], ['request_rate'])).toEqual({
      producer_byte_rate: 10,
      consumer_byte_rate: 20,
      request_rate: null,
    });
    expect(() => mergeQuotas(current, [{ name: 'request_rate', value: '0' }], [])).toThrow(UsageError);
    expect(() => mergeQuotas(current, [], ['bogus'])).toThrow(/unknown quota bogus/);
  });

  it('takes credentials from the environment: an API key first, else Basic', () => {
    expect(authorizationFromEnv({})).toBeUndefined();
    expect(authorizationFromEnv({ BROOK_API_KEY: 'brook_k_x', BROOK_USER: 'a' })).toBe('Bearer brook_k_x');
    expect(authorizationFromEnv({ BROOK_USER: 'alice', BROOK_PASSWORD: 'pw' })).toBe(
      `Basic ${Buffer.from('alice:pw').toString('base64')}`,
    );
    expect(() => authorizationFromEnv({ BROOK_USER: 'a:b' })).toThrow(UsageError);
  });
});
