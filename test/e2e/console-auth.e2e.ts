// Brook Console with authentication and the authorizer on, in a real headless Chromium: the console asks for
// credentials, shows the broker's refusal of wrong ones, and then makes every call with the user's: alice (READ
// and DESCRIBE on topic `a` only) sees `a` and not a topic she may not DESCRIBE, the admin sees both, and the live
// tail (SSE read with fetch, so the Authorization header goes with it) delivers to alice.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext, screenshot } from './support/browser.js';
import { ADMIN, SecuredBroker } from './support/secured-broker.js';

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
});
