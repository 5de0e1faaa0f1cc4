// Reads the counters the Overview charts from the broker's Prometheus text (GET /metrics): the sum over all
// series of a metric, e.g. brook_topic_messages_in_total over every topic. Rates are the difference of two
// samples over the time between them.
export function sumOfMetric(text: string, metric: string): number | null {
  let total = 0;
  let found = false;
  for (const line of text.split('\n')) {
    if (!line.startsWith(metric)) continue;
    const rest = line.slice(metric.length);
    if (rest[0] !== '{' && rest[0] !== ' ') continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (!Number.isFinite(value)) continue;
    total += value;
    found = true;
  }
  return found ? total : null;
}

export interface CounterSample {
  atMs: number;
  value: number;
}

/** Per second between two samples; null when time did not advance or the counter was reset. */
export function ratePerSecond(previous: CounterSample, next: CounterSample): number | null {
  const seconds = (next.atMs - previous.atMs) / 1000;
  if (seconds <= 0 || next.value < previous.value) return null;
  return (next.value - previous.value) / seconds;
}
