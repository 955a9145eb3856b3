import { describe, expect, it } from 'vitest';
import { parseAccountLines } from './parseAccountLines.ts';

describe('parseAccountLines', () => {
  it('reads username, password, nickname and telephone separated by commas, semicolons or tabs', () => {
    expect(parseAccountLines(' alice , Secret1 ,Alice,13800138000\n\nbob;;Bob\ncarol\t\t\t', 3)).toEqual([
      { username: 'alice', password: 'Secret1', nickname: 'Alice', telephone: '13800138000', role: 3 },
      { username: 'bob', nickname: 'Bob', role: 3 },
      { username: 'carol', role: 3 },
    ]);
  });

  it('gives no rows for blank text', () => {
    expect(parseAccountLines(' \n \r\n', 2)).toEqual([]);
  });
});
