// Every chart of the product goes through here: one theme, a skeleton while data or the ECharts chunk loads,
// an empty state that says what to do next, resizing with its box (echarts-for-react watches the element),
// and the interface language (numbers by Intl, ECharts' own texts by its locale). ECharts itself is a lazy
// chunk, requested by the first chart shown, never by the login page.
import { Empty, Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartOption } from './options.ts';

const EChart = lazy(() => import('./EChart.tsx'));

export interface ChartProps {
  option: ChartOption;
  /** Data still coming: a skeleton instead of the chart. */
  loading?: boolean;
  /** Nothing to draw: the empty state with `emptyText` instead of an empty canvas. */
  empty?: boolean;
  emptyText?: string;
  height?: number;
  testId?: string;
}

export function Chart({ option, loading, empty, emptyText, height = 300, testId = 'chart' }: ChartProps) {
  const { i18n } = useTranslation();
  const box = { height, width: '100%' } as const;
  if (loading) {
    return (
      <div style={box} data-testid={`${testId}-loading`}>
        <Skeleton active paragraph={{ rows: Math.max(3, Math.floor(height / 40)) }} title={false} />
      </div>
    );
  }
  if (empty) {
    return (
      <div style={{ ...box, display: 'grid', placeItems: 'center' }} data-testid={`${testId}-empty`}>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />
      </div>
    );
  }
  return (
    <Suspense fallback={<Skeleton.Node active style={box} />}>
      <EChart option={option} height={height} locale={i18n.language === 'cn' ? 'ZH' : 'EN'} testId={testId} />
    </Suspense>
  );
}
