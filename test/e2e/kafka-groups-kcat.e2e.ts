// kcat (librdkafka) consuming in a group (`kcat -G`) against a real broker: it reads every record once and commits
// when it closes; the next run of the group reads only what came after; a REST v3 offset reset of the (empty) group
// is what the next kcat run starts from. A static member (`group.instance.id`) that exits stays in the group until
// its session ends, and the next process with its instance id takes its place.
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
  const consume = async (count: number, group = GROUP, extra: string[] = []) => {
    const result = await kcat([
      '-b',
      suite.broker.kafkaBootstrap,
      ...extra,
      '-G',
      group,
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

  it('keeps a static member that exited in the group, and gives its place to the next process with its id', async () => {
    const staticGroup = 'kcat-static';
    const asStatic = ['-X', 'group.instance.id=reader-1', '-X', 'session.timeout.ms=30000'];
    const members = async () => {
      const response = await call(
        suite.url,
        'GET',
        `/v3/clusters/${suite.clusterId}/consumer-groups/${staticGroup}/consumers`,
        { spec: `${G}/consumers` },
      );
      expect(response.status, response.text).toBe(200);
      return response.body.data as Array<{ consumer_id: string; instance_id: string | null }>;
    };
    expect(await consume(35, staticGroup, asStatic)).toHaveLength(35);
    const [before] = await members();
    expect(before.instance_id).toBe('reader-1');
    await produce(values('third', 4));
    expect((await consume(4, staticGroup, asStatic)).sort()).toEqual(values('third', 4).sort());
    const after = await members();
    expect(after.map((member) => member.instance_id)).toEqual(['reader-1']);
    expect(after[0].consumer_id).not.toBe(before.consumer_id);
  });
});
