// Reading a broker's GET /metrics in tests: the Prometheus text format parsed into samples, and sums of samples.
import { call } from './http.js';
export type Samples = Map<string, Array<{ labels: Record<string, string>; value: number }>>;

/** Samples of the Prometheus text format: name -> [{labels, value}]. */
export function parseMetrics(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) continue;
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[label[1]] = label[2];
    const list = samples.get(match[1]) ?? [];
    list.push({ labels, value: Number(match[3]) });
    samples.set(match[1], list);
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `labels`. */
export function metricValue(samples: Samples, name: string, labels: Record<string, string> = {}): number {
  return (samples.get(name) ?? [])
    .filter((sample) => Object.entries(labels).every(([key, expected]) => sample.labels[key] === expected))
    .reduce((sum, sample) => sum + sample.value, 0);
}

export async function scrapeMetrics(baseUrl: string): Promise<Samples> {
  const response = await call(baseUrl, 'GET', '/metrics', { timeoutMs: 5_000 });
  if (response.status !== 200) throw new Error(`GET /metrics: ${response.status}`);
  return parseMetrics(response.text);
}
