// kcat (librdkafka) consuming in a group (`kcat -G`) against a real broker: it reads every record once and commits
// when it closes; the next run of the group reads only what came after; a REST v3 offset reset of the (empty) group
// is what the next kcat run starts from.
import { describe, expect, it } from 'vitest';
import { kcat, kcatAvailable } from '../support/kafka/kcat.js';
import { brokerForSuite } from './support/broker-process.js';
import { call } from './support/http.js';
import { G, GROUP_ENV, committedToEnd, createTopic, restLags } from './support/kafka-groups.js';

const TOPIC = 'kcat-group-topic';
const PARTITIONS = 3;
const GROUP = 'kcat-readers';

describe.runIf(kcatAvailable)('kcat in a consumer group', () => {
  const suite = brokerForSuite({ env: GROUP_ENV });
  const produce = async (values: string[]) => {
    const input = values.map((value) => `${value}:${value}\n`).join('');
    const result = await kcat(['-b', suite.broker.kafkaBootstrap, '-P', '-K', ':', '-t', TOPIC], input);
    expect(result.code, result.stderr).toBe(0);
  };
  /** Runs `kcat -G` until it has read `count` records; it commits what it read when it closes. */
  const consume = async (count: number) => {
    const result = await kcat([
      '-b',
      suite.broker.kafkaBootstrap,
      '-G',
      GROUP,
      '-X',
      'auto.offset.reset=earliest',
      '-q',
      '-c',
      String(count),
      '-f',
      '%s\n',
      TOPIC,
    ]);
    expect(result.code, result.stderr).toBe(0);
    return result.stdout.split('\n').filter((line) => line !== '');
  };
  const values = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);

  it('reads every record once and commits; the next run reads only the newer ones', async () => {
    await createTopic(suite.url, suite.clusterId, TOPIC, PARTITIONS);
    const first = values('first', 30);
    await produce(first);
    expect((await consume(first.length)).sort()).toEqual([...first].sort());
    const lags = await committedToEnd(suite.url, suite.clusterId, GROUP, PARTITIONS);
    expect(lags.reduce((sum, lag) => sum + lag.current_offset, 0)).toBe(first.length);

    const second = values('second', 5);
    await produce(second);
    expect((await consume(second.length)).sort()).toEqual([...second].sort());
    await committedToEnd(suite.url, suite.clusterId, GROUP, PARTITIONS);
  });

  it('starts from the offsets a REST v3 reset wrote while the group was empty', async () => {
    const reset = await call(
      suite.url,
      'POST',
      `/v3/clusters/${suite.clusterId}/consumer-groups/${GROUP}/offsets:reset`,
      {
        body: { to: 'earliest', dry_run: false },
        spec: `${G}/offsets:reset`,
      },
    );
    expect(reset.status, reset.text).toBe(200);
    expect((await restLags(suite.url, suite.clusterId, GROUP)).map((lag) => lag.current_offset)).toEqual([0, 0, 0]);
    const again = await consume(35);
    expect(again.filter((value) => value.startsWith('first-'))).toHaveLength(30);
    expect(again.filter((value) => value.startsWith('second-'))).toHaveLength(5);
  });
});
