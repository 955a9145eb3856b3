// The track spreadsheet goes through the domain's formula neutraliser like every other export: text cells
// that would start a formula stay text.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { emptyTrack } from '../data/trackData.ts';
import { trackWorkbook } from './xlsx.ts';

describe('track workbook', () => {
  it('neutralises text cells that start like a formula, numbers stay numbers', async () => {
    const track = emptyTrack('1', '868120000000001', 2);
    track.times.set([Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1, 0, 1)]);
    track.lats.set([39.9, 39.91]);
    track.lons.set([116.4, 116.41]);
    track.courses.set([90, 180]);
    const blob = await trackWorkbook([{ name: '=cmd|/c calc', track }], {
      time: 'Time',
      lat: 'Lat',
      lon: 'Lon',
      speed: 'Speed',
      heading: 'Heading',
      mileage: 'Mileage',
      headingName: (h) => `=HYPERLINK("http://x/${h}")`,
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await blob.arrayBuffer());
    const row = book.worksheets[0].getRow(2);
    expect(row.getCell(5).value).toBe('\'=HYPERLINK("http://x/east")');
    expect(row.getCell(2).value).toBe(39.9);
    book.worksheets[0].eachRow((r) =>
      r.eachCell((c) => {
        expect(c.type).not.toBe(ExcelJS.ValueType.Formula);
      }),
    );
  });
});
