// Chart options built from plain figures (pure, tested). Tooltips render as canvas rich text, never HTML, so a
// device or account name is drawn as text whatever it contains.
import type { BarSeriesOption, LineSeriesOption, PieSeriesOption } from 'echarts/charts';
import type {
  DataZoomComponentOption,
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';

export type ChartOption = ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | PieSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | DataZoomComponentOption
>;

export interface BarSeries {
  name: string;
  /** One value per category, in category order. */
  values: number[];
}

const TOOLTIP = { renderMode: 'richText', confine: true } as const;

/**
 * Bars per category (days, devices); several series stack. `format` writes a value for axis and tooltip
 * (e.g. metres as km in the interface language).
 */
export function barOption(categories: string[], series: BarSeries[], format: (v: number) => string): ChartOption {
  return {
    tooltip: { ...TOOLTIP, trigger: 'axis', valueFormatter: (v) => format(Number(v)) },
    legend: series.length > 1 ? { type: 'scroll', bottom: 0 } : { show: false },
    grid: { left: 8, right: 16, top: 16, bottom: series.length > 1 ? 40 : 8, containLabel: true },
    xAxis: { type: 'category', data: categories },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => format(v) } },
    dataZoom: categories.length > 31 ? [{ type: 'inside' }] : [],
    series: series.map((s) => ({
      type: 'bar',
      name: s.name,
      data: s.values,
      stack: series.length > 1 ? 'total' : undefined,
      barMaxWidth: 36,
    })),
  };
}

/** A pie of named counts (zero slices left out), largest first. */
export function pieOption(items: { name: string; value: number }[], format: (v: number) => string): ChartOption {
  const data = items.filter((i) => i.value > 0).sort((a, b) => b.value - a.value);
  return {
    tooltip: { ...TOOLTIP, trigger: 'item', valueFormatter: (v) => format(Number(v)) },
    legend: { type: 'scroll', orient: 'vertical', right: 0, top: 'middle' },
    series: [
      {
        type: 'pie',
        radius: ['35%', '70%'],
        center: ['40%', '50%'],
        data,
        label: { formatter: '{b}: {c}' },
      },
    ],
  };
}

/** A line over time: [epoch ms, value] points, e.g. speed over a trip. */
export function timeLineOption(
  name: string,
  points: [number, number][],
  format: (v: number) => string,
  formatTime: (ms: number) => string,
): ChartOption {
  return {
    tooltip: { ...TOOLTIP, trigger: 'axis', valueFormatter: (v) => format(Number(v)) },
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    xAxis: { type: 'time', axisLabel: { formatter: (v: number) => formatTime(v), hideOverlap: true } },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => format(v) } },
    dataZoom: [{ type: 'inside' }],
    series: [{ type: 'line', name, data: points, showSymbol: false, sampling: 'lttb', areaStyle: { opacity: 0.15 } }],
  };
}
