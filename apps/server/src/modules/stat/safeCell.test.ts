// The statistics export writes every cell through safeCell, which uses the domain's formula neutraliser.
import { neutraliseCell } from '@carhere/domain';
import { describe, expect, it } from 'vitest';
import { safeCell } from './export.ts';

describe('statistics export cells', () => {
  it('formula-like text is neutralised by the domain rule; numbers, empties and flags keep their meaning', () => {
    for (const s of ['=HYPERLINK("http://x","y")', '+1+cmd|/c calc', '@SUM(A1)', '\t=1', '京A12345', '-12.5']) {
      expect(safeCell(s)).toBe(neutraliseCell(s));
    }
    expect(safeCell('=1+1')).toBe("'=1+1");
    expect(safeCell(-3)).toBe(-3);
    expect(safeCell(Number.NaN)).toBe(null);
    expect(safeCell(undefined)).toBe(null);
    expect(safeCell(true)).toBe(1);
  });
});
