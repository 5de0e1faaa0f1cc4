// ACLs and quotas live in the coordination store: what one broker writes, another broker's cache picks up from the
// watch (here two stores' clients share one embedded store, as brokers share Redis), and it survives a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedCoordinationStore } from '../coordination/embedded-store.js';
import type { AclBinding } from './acl.js';
import { AclStore } from './acl-store.service.js';
import { loadBrokerConfig } from '../config/broker-config.js';
import { Authorizer } from './authorizer.service.js';
import { QuotaManager } from './quota-manager.service.js';

const dir = mkdtempSync(join(tmpdir(), 'brook-shared-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const binding: AclBinding = {
  resource_type: 'TOPIC',
  resource_name: 'orders',
  pattern_type: 'LITERAL',
  principal: 'User:alice',
  host: '*',
  operation: 'READ',
  permission: 'ALLOW',
};

async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(check()).toBe(true);
}

describe('ACLs and quotas in the coordination store', () => {
  it('a change made through one broker reaches the others by the watch, and survives a restart', async () => {
    const store = await EmbeddedCoordinationStore.open(dir);
    const [one, two] = [new AclStore(store), new AclStore(store)];
    const [quotasOne, quotasTwo] = [new QuotaManager(store), new QuotaManager(store)];
    for (const service of [one, two, quotasOne, quotasTwo]) await service.onModuleInit();
    await one.create(binding);
    await one.create(binding); // idempotent
    await quotasOne.put('User:alice', { request_rate: 5 });
    await eventually(() => two.all().length === 1 && quotasTwo.all().get('User:alice')?.request_rate === 5);
    expect(two.all()).toEqual([binding]);
    expect(await two.delete({ principal: 'User:bob' })).toEqual([]);
    expect(await two.delete({ principal: 'User:alice' })).toEqual([binding]);
    await eventually(() => one.all().length === 0);
    await one.create({ ...binding, permission: 'DENY' });
    for (const service of [one, two, quotasOne, quotasTwo]) service.onModuleDestroy();
    await store.close();

    const reopened = await EmbeddedCoordinationStore.open(dir);
    const [acls, quotas] = [new AclStore(reopened), new QuotaManager(reopened)];
    await acls.onModuleInit();
    await quotas.onModuleInit();
    expect(acls.all()).toEqual([{ ...binding, permission: 'DENY' }]);
    expect(quotas.all().get('User:alice')).toEqual({ request_rate: 5 });
    acls.onModuleDestroy();
    quotas.onModuleDestroy();
    await reopened.close();
  });

  it('a change made through another broker reaches its authorizer: the cached decision is dropped, listeners called', async () => {
    const store = await EmbeddedCoordinationStore.open(join(dir, 'authorizer'));
    const [here, there] = [new AclStore(store), new AclStore(store)];
    for (const acls of [here, there]) await acls.onModuleInit();
    const authorizer = new Authorizer(loadBrokerConfig({ BROOK_AUTHORIZER_ENABLE: 'true' }), here);
    let changes = 0;
    authorizer.onChange(() => changes++);
    const read = () => authorizer.authorize('User:alice', '10.0.0.1', 'READ', { type: 'TOPIC', name: 'orders' });
    expect(read()).toBe(false);
    await there.create(binding);
    await eventually(() => read());
    expect(changes).toBeGreaterThanOrEqual(1);
    const seen = changes;
    await there.delete({ principal: 'User:alice' });
    await eventually(() => !read());
    expect(changes).toBeGreaterThan(seen);
    for (const acls of [here, there]) acls.onModuleDestroy();
    await store.close();
  });
});
