// Small measuring helpers shared by the benchmark suites: timing, percentiles, and the printed table.

export interface Measurement {
  name: string;
  records: number;
  bytes: number;
  seconds: number;
  latenciesMs?: number[];
  rssBytes?: number;
  /** CPU time (user + system, all threads) the server process spent per request, from /proc. */
  cpuMsPerRequest?: number;
  /** CPU time (user + system, all threads) the server process spent per MB (1e6 bytes) sent, from /proc. */
  cpuMsPerMB?: number;
  /** CPU time (user + system, all threads) the server process spent per record, in microseconds, from /proc. */
  cpuUsPerRecord?: number;
}

export function percentile(sortedMs: number[], fraction: number): number {
  if (sortedMs.length === 0) return NaN;
  return sortedMs[Math.min(sortedMs.length - 1, Math.floor(fraction * sortedMs.length))];
}

export function formatMeasurement(m: Measurement, baseline?: Measurement): string {
  const recordsPerSecond = m.records / m.seconds;
  const mbPerSecond = m.bytes / m.seconds / 1e6;
  const parts = [
    m.name.padEnd(44),
    `${Math.round(recordsPerSecond).toLocaleString('en-US').padStart(12)} rec/s`,
    `${mbPerSecond.toFixed(1).padStart(8)} MB/s`,
  ];
  if (m.latenciesMs && m.latenciesMs.length > 0) {
    const sorted = [...m.latenciesMs].sort((a, b) => a - b);
    parts.push(`p50 ${percentile(sorted, 0.5).toFixed(2)} ms`, `p99 ${percentile(sorted, 0.99).toFixed(2)} ms`);
  }
  if (m.rssBytes !== undefined) parts.push(`rss ${(m.rssBytes / 1e6).toFixed(0)} MB`);
  if (m.cpuMsPerRequest !== undefined) parts.push(`cpu ${m.cpuMsPerRequest.toFixed(2)} ms/req`);
  if (m.cpuMsPerMB !== undefined) parts.push(`cpu ${m.cpuMsPerMB.toFixed(2)} ms/MB`);
  if (m.cpuUsPerRecord !== undefined) parts.push(`cpu ${m.cpuUsPerRecord.toFixed(2)} us/rec`);
  if (baseline) parts.push(`ratio ${(m.bytes / m.seconds / (baseline.bytes / baseline.seconds)).toFixed(2)}`);
  return parts.join('  ');
}

export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const started = process.hrtime.bigint();
  const result = await work();
  return { result, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}
