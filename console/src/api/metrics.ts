// Rates from this broker's own Prometheus counters (GET /metrics, with the user's credentials), sampled every
// few seconds while a page shows them; at most METRIC_SAMPLES_MAX samples are kept.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ratePerSecond, sumOfMetric, type CounterSample } from '../lib/prometheus-text';
import { authHeaders, errorFrom, FETCH_CREDENTIALS, noteUnauthorized } from './client';

export const METRIC_SAMPLES_MAX = 150;
export const METRIC_POLL_INTERVAL_MS = 2_000;

export function useMetricsText() {
  return useQuery({
    queryKey: ['metrics'],
    queryFn: async () => {
      const headers = authHeaders();
      const response = await fetch('/metrics', { headers, credentials: FETCH_CREDENTIALS });
      noteUnauthorized(response, headers.authorization ?? null);
      if (!response.ok) throw errorFrom(response, await response.json().catch(() => null));
      return { text: await response.text(), atMs: Date.now() };
    },
    refetchInterval: METRIC_POLL_INTERVAL_MS,
  });
}

/** [epoch seconds, per second] points of each named counter's rate. */
export function useCounterRates(text: { text: string; atMs: number } | undefined, metrics: string[]) {
  const previous = useRef(new Map<string, CounterSample>());
  const [points, setPoints] = useState<Record<string, [number, number][]>>({});
  const key = metrics.join(',');
  useEffect(() => {
    if (text === undefined) return;
    setPoints((current) => {
      const next = { ...current };
      for (const metric of key.split(',')) {
        const value = sumOfMetric(text.text, metric);
        if (value === null) continue;
        const sample = { atMs: text.atMs, value };
        const last = previous.current.get(metric);
        previous.current.set(metric, sample);
        const rate = last === undefined ? null : ratePerSecond(last, sample);
        if (rate === null) continue;
        next[metric] = [...(current[metric] ?? []), [text.atMs / 1000, rate] as [number, number]].slice(
          -METRIC_SAMPLES_MAX,
        );
      }
      return next;
    });
  }, [text, key]);
  return points;
}
