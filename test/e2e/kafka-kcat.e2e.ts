// kcat (Debian's, librdkafka 2.x) against a real broker's Kafka listener: keyed records produced with each
// compression codec are stored as the client's batches (fetched back over the wire with that codec) and consumed
// from the beginning; and across protocols, records produced over REST are read by kcat with their keys, headers,
// timestamps, partitions and offsets, records produced by kcat are read over REST at the offsets kcat was told,
// and a key lands on the same partition either way (kcat with librdkafka's murmur2 partitioner, Java's default).
import { describe, expect, it } from 'vitest';
import { compressionOf, decodeRecords, readBatchHeader } from '../../src/partition-log/record-batch.js';
import { CompressionType } from '../../src/partition-log/compression.js';
import { ADVERTISED_VERSIONS } from '../../src/kafka/handler-table.js';
import { kcat, kcatAvailable } from '../support/kafka/kcat.js';
import { brokerForSuite } from './support/broker-process.js';
import { call } from './support/http.js';
import { KafkaWire } from './support/kafka-wire.js';

const CODECS: Record<string, CompressionType> = {
  gzip: CompressionType.Gzip,
  snappy: CompressionType.Snappy,
  lz4: CompressionType.Lz4,
  zstd: CompressionType.Zstd,
};
/**
 * The codec librdkafka writes for `codec` against this broker. It takes lz4 only from a broker it believes has
 * LZ4, which it infers (rdkafka_feature.c, RD_KAFKA_FEATURE_LZ4) from FindCoordinator v0 being advertised, and
 * otherwise sends the batch plain; FindCoordinator is advertised once the group APIs are in the handler table.
 */
