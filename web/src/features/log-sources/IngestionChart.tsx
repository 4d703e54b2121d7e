import { useComputedColorScheme } from '@mantine/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { formatCount } from '../../lib/format';

echarts.use([BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

export interface HourFigure {
  readonly hour: string;
  readonly events: number;
  readonly bytes: number;
}

const hourLabel = (iso: string) => `${iso.slice(11, 13)}:00`;

function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

/** Events received per hour over the last 24 hours (UTC), with bytes in the tooltip. */
export function IngestionChart({ hourly }: { readonly hourly: readonly HourFigure[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('light');
  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current, scheme === 'dark' ? 'dark' : undefined, { renderer: 'canvas' });
    chart.setOption({
      backgroundColor: 'transparent',
      grid: { left: 48, right: 16, top: 16, bottom: 32 },
      tooltip: {
        trigger: 'axis',
        formatter: (params: Array<{ dataIndex: number }>) => {
          const figure = hourly[params[0].dataIndex];
          return `${figure.hour.slice(0, 10)} ${hourLabel(figure.hour)} UTC<br/>${formatCount(figure.events)} events<br/>${formatBytes(figure.bytes)}`;
        },
      },
      xAxis: { type: 'category', data: hourly.map((h) => hourLabel(h.hour)), axisTick: { alignWithLabel: true } },
      yAxis: { type: 'value', minInterval: 1 },
      series: [{ type: 'bar', name: 'Events', data: hourly.map((h) => h.events), itemStyle: { color: '#228be6' } }],
    });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(ref.current);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [hourly, scheme]);
  return <div ref={ref} style={{ width: '100%', height: 240 }} role="img" aria-label="Events received per hour, last 24 hours" />;
}

export { formatBytes };
