import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isFormulaLike, neutraliseCell, neutraliseRow } from './spreadsheet.ts';

describe('formula injection in exports', () => {
  it('prefixes text that starts with = + - @ tab or CR', () => {
    for (const bad of ['=HYPERLINK("http://x","y")', '+1+cmd|/c calc', '-2+3', '@SUM(A1)', '\t=1', '\r=1', '=1']) {
      expect(neutraliseCell(bad)).toBe(`'${bad}`);
    }
  });

  it('leaves ordinary text, numbers and signed numbers in text alone', () => {
    for (const good of ['京A12345', 'a=b', '', '-', '-12.5', '+86', '12', "'=already"]) {
      expect(neutraliseCell(good)).toBe(good);
    }
    expect(neutraliseCell(-5)).toBe(-5);
    expect(neutraliseCell(null)).toBe(null);
    const d = new Date(0);
    expect(neutraliseCell(d)).toBe(d);
  });

  it('rows as arrays and objects', () => {
    expect(neutraliseRow(['=1', 2, 'x'])).toEqual(["'=1", 2, 'x']);
    expect(neutraliseRow({ name: '@x', n: 1 })).toEqual({ name: "'@x", n: 1 });
  });

  it('no neutralised cell starts a formula', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const out = neutraliseCell(s);
        expect(isFormulaLike(out)).toBe(false);
        expect(out === s || out === `'${s}`).toBe(true);
      }),
    );
  });
});