function storedCodec(codec: string): CompressionType {
  const lz4Known = ADVERTISED_VERSIONS.some((range) => range.name === 'FindCoordinator' && range.minVersion === 0);
  return codec === 'lz4' && !lz4Known ? CompressionType.None : CODECS[codec];
}
const RECORDS = 30;
const PARTITIONS = 3;
/** Compressible values, so that librdkafka really compresses (it keeps a batch plain when that does not pay). */
const valueOf = (i: number) => `value-${i}-`.padEnd(200, 'abc');
/** kcat as a Java client partitions: murmur2 of the key (librdkafka's default is CRC32). */
const MURMUR2 = ['-X', 'topic.partitioner=murmur2_random'];
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe.runIf(kcatAvailable)('kcat against the Kafka listener', () => {
  const suite = brokerForSuite();
  const bootstrap = () => suite.broker.kafkaBootstrap;
  const v3 = (path: string) => `/v3/clusters/${suite.clusterId}${path}`;

  async function createTopic(name: string, partitions: number): Promise<void> {
    const response = await call(suite.url, 'POST', v3('/topics'), {
      body: { topic_name: name, partitions_count: partitions },
    });
    expect(response.status, response.text).toBe(201);
  }

  /** The batches of one partition, fetched over the wire as the broker stores them. */
  async function storedBatches(topic: string, partition: number): Promise<Buffer[]> {
    const wire = await KafkaWire.open(suite.broker.kafkaPort);
    try {
      const body = await wire.call('Fetch', 11, {
        maxWaitMs: 0,
        minBytes: 0,
        topics: [{ topic, partitions: [{ partition, fetchOffset: 0, partitionMaxBytes: 1 << 20 }] }],
        forgottenTopicsData: [],
      });
      const records = body.responses[0].partitions[0].records as Buffer;
      const batches: Buffer[] = [];
      for (let at = 0; at + 12 <= records.length;) {
        const size = 12 + records.readInt32BE(at + 8);
        batches.push(records.subarray(at, at + size));
        at += size;
      }
      return batches;
    } finally {
      wire.close();
    }
  }

  describe.each(Object.keys(CODECS))('kcat -z %s', (codec) => {
    it('produces keyed records that are stored in its compressed batches and consumed from the beginning', async () => {
      const topic = `kcat-${codec}`;
      await createTopic(topic, PARTITIONS);
      const lines = Array.from({ length: RECORDS }, (_, i) => `k${i}:${valueOf(i)}`);
      const produced = await kcat(
        ['-b', bootstrap(), '-P', '-t', topic, '-K', ':', '-z', codec, ...MURMUR2],
        `${lines.join('\n')}\n`,
      );
      expect(produced.code, produced.stderr).toBe(0);

      const consumed = await kcat(['-b', bootstrap(), '-C', '-t', topic, '-o', 'beginning', '-e', '-f', '%k:%s\\n']);
      expect(consumed.code, consumed.stderr).toBe(0);
      expect(consumed.stdout.trim().split('\n').sort()).toEqual([...lines].sort());

      const stored: string[] = [];
      for (let partition = 0; partition < PARTITIONS; partition++) {
        for (const batch of await storedBatches(topic, partition)) {
          expect(compressionOf(readBatchHeader(batch))).toBe(storedCodec(codec));
          stored.push(...decodeRecords(batch).map((record) => `${String(record.key)}:${String(record.value)}`));
        }
      }
      expect(stored.sort()).toEqual([...lines].sort());
    });
  });

  it('reads records produced over REST with their keys, headers, timestamps, partitions and offsets', async () => {
    const topic = 'rest-to-kcat';
    await createTopic(topic, 4);
    const timestamp = '2026-03-04T05:06:07.089Z';
    const reports: Array<{ key: string; partition: number; offset: number }> = [];
    for (const key of ['alpha', 'beta', 'gamma', 'delta', 'alpha']) {
      const response = await call(suite.url, 'POST', v3(`/topics/${topic}/records`), {
        body: {
          key: { type: 'STRING', data: key },
          value: { type: 'STRING', data: `from-rest-${key}` },
          headers: [{ name: 'origin', value: b64('rest') }],
          timestamp,
        },
      });
      expect(response.status, response.text).toBe(200);
      reports.push({ key, partition: response.body.partition_id, offset: response.body.offset });
    }
    const consumed = await kcat([
      '-b',
      bootstrap(),
      '-C',
      '-t',
      topic,
      '-o',
      'beginning',
      '-e',
      '-f',
      '%p|%o|%k|%s|%T|%h\\n',
    ]);
    expect(consumed.code, consumed.stderr).toBe(0);
    const rows = consumed.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('|'));
    expect(rows).toHaveLength(reports.length);
    for (const report of reports) {
      const row = rows.find(([p, o]) => Number(p) === report.partition && Number(o) === report.offset);
      expect(row, `${report.key} at ${report.partition}/${report.offset}`).toEqual([
        String(report.partition),
        String(report.offset),
        report.key,
        `from-rest-${report.key}`,
        String(Date.parse(timestamp)),
        'origin=rest',
      ]);
    }
  });

  it('writes records REST reads at the offsets kcat reports, each key on the partition REST chooses for it', async () => {
    const topic = 'kcat-to-rest';
    await createTopic(topic, 4);
    const keys = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    const restPartition = new Map<string, number>();
    for (const key of keys) {
      const response = await call(suite.url, 'POST', v3(`/topics/${topic}/records`), {
        body: { key: { type: 'STRING', data: key }, value: { type: 'STRING', data: 'rest' } },
      });
      expect(response.status, response.text).toBe(200);
      restPartition.set(key, response.body.partition_id);
    }
    const produced = await kcat(
      ['-b', bootstrap(), '-P', '-t', topic, '-K', ':', '-H', 'origin=kcat', ...MURMUR2],
      `${keys.map((key) => `${key}:kcat`).join('\n')}\n`,
    );
    expect(produced.code, produced.stderr).toBe(0);

    const consumed = await kcat([
      '-b',
      bootstrap(),
      '-C',
      '-t',
      topic,
      '-o',
      'beginning',
      '-e',
      '-f',
      '%p|%o|%k|%s\\n',
    ]);
    expect(consumed.code, consumed.stderr).toBe(0);
    const fromKcat = consumed.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('|'))
      .filter(([, , , value]) => value === 'kcat');
    expect(fromKcat.map(([, , key]) => key).sort()).toEqual([...keys].sort());
    for (const [partition, offset, key] of fromKcat) {
      expect(Number(partition), `partition of ${key}`).toBe(restPartition.get(key));
      const read = await call(
        suite.url,
        'GET',
        v3(`/topics/${topic}/partitions/${partition}/records?offset=${offset}&max_records=1&format=string`),
      );
      expect(read.status, read.text).toBe(200);
      expect(read.body.records[0]).toMatchObject({
        offset: Number(offset),
        key,
        value: 'kcat',
        headers: [{ name: 'origin', value: b64('kcat') }],
      });
    }
  });
});
