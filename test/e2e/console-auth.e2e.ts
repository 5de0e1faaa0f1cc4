// Brook Console with authentication and the authorizer on, in a real headless Chromium: the console asks for
// credentials, shows the broker's refusal of wrong ones, and then makes every call with the user's: alice (READ
// and DESCRIBE on topic `a` only) sees `a` and not a topic she may not DESCRIBE, the admin sees both, and the live
// tail (SSE read with fetch, so the Authorization header goes with it) delivers to alice. The admin (a super user,
// so ALTER on the cluster) adds and deletes an ACL on the ACLs page; alice is shown the broker's refusals.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext, screenshot } from './support/browser.js';
import { ADMIN, ALICE, SecuredBroker } from './support/secured-broker.js';

let secured: SecuredBroker;
let browser: Browser;

beforeAll(async () => {
  secured = await SecuredBroker.create();
  await secured.createTopic('hidden-from-alice');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await secured?.stop();
});

async function signIn(page: Page, user: string, password: string): Promise<void> {
  await page.goto(`${secured.url}/console/#/topics`);
  await page.locator('input[autocomplete="username"]').fill(user);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the console with authentication on', () => {
  it('asks for credentials and shows the broker refusing wrong ones', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${secured.url}/console/`);
    await page.getByRole('heading', { name: 'Sign in to Brook' }).waitFor();
    await expectAccessible(page, 'login');
    await screenshot(page, 'login');
    await signIn(page, 'alice', 'not-her-password');
    const refusal = await secured.as(
      { authorization: `Basic ${Buffer.from('alice:not-her-password').toString('base64')}` },
      'GET',
      '/v3/clusters',
    );
    expect(refusal.status).toBe(401);
    await expect.poll(() => page.getByTestId('error').textContent()).toContain(refusal.body.message);
    await page.context().close();
  });

  it('shows alice only the topics she may DESCRIBE, and the admin every topic', async () => {
    const alice = await (await newContext(browser)).newPage();
    await signIn(alice, 'alice', 'alice-secret');
    await alice.getByTestId('topic-row-a').waitFor();
    expect(await alice.getByTestId('topic-row-hidden-from-alice').count()).toBe(0);
    await alice.getByText('alice', { exact: true }).waitFor();
    await alice.context().close();

    const admin = await (await newContext(browser)).newPage();
    await signIn(admin, 'admin', 'admin-secret');
    await admin.getByTestId('topic-row-hidden-from-alice').waitFor();
    await admin.getByTestId('topic-row-a').waitFor();
    await admin.context().close();
  });

  it("streams the live tail with alice's credentials", async () => {
    const page = await (await newContext(browser)).newPage();
    await signIn(page, 'alice', 'alice-secret');
    await page.getByTestId('topic-row-a').waitFor();
    await page.goto(`${secured.url}/console/#/topics/a/tail`);
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByText('live', { exact: true }).waitFor();
    const streams = async () =>
      (await secured.as(ADMIN, 'GET', '/metrics')).text.match(/^brook_sse_streams (\d+)/m)?.[1];
    await expect.poll(streams, { timeout: 10_000 }).toBe('1');
    await secured.produce('a', ['for alice']);
    await page.getByTestId('tail-record').filter({ hasText: 'for alice' }).waitFor({ timeout: 10_000 });
    await page.context().close();
  });

  it('lets the admin add and delete an ACL, light and dark, and shows alice the broker refusing both', async () => {
    const carolAcl = (acls: Array<Record<string, string>>) =>
      acls.filter((acl) => acl.principal === 'User:carol' && acl.resource_name === 'orders-');
    const page = await (await newContext(browser)).newPage();
    await signIn(page, 'admin', 'admin-secret');
    await page.getByTestId('topic-row-a').waitFor();
    await page.goto(`${secured.url}/console/#/acls`);
    await page.getByTestId('acl').filter({ hasText: 'User:alice' }).first().waitFor();
    await page.getByRole('textbox', { name: 'Principal', exact: true }).fill('User:carol');
    await page.getByLabel('Resource name').fill('orders-');
    await page.getByRole('combobox', { name: 'Pattern' }).click();
    await page.getByRole('option', { name: 'PREFIXED' }).click();
    await page.getByRole('combobox', { name: 'Operation' }).click();
    await page.getByRole('option', { name: 'WRITE', exact: true }).click();
    await page.getByRole('button', { name: 'Add ACL' }).click();
    const row = page.getByTestId('acl').filter({ hasText: 'User:carol' });
    await row.waitFor();
    const listed = await secured.as(ADMIN, 'GET', `/v3/clusters/{c}/acls`);
    expect(carolAcl(listed.body.data)).toMatchObject([
      { resource_type: 'TOPIC', pattern_type: 'PREFIXED', operation: 'WRITE', permission: 'ALLOW', host: '*' },
    ]);
    await expectAccessible(page, 'acls');
    await screenshot(page, 'acls');
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await page.getByRole('button', { name: 'Light theme' }).waitFor();
    await expectAccessible(page, 'acls, dark');
    await screenshot(page, 'acls-dark');
    await row.getByRole('button', { name: /^Delete/ }).click();
    await row.waitFor({ state: 'detached' });
    expect(carolAcl((await secured.as(ADMIN, 'GET', `/v3/clusters/{c}/acls`)).body.data)).toEqual([]);
    await page.context().close();

    const alice = await (await newContext(browser)).newPage();
    await signIn(alice, 'alice', 'alice-secret');
    await alice.getByTestId('topic-row-a').waitFor();
    await alice.goto(`${secured.url}/console/#/acls`);
    const listRefused = await secured.as(ALICE, 'GET', `/v3/clusters/{c}/acls`);
    expect(listRefused.status).toBe(403);
    await expect.poll(() => alice.getByTestId('error').first().textContent()).toContain(listRefused.body.message);
    await alice.getByRole('textbox', { name: 'Principal', exact: true }).fill('User:alice');
    await alice.getByLabel('Resource name').fill('everything');
    await alice.getByRole('button', { name: 'Add ACL' }).click();
    const addRefused = await secured.as(ALICE, 'POST', `/v3/clusters/{c}/acls`, {
      body: {
        principal: 'User:alice',
        resource_type: 'TOPIC',
        resource_name: 'everything',
        operation: 'READ',
        permission: 'ALLOW',
      },
    });
    expect(addRefused.status).toBe(403);
    await expect.poll(() => alice.getByTestId('error').last().textContent()).toContain(addRefused.body.message);
    expect(
      (await secured.as(ADMIN, 'GET', `/v3/clusters/{c}/acls`)).body.data.map(
        (acl: { resource_name: string }) => acl.resource_name,
      ),
    ).not.toContain('everything');
    await expectAccessible(alice, 'acls refused');
    await screenshot(alice, 'acls-refused');
    await alice.context().close();
  });
});
