// Reads a page of records of some partitions (the stateless read route, format=binary so any bytes survive, or a
// schema format for the broker to decode Confluent's wire format),
// starting at the earliest or latest records, an offset or a time. "Latest" means the last `max` records of each
// partition, found from its offsets.
import { api, unwrap } from './client';
import { toConsoleRecord, type ConsoleRecord, type DecodeFormat } from '../lib/records';

export type StartAt =
  { kind: 'earliest' } | { kind: 'latest' } | { kind: 'offset'; offset: number } | { kind: 'time'; iso: string };

/** Bound on one page of one partition. */
export const BROWSE_RECORDS_MAX = 500;

export async function browseRecords(
  c: string,
  topic: string,
  partitions: number[],
  start: StartAt,
  max: number,
  format: DecodeFormat = 'binary',
): Promise<ConsoleRecord[]> {
  const limit = Math.min(Math.max(1, max), BROWSE_RECORDS_MAX);
  const pages = await Promise.all(
    partitions.map(async (partition) => {
      const path = { cluster_id: c, topic_name: topic, partition_id: partition };
      let position: { from?: 'earliest'; offset?: number; timestamp?: string } = { from: 'earliest' };
      if (start.kind === 'offset') position = { offset: start.offset };
      if (start.kind === 'time') position = { timestamp: start.iso };
      if (start.kind === 'latest') {
        const offsets = unwrap(
          await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}/offset', {
            params: { path },
          }),
        );
        position = { offset: Math.max(offsets.earliest_offset, offsets.latest_offset - limit) };
      }
      const page = unwrap(
        await api.GET('/v3/clusters/{cluster_id}/topics/{topic_name}/partitions/{partition_id}/records', {
          params: { path, query: { ...position, max_records: limit, wait_ms: 0, format } },
        }),
      );
      if (typeof page === 'string') throw new Error('the broker answered raw batches instead of JSON records');
      return (page.records as unknown[]).map((record) => toConsoleRecord(record, format));
    }),
  );
  return pages.flat().sort((a, b) => a.timestamp - b.timestamp || a.partition - b.partition || a.offset - b.offset);
}
