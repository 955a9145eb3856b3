import { describe, expect, it } from 'vitest';
import { passwordsCsv } from './passwordsCsv.ts';

describe('passwordsCsv', () => {
  it('quotes every cell and keeps one row per account', () => {
    const csv = passwordsCsv(
      [
        { account: '8612345', password: 'abcDEF234xyz' },
        { account: 'a"b', password: 'p' },
      ],
      ['Account', 'Password'],
    );
    expect(csv.split('\r\n')).toEqual(['"Account","Password"', '"8612345","abcDEF234xyz"', '"a""b","p"']);
  });

  it('neutralises a cell a spreadsheet would run as a formula', () => {
    const csv = passwordsCsv([{ account: '=HYPERLINK("x")', password: '-abc+1' }], ['Account', 'Password']);
    expect(csv.split('\r\n')[1]).toBe('"\'=HYPERLINK(""x"")","\'-abc+1"');
  });
});
