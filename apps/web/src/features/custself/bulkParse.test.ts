import { describe, expect, it } from 'vitest';
import { rowsFromText } from './bulkParse.ts';

describe('bulk edit input', () => {
  it('reads pasted spreadsheet lines: header skipped, empty cells left out, columns in template order', () => {
    const text = 'IMEI\tName\tPlate\tSIM\n868120000000001\tTruck 1\t\t13800000001\n868120000000002\t\t京A12345\n';
    expect(rowsFromText(text)).toEqual([
      { terminalID: '868120000000001', nickname: 'Truck 1', sim: '13800000001' },
      { terminalID: '868120000000002', carNumber: '京A12345' },
    ]);
  });

  it('takes commas or semicolons when nothing is tab-separated, up to the icon column', () => {
    expect(rowsFromText('13900000001,,,,,Li Wei,13900001111,8,3')).toEqual([
      { terminalID: '13900000001', driverName: 'Li Wei', driverPhone: '13900001111', deviceType: '8', iconType: '3' },
    ]);
    expect(rowsFromText('13900000001;Van')).toEqual([{ terminalID: '13900000001', nickname: 'Van' }]);
  });
});
