import { describe, expect, it } from 'vitest';
import { htmlOf } from '../html/leafletHtml.ts';
import { CAR_STATE_COLORS, carIconHtml, headingStep, markerSvg } from './carIconHtml.ts';

describe('car icons', () => {
  it('turns to the heading in 10° steps, any angle accepted', () => {
    expect(headingStep(94)).toBe(90);
    expect(headingStep(356)).toBe(0);
    expect(headingStep(-45)).toBe(320);
    expect(headingStep(Number.NaN)).toBe(0);
  });

  it('is 40×40, coloured by state, rotated, with an escaped label', () => {
    const html = htmlOf(carIconHtml({ state: 'overspeed', course: 181, label: '<b>京A</b>' }));
    expect(html).toContain('width="40" height="40"');
    expect(html).toContain(CAR_STATE_COLORS.overspeed);
    expect(html).toContain('rotate(180deg)');
    expect(html).toContain('&lt;b&gt;京A');
    expect(html).not.toContain('<b>');
  });

  it('markers are 32×32 pins', () => {
    expect(htmlOf(markerSvg('#000', 'S'))).toContain('width="32" height="32"');
  });
});
