import { describe, expect, it } from 'vitest';
import { barOption, pieOption, timeLineOption } from './options.ts';

const km = (v: number) => `${v / 1000} km`;

describe('chart options', () => {
  it('bars: one series alone without legend, several stacked with a legend', () => {
    const one = barOption(['2026-11-01', '2026-11-02'], [{ name: 'car', values: [1000, 2000] }], km);
    expect(one.legend).toEqual({ show: false });
    expect(one.series).toEqual([expect.objectContaining({ type: 'bar', data: [1000, 2000], stack: undefined })]);
    expect(one.xAxis).toEqual({ type: 'category', data: ['2026-11-01', '2026-11-02'] });
    const two = barOption(
      ['d'],
      [
        { name: 'a', values: [1] },
        { name: 'b', values: [2] },
      ],
      km,
    );
    expect((two.series as { stack?: string }[]).map((s) => s.stack)).toEqual(['total', 'total']);
    expect(two.legend).toMatchObject({ type: 'scroll' });
  });

  it('tooltips render as canvas text and values go through the formatter', () => {
    const o = barOption(['d'], [{ name: '<b>x</b>', values: [1500] }], km);
    const tooltip = o.tooltip as { renderMode: string; valueFormatter: (v: number) => string };
    expect(tooltip.renderMode).toBe('richText');
    expect(tooltip.valueFormatter(1500)).toBe('1.5 km');
    expect((pieOption([], String).tooltip as { renderMode: string }).renderMode).toBe('richText');
    expect((timeLineOption('s', [], String, String).tooltip as { renderMode: string }).renderMode).toBe('richText');
  });

  it('pie: empty slices left out, largest first', () => {
    const o = pieOption(
      [
        { name: 'SOS', value: 1 },
        { name: 'Overspeed', value: 4 },
        { name: 'Power cut', value: 0 },
      ],
      String,
    );
    expect((o.series as { data: unknown[] }[])[0].data).toEqual([
      { name: 'Overspeed', value: 4 },
      { name: 'SOS', value: 1 },
    ]);
  });

  it('line over time keeps the points and zooms inside', () => {
    const o = timeLineOption(
      'Speed',
      [
        [1, 10],
        [2, 20],
      ],
      String,
      String,
    );
    expect((o.series as { data: unknown }[])[0].data).toEqual([
      [1, 10],
      [2, 20],
    ]);
    expect(o.dataZoom).toEqual([{ type: 'inside' }]);
  });
});
