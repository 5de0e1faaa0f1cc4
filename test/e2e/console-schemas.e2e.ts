// Brook Console's schema and Kafka views in a real headless Chromium against a real broker: the registry's
// subjects, versions and schema text; Avro records (Confluent's wire format, produced through REST v3) shown
// decoded by the broker in the message browser and the live tail; and a group of Kafka clients (kafkajs over the
// Kafka listener) with its protocol and members as the API reports them. axe-core on each page, light and dark.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { expectAccessible, launchBrowser, newContext, screenshot } from './support/browser.js';
import { call } from './support/http.js';
import { GROUP_ENV, kafkaClient, RecordingMember } from './support/kafka-groups.js';

const PAYMENT_V1 = JSON.stringify({
  type: 'record',
  name: 'Payment',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'cents', type: 'long' },
  ],
});
const PAYMENT_V2 = JSON.stringify({
  type: 'record',
  name: 'Payment',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'cents', type: 'long' },
    { name: 'memo', type: ['null', 'string'], default: null },
  ],
});

let broker: BrokerProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cid = '';

beforeAll(async () => {
  broker = await BrokerProcess.start({ env: GROUP_ENV });
  cid = await broker.clusterId();
  const created = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics`, {
    body: { topic_name: 'payments', partitions_count: 1 },
  });
  expect(created.status, created.text).toBe(201);
  browser = await launchBrowser();
  context = await newContext(browser);
  page = await context.newPage();
}, 30_000);
afterAll(async () => {
  await browser?.close();
  await broker?.stop();
});

async function produceAvro(schema: string, data: unknown) {
  const answer = await call(broker.url, 'POST', `/v3/clusters/${cid}/topics/payments/records`, {
    body: { partition_id: 0, value: { type: 'AVRO', schema, data } },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as { offset: number; value: { schema_id: number } };
}

describe('the schema and Kafka views', () => {
  it('shows the subjects, their versions and schema text from the registry', async () => {
    await produceAvro(PAYMENT_V1, { id: 'p-1', cents: 1250 });
    const second = await produceAvro(PAYMENT_V2, { id: 'p-2', cents: 99, memo: { string: 'tip' } });
    const versions = await call(broker.url, 'GET', '/subjects/payments-value/versions');
    expect(versions.body).toEqual([1, 2]);
    const v1 = (await call(broker.url, 'GET', '/subjects/payments-value/versions/1')).body;

    await page.goto(`${broker.url}/console/#/schemas`);
    await page.getByTestId('subject-payments-value').click();
    await expect.poll(() => page.getByTestId('schema-version').textContent()).toBe('Version 2');
    expect(await page.getByTestId('schema-id').textContent()).toBe(`Id ${second.value.schema_id}`);
    expect(await page.getByTestId('schema-text').textContent()).toContain('"memo"');
    await page.getByRole('group', { name: 'Versions' }).getByRole('link', { name: '1', exact: true }).click();
    await expect.poll(() => page.getByTestId('schema-id').textContent()).toBe(`Id ${v1.id}`);
    expect(await page.getByTestId('schema-type').textContent()).toBe('AVRO');
    const text = (await page.getByTestId('schema-text').textContent()) ?? '';
    expect(JSON.parse(text)).toEqual(JSON.parse(v1.schema));
    await expectAccessible(page, 'schemas');
    await screenshot(page, 'schemas');
  });

  it('shows Avro records decoded by the broker in the message browser and the live tail', async () => {
    await page.goto(`${broker.url}/console/#/topics/payments/messages`);
    await page.getByTestId('record').first().waitFor();
    // raw bytes (Confluent's wire format): no schema, and not the decoded document
    expect(await page.getByTestId('record-schema-id').count()).toBe(0);
    expect(await page.getByTestId('record').first().getByTestId('record-value').textContent()).not.toContain('"p-1"');
    await page.getByRole('combobox', { name: 'Decode as' }).click();
    await page.getByRole('option', { name: 'Avro' }).click();
    await page.getByRole('button', { name: 'Load' }).click();
    const decoded = page.getByTestId('record').filter({ hasText: '"p-2"' });
    await decoded.waitFor();
    const read = await call(
      broker.url,
      'GET',
      `/v3/clusters/${cid}/topics/payments/partitions/0/records?from=earliest&format=avro`,
    );
    const expected = read.body.records[1];
    expect(JSON.parse((await decoded.getByTestId('record-value').textContent())!)).toEqual(expected.value);
    expect(await decoded.getByTestId('record-schema-id').textContent()).toBe(
      `value schema ${expected.value_schema_id}`,
    );
    await expectAccessible(page, 'message browser, Avro');
    await screenshot(page, 'message-browser-avro');

    await page.goto(`${broker.url}/console/#/topics/payments/tail`);
    await page.getByRole('combobox', { name: 'Decode values as' }).click();
    await page.getByRole('option', { name: 'Avro' }).click();
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByText('live', { exact: true }).waitFor();
    const streams = async () =>
      (await (await fetch(`${broker.url}/metrics`)).text()).match(/^brook_sse_streams (\d+)/m)?.[1];
    await expect.poll(streams, { timeout: 10_000 }).toBe('1');
    const live = await produceAvro(PAYMENT_V2, { id: 'p-live', cents: 7, memo: null });
    const row = page.getByTestId('tail-record').filter({ hasText: `0:${live.offset}` });
    await row.waitFor({ timeout: 10_000 });
    expect(await row.textContent()).toContain('{"id":"p-live","cents":7,"memo":null}');
    await page.getByRole('button', { name: 'Stop' }).click();
  });

  it("shows a Kafka clients' group with its protocol and members as the API reports them, light and dark", async () => {
    const member = await RecordingMember.start(
      kafkaClient(broker.kafkaBootstrap, 'console-kafka-reader'),
      'kafka-readers',
      'payments',
    );
    try {
      const path = `/v3/clusters/${cid}/consumer-groups/kafka-readers`;
      let group: { state: string; partition_assignor: string } = { state: '', partition_assignor: '' };
      await expect
        .poll(
          async () => {
            group = (await call(broker.url, 'GET', path)).body;
            return group.state;
          },
          { timeout: 20_000 },
        )
        .toBe('STABLE');
      const consumers = (await call(broker.url, 'GET', `${path}/consumers`)).body.data;
      expect(consumers).toHaveLength(1);
      await page.goto(`${broker.url}/console/#/groups/kafka-readers`);
      await expect.poll(() => page.getByTestId('group-state').textContent()).toBe('STABLE');
      expect(await page.getByTestId('group-assignor').textContent()).toBe(group.partition_assignor);
      const row = page.getByTestId('member');
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain(consumers[0].consumer_id);
      expect(await row.textContent()).toContain('console-kafka-reader');
      await expect.poll(() => row.textContent()).toContain('payments:0');
      await expectAccessible(page, 'Kafka consumer group');
      await screenshot(page, 'consumer-group-kafka');
      await page.getByRole('button', { name: 'Dark theme' }).click();
      await page.getByRole('button', { name: 'Light theme' }).waitFor();
      await expectAccessible(page, 'Kafka consumer group, dark');
      await page.goto(`${broker.url}/console/#/schemas/payments-value`);
      await page.getByTestId('schema-text').waitFor();
      await expectAccessible(page, 'schemas, dark');
      await screenshot(page, 'schemas-dark');
    } finally {
      await member.stop();
    }
  }, 40_000);
});
