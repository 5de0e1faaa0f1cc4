// Broker configs (v3 `broker-configs` and `brokers/{id}/configs`, Kafka's DescribeConfigs/AlterConfigs for BROKER
// resources) against broker processes, each REST answer validated against openapi.yaml: sources as Kafka names
// them, Confluent's errors for read-only and unknown names, and dynamic changes taking effect at run time without
// a restart: num.partitions for a topic created without a count, message.max.bytes and log.retention.ms for topics
// without an override. In a 2-broker cluster on a real redis-server, a change made through broker 1 is seen by
// broker 2 and acted on there.
import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerForSuite } from './support/broker-process.js';
import { brook } from './support/brook-cli.js';
import { postRetrying503, TestCluster, waitUntil } from './support/cluster.js';
import { call, expectError } from './support/http.js';
import { KafkaWire } from './support/kafka-wire.js';

const C = '/v3/clusters/{cluster_id}';
const BIG_VALUE = 'x'.repeat(3_000);

async function createTopic(url: string, clusterId: string, name: string, configs: Record<string, string> = {}) {
  const created = await postRetrying503(url, `/v3/clusters/${clusterId}/topics`, {
    topic_name: name,
    configs: Object.entries(configs).map(([key, value]) => ({ name: key, value })),
  });
  expect(created.status, created.text).toBe(201);
  return created.body as { partitions_count: number };
}

function produceBig(url: string, clusterId: string, topic: string) {
  return call(url, 'POST', `/v3/clusters/${clusterId}/topics/${topic}/records`, {
    body: { value: { type: 'STRING', data: BIG_VALUE } },
  });
}

