// A line chart of values over time, drawn by uPlot; redrawn when the points change and sized to its container.
import { useElementSize } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';

export interface Series {
  label: string;
  /** [epoch seconds, value] in time order. */
  points: readonly (readonly [number, number])[];
  color: string;
}

export function TimeSeriesChart({ title, series, height = 200 }: { title: string; series: Series[]; height?: number }) {
  const { ref: box, width } = useElementSize();
  const target = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  const times = series[0]?.points.map((point) => point[0]) ?? [];
  const data: uPlot.AlignedData = [times, ...series.map((s) => s.points.map((point) => point[1]))];

  // The chart is rebuilt when its shape changes; new points go through setData below.
  useEffect(() => {
    if (target.current === null || width === 0) return;
    plot.current?.destroy();
    plot.current = new uPlot(
      {
        width,
        height,
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2 }))],
        axes: [{ stroke: 'currentColor' }, { stroke: 'currentColor' }],
        legend: { show: true },
      },
      data,
      target.current,
    );
    return () => {
      plot.current?.destroy();
      plot.current = null;
    };
  }, [width, height, series.length]);

  useEffect(() => {
    plot.current?.setData(data);
  });

  return (
    <figure ref={box} style={{ margin: 0 }} aria-label={title}>
      <figcaption style={{ fontWeight: 600, marginBottom: 4 }}>{title}</figcaption>
      <div ref={target} />
    </figure>
  );
}
