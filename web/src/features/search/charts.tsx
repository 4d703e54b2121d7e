import { useComputedColorScheme } from '@mantine/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, ToolboxComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { cellText } from './searchState';

echarts.use([
  BarChart,
  LineChart,
  PieChart,
  GridComponent,
  TooltipComponent,
  DataZoomComponent,
  LegendComponent,
  ToolboxComponent,
  CanvasRenderer,
]);

interface HistogramProps {
  /** [bucket start (ms), events] */
  readonly counts: readonly (readonly [number, number])[];
  readonly width: number;
  /** Dragging or zooming narrows the search's range to the buckets kept. */
  readonly onZoom: (from: Date, to: Date) => void;
}

/** Events over time of the loaded rows; drag over the bars (or the slider) to narrow the range. */
export function EventsHistogram({ counts, width, onZoom }: HistogramProps) {
  const ref = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('light');
  const zoom = useRef(onZoom);
  zoom.current = onZoom;
  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current, scheme === 'dark' ? 'dark' : undefined, { renderer: 'canvas' });
    chart.setOption({
      backgroundColor: 'transparent',
      grid: { left: 48, right: 16, top: 16, bottom: 56 },
      tooltip: { trigger: 'axis' },
      toolbox: {
        feature: { dataZoom: { yAxisIndex: 'none', title: { zoom: 'Drag to narrow the range', back: 'Back' } } },
        right: 8,
      },
      // Categories (one per bucket), so every bar shows whatever the span; labels in UTC.
      xAxis: {
        type: 'category',
        data: counts.map(([t]) => new Date(t).toISOString().slice(width >= 86_400_000 ? 0 : 11, width >= 86_400_000 ? 10 : 19)),
      },
      yAxis: { type: 'value', minInterval: 1 },
      dataZoom: [{ type: 'slider', height: 18, bottom: 8 }],
      series: [{ type: 'bar', name: 'Events', data: counts.map(([, n]) => n), barMaxWidth: 24 }],
    });
    chart.on('datazoom', () => {
      const option = chart.getOption() as { dataZoom?: { startValue?: number; endValue?: number }[] };
      const z = option.dataZoom?.[0];
      if (z?.startValue !== undefined && z.endValue !== undefined)
        zoom.current(new Date(z.startValue), new Date(z.endValue + width));
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [counts, width, scheme]);
  return <div ref={ref} role="img" aria-label="Events over time" style={{ width: '100%', height: 180 }} />;
}

/** A PantherFlow `visualize` (core/pantherflow's Visualization): the chart, its x column and its value column. */
export interface VisualizationSpec {
  readonly chart: string;
  readonly xcolumn?: string;
  readonly series?: string;
}

/** Reads a search's visualization (AWSJSON: a JSON text or an object) into a spec, or null. */
export function readVisualization(value: unknown): VisualizationSpec | null {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      return null;
    }
  }
  return v && typeof v === 'object' && typeof (v as { chart?: unknown }).chart === 'string' ? (v as VisualizationSpec) : null;
}

/** A PantherFlow `visualize` result: bar, line or pie of the value column(s) over the x column (`table` draws none). */
export function VisualizationChart({
  spec,
  rows,
  columns,
}: {
  readonly spec: VisualizationSpec;
  readonly rows: readonly Record<string, unknown>[];
  readonly columns: readonly string[];
}) {
  const ref = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('light');
  useEffect(() => {
    if (!ref.current || spec.chart === 'table') return;
    const x = spec.xcolumn ?? columns[0];
    const ys = spec.series ? [spec.series] : columns.filter((c) => c !== x && rows.some((r) => typeof r[c] === 'number'));
    const categories = rows.map((r) => cellText(r[x]));
    const chart = echarts.init(ref.current, scheme === 'dark' ? 'dark' : undefined, { renderer: 'canvas' });
    chart.setOption(
      spec.chart === 'pie'
        ? {
            backgroundColor: 'transparent',
            tooltip: { trigger: 'item' },
            series: [
              { type: 'pie', radius: '70%', data: rows.map((r) => ({ name: cellText(r[x]), value: Number(r[ys[0]] ?? 0) })) },
            ],
          }
        : {
            backgroundColor: 'transparent',
            grid: { left: 56, right: 16, top: 32, bottom: 40 },
            legend: { top: 0 },
            tooltip: { trigger: 'axis' },
            xAxis: { type: 'category', data: categories },
            yAxis: { type: 'value' },
            series: ys.map((y) => ({
              type: spec.chart === 'line' ? 'line' : 'bar',
              name: y,
              data: rows.map((r) => Number(r[y] ?? 0)),
            })),
          },
    );
    return () => chart.dispose();
  }, [spec, rows, columns, scheme]);
  if (spec.chart === 'table') return null;
  return <div ref={ref} role="img" aria-label={`${spec.chart} chart`} style={{ width: '100%', height: 300 }} />;
}
