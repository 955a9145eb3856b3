// One look for every chart: antd's colours and font, a quiet grid.
export const CHART_THEME_NAME = 'carhere';

export const CHART_COLORS = [
  '#1677ff',
  '#52c41a',
  '#fa8c16',
  '#eb2f96',
  '#13c2c2',
  '#722ed1',
  '#faad14',
  '#f5222d',
  '#2f54eb',
  '#a0d911',
];

export const CHART_THEME = {
  color: CHART_COLORS,
  backgroundColor: 'transparent',
  textStyle: {
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
    color: 'rgba(0,0,0,0.65)',
  },
  categoryAxis: {
    axisLine: { lineStyle: { color: '#d9d9d9' } },
    axisTick: { show: false },
    splitLine: { show: false },
  },
  valueAxis: {
    axisLine: { show: false },
    splitLine: { lineStyle: { color: '#f0f0f0' } },
  },
  timeAxis: {
    axisLine: { lineStyle: { color: '#d9d9d9' } },
    splitLine: { show: false },
  },
  legend: { textStyle: { color: 'rgba(0,0,0,0.65)' } },
  tooltip: { backgroundColor: 'rgba(255,255,255,0.96)', borderColor: '#f0f0f0' },
};