describe('broker configs on one broker', () => {
  const suite = brokerForSuite({ env: { BROOK_NUM_PARTITIONS: '2' } });
  const c = (path: string) => `/v3/clusters/${suite.clusterId}${path}`;

  it("lists a broker's configs with their sources, and no cluster-wide ones at first", async () => {
    const defaults = await call(suite.url, 'GET', c('/broker-configs'), { spec: `${C}/broker-configs` });
    expect(defaults.status, defaults.text).toBe(200);
    expect(defaults.body).toMatchObject({ kind: 'KafkaClusterConfigList', data: [] });

    const configs = await call(suite.url, 'GET', c('/brokers/0/configs'), { spec: `${C}/brokers/{broker_id}/configs` });
    expect(configs.status, configs.text).toBe(200);
    expect(configs.body.kind).toBe('KafkaBrokerConfigList');
    const byName = new Map(configs.body.data.map((entry: { name: string }) => [entry.name, entry]));
    expect(byName.get('num.partitions')).toMatchObject({
      kind: 'KafkaBrokerConfig',
      broker_id: 0,
      value: '2',
      source: 'STATIC_BROKER_CONFIG',
      is_read_only: false,
      is_default: false,
    });
    expect(byName.get('broker.id')).toMatchObject({ value: '0', is_read_only: true });
    expect(byName.get('log.retention.hours')).toMatchObject({
      value: '168',
      source: 'DEFAULT_CONFIG',
      is_default: true,
    });

    const all = await call(suite.url, 'GET', c('/brokers/-/configs'), { spec: `${C}/brokers/-/configs` });
    expect(all.status, all.text).toBe(200);
    expect(all.body.data).toEqual(configs.body.data);
  });

  it('refuses read-only and unknown configs and invalid values with 40002, unknown brokers with 404', async () => {
    const put = (path: string, value: string) => call(suite.url, 'PUT', c(path), { body: { value } });
    expectError(await put('/broker-configs/broker.id', '5'), 400, 40002, /Cannot update these configs dynamically/);
    expectError(await put('/brokers/0/configs/no.such.config', '5'), 400, 40002, /Unknown broker config/);
    expectError(await put('/broker-configs/num.partitions', 'many'), 400, 40002);
    const batch = await call(suite.url, 'POST', c('/broker-configs:alter'), {
      body: {
        data: [
          { name: 'num.partitions', value: '9' },
          { name: 'log.dirs', value: '/elsewhere' },
        ],
      },
      spec: `${C}/broker-configs:alter`,
    });
    expectError(batch, 400, 40002, /log.dirs/);
    expectError(await call(suite.url, 'GET', c('/broker-configs/num.partitions')), 404, 404);
    expectError(await call(suite.url, 'GET', c('/brokers/0/configs/no.such.config')), 404, 404);
    expectError(await call(suite.url, 'GET', c('/brokers/9/configs')), 404, 404);
    expectError(await call(suite.url, 'DELETE', c('/broker-configs/no.such.config')), 404, 404);
    const listed = await call(suite.url, 'GET', c('/brokers/0/configs/num.partitions'));
    expect(listed.body.value).toBe('2');
  });

  it('applies a cluster-wide num.partitions to topics created without a count', async () => {
    expect((await createTopic(suite.url, suite.clusterId, 'before')).partitions_count).toBe(2);
    const set = await call(suite.url, 'PUT', c('/broker-configs/num.partitions'), {
      body: { value: '4' },
      spec: `${C}/broker-configs/{name}`,
    });
    expect(set.status, set.text).toBe(204);
    const got = await call(suite.url, 'GET', c('/broker-configs/num.partitions'), {
      spec: `${C}/broker-configs/{name}`,
    });
    expect(got.body).toMatchObject({
      kind: 'KafkaClusterConfig',
      config_type: 'BROKER',
      value: '4',
      source: 'DYNAMIC_DEFAULT_BROKER_CONFIG',
    });
    expect((await createTopic(suite.url, suite.clusterId, 'after')).partitions_count).toBe(4);

    const own = await call(suite.url, 'POST', c('/brokers/0/configs:alter'), {
      body: { data: [{ name: 'num.partitions', value: '3' }] },
      spec: `${C}/brokers/{broker_id}/configs:alter`,
    });
    expect(own.status, own.text).toBe(204);
    const mine = await call(suite.url, 'GET', c('/brokers/0/configs/num.partitions'), {
      spec: `${C}/brokers/{broker_id}/configs/{name}`,
    });
    expect(mine.body).toMatchObject({ value: '3', source: 'DYNAMIC_BROKER_CONFIG' });
    expect(mine.body.synonyms.map((s: { source: string }) => s.source)).toEqual([
      'DYNAMIC_BROKER_CONFIG',
      'DYNAMIC_DEFAULT_BROKER_CONFIG',
      'STATIC_BROKER_CONFIG',
      'DEFAULT_CONFIG',
    ]);
    expect((await createTopic(suite.url, suite.clusterId, 'own')).partitions_count).toBe(3);
    const reset = await call(suite.url, 'DELETE', c('/brokers/0/configs/num.partitions'), {
      spec: `${C}/brokers/{broker_id}/configs/{name}`,
    });
    expect(reset.status, reset.text).toBe(204);
    expect((await createTopic(suite.url, suite.clusterId, 'reset')).partitions_count).toBe(4);
  });

  it('applies message.max.bytes and log.retention.ms to the topics without an override', async () => {
    await createTopic(suite.url, suite.clusterId, 'plain');
    await createTopic(suite.url, suite.clusterId, 'roomy', { 'max.message.bytes': '100000', 'retention.ms': '1234' });
    expect((await produceBig(suite.url, suite.clusterId, 'plain')).status).toBe(200);

    const set = await call(suite.url, 'POST', c('/broker-configs:alter'), {
      body: {
        data: [
          { name: 'message.max.bytes', value: '1000' },
          { name: 'log.retention.ms', value: '5000' },
        ],
      },
    });
    expect(set.status, set.text).toBe(204);
    expect((await produceBig(suite.url, suite.clusterId, 'plain')).status).toBe(413);
    expect((await produceBig(suite.url, suite.clusterId, 'roomy')).status).toBe(200);
    const retention = await call(suite.url, 'GET', c('/topics/plain/configs/retention.ms'), {
      spec: `${C}/topics/{topic_name}/configs/{name}`,
    });
    expect(retention.body).toMatchObject({ value: '5000', source: 'DYNAMIC_DEFAULT_BROKER_CONFIG' });
    const overridden = await call(suite.url, 'GET', c('/topics/roomy/configs/retention.ms'));
    expect(overridden.body).toMatchObject({ value: '1234', source: 'DYNAMIC_TOPIC_CONFIG' });

    const reset = await call(suite.url, 'DELETE', c('/broker-configs/message.max.bytes'), {
      spec: `${C}/broker-configs/{name}`,
    });
    expect(reset.status, reset.text).toBe(204);
    expect((await produceBig(suite.url, suite.clusterId, 'plain')).status).toBe(200);
  });

  it("answers kafkajs' describeConfigs and alterConfigs of BROKER resources with the same configs", async () => {
    const kafka = new Kafka({
      clientId: 'e2e-broker-configs',
      brokers: [suite.broker.kafkaBootstrap],
      logLevel: logLevel.NOTHING,
    });
    const admin = kafka.admin();
    await admin.connect();
    try {
      const described = await admin.describeConfigs({
        resources: [{ type: ConfigResourceTypes.BROKER, name: '0', configNames: ['num.partitions', 'broker.id'] }],
        includeSynonyms: false,
      });
      expect(described.resources[0].errorCode).toBe(0);
      const entries = described.resources[0].configEntries;
      const rest = await call(suite.url, 'GET', c('/brokers/0/configs/num.partitions'));
      expect(entries.find((entry) => entry.configName === 'num.partitions')).toMatchObject({
        configValue: rest.body.value,
        readOnly: false,
        isDefault: false,
      });
      expect(entries.find((entry) => entry.configName === 'broker.id')).toMatchObject({
        configValue: '0',
        readOnly: true,
      });

      // kafkajs refuses an empty resource name itself: the cluster default goes over a bare connection
      const wire = await KafkaWire.open(suite.broker.kafkaPort);
      try {
        const altered = await wire.call('IncrementalAlterConfigs', 0, {
          resources: [
            {
              resourceType: ConfigResourceTypes.BROKER,
              resourceName: '',
              configs: [{ name: 'default.replication.factor', configOperation: 0, value: '1' }],
            },
          ],
          validateOnly: false,
        });
        expect(altered.responses[0]).toMatchObject({ errorCode: 0, resourceName: '' });
        const cluster = await wire.call('DescribeConfigs', 1, {
          resources: [{ resourceType: ConfigResourceTypes.BROKER, resourceName: '', configurationKeys: null }],
          includeSynonyms: false,
        });
        const rest = await call(suite.url, 'GET', c('/broker-configs'));
        expect(cluster.results[0].configs.map((entry) => [entry.name, entry.value])).toEqual(
          rest.body.data.map((entry: { name: string; value: string }) => [entry.name, entry.value]),
        );
        expect(cluster.results[0].configs).toContainEqual(
          expect.objectContaining({ name: 'default.replication.factor', value: '1', configSource: 3 }),
        );
      } finally {
        wire.close();
      }

      await admin.alterConfigs({
        validateOnly: false,
        resources: [
          { type: ConfigResourceTypes.BROKER, name: '0', configEntries: [{ name: 'num.partitions', value: '5' }] },
        ],
      });
      const mine = await call(suite.url, 'GET', c('/brokers/0/configs/num.partitions'));
      expect(mine.body).toMatchObject({ value: '5', source: 'DYNAMIC_BROKER_CONFIG' });
      expect((await createTopic(suite.url, suite.clusterId, 'by-kafkajs')).partitions_count).toBe(5);
      await expect(
        admin.alterConfigs({
          validateOnly: false,
          resources: [
            { type: ConfigResourceTypes.BROKER, name: '0', configEntries: [{ name: 'broker.id', value: '3' }] },
          ],
        }),
      ).rejects.toMatchObject({ type: 'INVALID_REQUEST' });
    } finally {
      await admin.disconnect();
    }
  });
  it('alters and describes them with brook configs --entity-type brokers, as kafka-configs prints them', async () => {
    const run = (args: string[]) => brook([...args, '--bootstrap-server', `127.0.0.1:${suite.broker.port}`]);
    const cluster = await run([
      'configs',
      '--entity-type',
      'brokers',
      '--entity-default',
      '--alter',
      '--add-config',
      'log.retention.ms=60000',
    ]);
    expect(cluster.stdout, cluster.stderr).toBe('Completed updating config for default broker.\n');
    const own = await run([
      'configs',
      '--entity-type',
      'brokers',
      '--entity-name',
      '0',
      '--alter',
      '--add-config',
      'message.max.bytes=2000000',
    ]);
    expect(own.stdout, own.stderr).toBe('Completed updating config for broker 0.\n');
    const defaults = await run(['configs', '--entity-type', 'brokers', '--entity-default', '--describe']);
    expect(defaults.stdout).toMatch(/^Default configs for brokers in the cluster are:\n/);
    expect(defaults.stdout).toContain(
      '  log.retention.ms=60000 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:log.retention.ms=60000}\n',
    );
    const broker = await run(['configs', '--entity-type', 'brokers', '--entity-name', '0', '--describe']);
    expect(broker.stdout).toMatch(/^Dynamic configs for broker 0 are:\n/);
    expect(broker.stdout).toContain(
      '  message.max.bytes=2000000 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:message.max.bytes=2000000, DEFAULT_CONFIG:message.max.bytes=1048588}\n',
    );
    expect(broker.stdout).toContain(
      '  log.retention.ms=60000 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:',
    );
    const reset = await run([
      'configs',
      '--entity-type',
      'brokers',
      '--entity-name',
      '0',
      '--alter',
      '--delete-config',
      'message.max.bytes',
    ]);
    expect(reset.code, reset.stderr).toBe(0);
    const json = JSON.parse(
      (
        await run([
          'configs',
          '--entity-type',
          'brokers',
          '--entity-name',
          '0',
          '--describe',
          '--all',
          '--output',
          'json',
        ])
      ).stdout,
    );
    expect(json).toContainEqual(
      expect.objectContaining({ broker: '0', name: 'message.max.bytes', value: '1048588', source: 'DEFAULT_CONFIG' }),
    );
    const refused = await run([
      'configs',
      '--entity-type',
      'brokers',
      '--entity-name',
      '0',
      '--alter',
      '--add-config',
      'broker.id=4',
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/Cannot update these configs dynamically: broker.id/);
  });
});

describe('broker configs in a 2-broker cluster', () => {
  let cluster: TestCluster;
  let clusterId: string;

  beforeAll(async () => {
    cluster = await TestCluster.start(2);
    clusterId = await cluster.broker(1).clusterId();
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('shows a change made through broker 1 on broker 2, which acts on it', async () => {
    const [one, two] = [cluster.broker(1).url, cluster.broker(2).url];
    const c = (path: string) => `/v3/clusters/${clusterId}${path}`;
    await waitUntil(
      'both brokers live',
      async () => (await call(one, 'GET', c('/brokers'))).body?.data?.length === 2,
      20_000,
    );
    const set = await call(one, 'POST', c('/broker-configs:alter'), {
      body: {
        data: [
          { name: 'num.partitions', value: '3' },
          { name: 'message.max.bytes', value: '1000' },
        ],
      },
    });
    expect(set.status, set.text).toBe(204);
    await waitUntil(
      'broker 2 sees the cluster-wide change',
      async () => {
        const got = await call(two, 'GET', c('/broker-configs/num.partitions'));
        return got.status === 200 && got.body.value === '3';
      },
      10_000,
    );
    expect((await createTopic(two, clusterId, 'made-on-two')).partitions_count).toBe(3);
    expect((await produceBig(two, clusterId, 'made-on-two')).status).toBe(413);

    const own = await call(one, 'PUT', c('/brokers/2/configs/num.partitions'), { body: { value: '2' } });
    expect(own.status, own.text).toBe(204);
    await waitUntil(
      'broker 2 sees its own value',
      async () => (await call(two, 'GET', c('/brokers/2/configs/num.partitions'))).body?.value === '2',
      10_000,
    );
    const fromOne = await call(one, 'GET', c('/brokers/2/configs/num.partitions'), {
      spec: `${C}/brokers/{broker_id}/configs/{name}`,
    });
    expect(fromOne.body).toMatchObject({ broker_id: 2, value: '2', source: 'DYNAMIC_BROKER_CONFIG' });
    const oneOwn = await call(two, 'GET', c('/brokers/1/configs/num.partitions'));
    expect(oneOwn.body).toMatchObject({ broker_id: 1, value: '3', source: 'DYNAMIC_DEFAULT_BROKER_CONFIG' });
    expect((await createTopic(two, clusterId, 'two-own')).partitions_count).toBe(2);
    expect((await createTopic(one, clusterId, 'one-default')).partitions_count).toBe(3);

    const all = await call(two, 'GET', c('/brokers/-/configs'), { spec: `${C}/brokers/-/configs` });
    expect(new Set(all.body.data.map((entry: { broker_id: number }) => entry.broker_id))).toEqual(new Set([1, 2]));
  }, 60_000);
});
