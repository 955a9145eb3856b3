// The ECharts half of <Chart>: only the chart types and components the product uses, on the canvas
// renderer (echarts/core, not the whole library), so this chunk stays small and loads with the statistics
// screens only.
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
// The ES module build: the CommonJS one (lib/) reaches a bundle as a module object, not the component.
import ReactEChartsCore from 'echarts-for-react/esm/core';
import type { ChartOption } from './options.ts';
import { CHART_THEME, CHART_THEME_NAME } from './theme.ts';

echarts.use([
  BarChart,
  LineChart,
  PieChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  DataZoomComponent,
  CanvasRenderer,
]);
echarts.registerTheme(CHART_THEME_NAME, CHART_THEME);

export interface EChartProps {
  option: ChartOption;
  height: number;
  /** ECharts' own texts (data zoom, loading): 'ZH' for Chinese, 'EN' otherwise. */
  locale: 'ZH' | 'EN';
  testId?: string;
}

export default function EChart({ option, height, locale, testId }: EChartProps) {
  return (
    <ReactEChartsCore
      echarts={echarts}
      option={option}
      theme={CHART_THEME_NAME}
      notMerge
      // Re-created when the language changes: ECharts reads its locale at init only.
      key={locale}
      opts={{ renderer: 'canvas', locale }}
      style={{ height, width: '100%' }}
      data-testid={testId}
    />
  );
}
