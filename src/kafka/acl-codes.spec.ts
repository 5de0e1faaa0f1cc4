import { describe, expect, it } from 'vitest';
import { filterMatches, type AclBinding, type AclFilter } from '../security/acl.js';
import { bindingFromWire, bindingToWire, filterFromWire, kafkaTypedFilters, type WireFilter } from './acl-codes.js';

const wire = {
  resourceType: 2,
  resourceName: 'orders',
  patternType: 4,
  principal: 'User:alice',
  host: '*',
  operation: 4,
  permissionType: 3,
};
const anyFilter: WireFilter = {
  resourceTypeFilter: 1,
  resourceNameFilter: null,
  patternTypeFilter: 1,
  principalFilter: null,
  hostFilter: null,
  operation: 1,
  permissionType: 1,
};

describe("Kafka's ACL codes", () => {
  it('reads a creation as a binding and writes it back in the same codes', () => {
    const checked = bindingFromWire(wire);
    expect(checked).toEqual({
      ok: true,
      value: {
        resource_type: 'TOPIC',
        resource_name: 'orders',
        pattern_type: 'PREFIXED',
        principal: 'User:alice',
        host: '*',
        operation: 'WRITE',
        permission: 'ALLOW',
      },
    });
    expect(bindingToWire((checked as { value: AclBinding }).value)).toEqual(wire);
  });

  it.each([
    [{ resourceType: 5 }, /TRANSACTIONAL_ID/],
    [{ resourceType: 1 }, /resource type code 1/],
    [{ patternType: 2 }, /LITERAL \(3\) or PREFIXED/],
    [{ operation: 12 }, /IDEMPOTENT_WRITE/],
    [{ operation: 1 }, /operation code 1/],
    [{ permissionType: 1 }, /DENY \(2\) or ALLOW/],
    [{ principal: 'alice' }, /User:<name>/],
    [{ resourceName: '' }, /1 to 255/],
    [{ resourceType: 4, resourceName: 'other' }, /kafka-cluster/],
    [{ host: '' }, /host/],
  ])('refuses the creation %o', (change, reason) => {
    const checked = bindingFromWire({ ...wire, ...change });
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.reason).toMatch(reason);
  });

  it('reads ANY and MATCH filters, and null strings as matching anything', () => {
    expect(filterFromWire(anyFilter)).toEqual({
      ok: true,
      value: {
        resource_type: 'ANY',
        resource_name: undefined,
        pattern_type: 'ANY',
        principal: undefined,
        host: undefined,
        operation: 'ANY',
        permission: 'ANY',
      },
    });
    const match = filterFromWire({
      ...anyFilter,
      resourceTypeFilter: 2,
      patternTypeFilter: 2,
      resourceNameFilter: 'orders-eu',
    });
    expect(match.ok && match.value).toMatchObject({
      resource_type: 'TOPIC',
      pattern_type: 'MATCH',
      resource_name: 'orders-eu',
    });
    const prefixed = (bindingFromWire(wire) as { value: AclBinding }).value;
    expect(filterMatches((match as { value: AclFilter }).value, prefixed)).toBe(true);
  });

  it('matches nothing for a type or operation Brook never stores, and refuses UNKNOWN codes', () => {
    expect(filterFromWire({ ...anyFilter, resourceTypeFilter: 7 })).toEqual({ ok: true, value: null });
    expect(filterFromWire({ ...anyFilter, operation: 9 })).toEqual({ ok: true, value: null });
    for (const change of [
      { resourceTypeFilter: 0 },
      { operation: 0 },
      { permissionType: 0 },
      { patternTypeFilter: 0 },
    ]) {
      expect(filterFromWire({ ...anyFilter, ...change }).ok).toBe(false);
    }
  });

  it('splits an ANY type into the types Kafka can name, never SUBJECT', () => {
    const filter = (filterFromWire(anyFilter) as { value: AclFilter }).value;
    expect(kafkaTypedFilters(filter).map((typed) => typed.resource_type)).toEqual(['TOPIC', 'GROUP', 'CLUSTER']);
    expect(kafkaTypedFilters({ resource_type: 'GROUP' })).toEqual([{ resource_type: 'GROUP' }]);
  });

  it('has no Kafka form for a SUBJECT binding', () => {
    expect(
      bindingToWire({ ...(bindingFromWire(wire) as { value: AclBinding }).value, resource_type: 'SUBJECT' }),
    ).toBeNull();
  });
});
