import { describe, expect, it } from 'vitest';
import { decide, filterMatches, isKafkaResourceType, type AclBinding, type AccessRequest } from './acl.js';

const acl = (fields: Partial<AclBinding>): AclBinding => ({
  resource_type: 'TOPIC',
  resource_name: 'orders',
  pattern_type: 'LITERAL',
  principal: 'User:alice',
  host: '*',
  operation: 'READ',
  permission: 'ALLOW',
  ...fields,
});
const request = (fields: Partial<AccessRequest>): AccessRequest => ({
  principal: 'User:alice',
  host: '10.0.0.1',
  operation: 'READ',
  resource: { type: 'TOPIC', name: 'orders' },
  ...fields,
});

describe('ACL decision', () => {
  it('denies without a matching allow', () => {
    expect(decide([], request({}))).toBe(false);
    expect(decide([acl({ principal: 'User:bob' })], request({}))).toBe(false);
    expect(decide([acl({ resource_name: 'other' })], request({}))).toBe(false);
    expect(decide([acl({ resource_type: 'GROUP' })], request({}))).toBe(false);
    expect(decide([acl({ operation: 'WRITE' })], request({}))).toBe(false);
    expect(decide([acl({ host: '10.0.0.2' })], request({}))).toBe(false);
  });

  it('allows on a literal, wildcard, prefixed, User:* or ALL match', () => {
    expect(decide([acl({})], request({}))).toBe(true);
    expect(decide([acl({ resource_name: '*' })], request({}))).toBe(true);
    expect(decide([acl({ resource_name: 'ord', pattern_type: 'PREFIXED' })], request({}))).toBe(true);
    expect(decide([acl({ resource_name: 'ord', pattern_type: 'LITERAL' })], request({}))).toBe(false);
    expect(decide([acl({ principal: 'User:*' })], request({}))).toBe(true);
    expect(decide([acl({ operation: 'ALL' })], request({ operation: 'DELETE' }))).toBe(true);
    expect(decide([acl({ host: '10.0.0.1' })], request({}))).toBe(true);
  });

  it('deny wins over any allow', () => {
    const allows = [acl({ operation: 'ALL' }), acl({ principal: 'User:*' })];
    expect(decide([...allows, acl({ permission: 'DENY' })], request({}))).toBe(false);
    expect(decide([...allows, acl({ permission: 'DENY', operation: 'ALL' })], request({}))).toBe(false);
    expect(decide([...allows, acl({ permission: 'DENY', principal: 'User:*' })], request({}))).toBe(false);
    expect(
      decide([...allows, acl({ permission: 'DENY', resource_name: 'o', pattern_type: 'PREFIXED' })], request({})),
    ).toBe(false);
    // a deny for another operation does not deny this one
    expect(decide([...allows, acl({ permission: 'DENY', operation: 'WRITE' })], request({}))).toBe(true);
  });

  it('implies DESCRIBE from READ, WRITE, DELETE, ALTER and DESCRIBE_CONFIGS from ALTER_CONFIGS, as Kafka', () => {
    for (const operation of ['READ', 'WRITE', 'DELETE', 'ALTER'] as const)
      expect(decide([acl({ operation })], request({ operation: 'DESCRIBE' }))).toBe(true);
    expect(decide([acl({ operation: 'CREATE' })], request({ operation: 'DESCRIBE' }))).toBe(false);
    expect(decide([acl({ operation: 'ALTER_CONFIGS' })], request({ operation: 'DESCRIBE_CONFIGS' }))).toBe(true);
    expect(decide([acl({ operation: 'DESCRIBE' })], request({ operation: 'READ' }))).toBe(false);
    // an implying allow does not override an explicit deny of DESCRIBE
    expect(
      decide([acl({}), acl({ operation: 'DESCRIBE', permission: 'DENY' })], request({ operation: 'DESCRIBE' })),
    ).toBe(false);
  });
});

describe('ACL filters', () => {
  it('filters by fields, ANY and MATCH', () => {
    const prefixed = acl({ resource_name: 'ord', pattern_type: 'PREFIXED' });
    expect(filterMatches({}, prefixed)).toBe(true);
    expect(filterMatches({ resource_type: 'GROUP' }, prefixed)).toBe(false);
    expect(filterMatches({ resource_name: 'orders' }, prefixed)).toBe(false);
    expect(filterMatches({ resource_name: 'orders', pattern_type: 'MATCH' }, prefixed)).toBe(true);
    expect(filterMatches({ resource_name: 'ord', pattern_type: 'ANY', operation: 'ANY' }, prefixed)).toBe(true);
    expect(filterMatches({ principal: 'User:bob' }, prefixed)).toBe(false);
  });

  it("decides on the schema registry's SUBJECT resources, prefixed, apart from topics of the same name", () => {
    const grant = acl({
      resource_type: 'SUBJECT',
      resource_name: 'orders-',
      pattern_type: 'PREFIXED',
      operation: 'WRITE',
    });
    const on = (name: string, operation: AccessRequest['operation']) =>
      decide([grant], request({ operation, resource: { type: 'SUBJECT', name } }));
    expect(on('orders-value', 'WRITE')).toBe(true);
    expect(on('orders-value', 'DESCRIBE')).toBe(true);
    expect(on('orders-value', 'DELETE')).toBe(false);
    expect(on('payments-value', 'WRITE')).toBe(false);
    expect(decide([grant], request({ operation: 'WRITE', resource: { type: 'TOPIC', name: 'orders-value' } }))).toBe(
      false,
    );
  });

  it("knows which resource types Kafka's protocol has", () => {
    expect(['TOPIC', 'GROUP', 'CLUSTER'].every((type) => isKafkaResourceType(type as never))).toBe(true);
    expect(isKafkaResourceType('SUBJECT')).toBe(false);
  });
});
