// The track as a spreadsheet (one sheet per device): time, latitude, longitude, speed, heading, mileage.
// exceljs (the server's spreadsheet library, pinned to the same version) is loaded only when a user downloads.
import { formatMileage, headingOf, neutraliseRow } from '@carhere/domain';
import dayjs from 'dayjs';
import type { TrackData } from '../data/trackData.ts';

export interface XlsxLabels {
  time: string;
  lat: string;
  lon: string;
  speed: string;
  heading: string;
  mileage: string;
  headingName: (heading: string) => string;
}

export async function trackWorkbook(
  tracks: readonly { name: string; track: TrackData }[],
  labels: XlsxLabels,
): Promise<Blob> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  book.creator = 'Carhere';
  const used = new Set<string>();
  for (const { name, track } of tracks) {
    // Sheet names: at most 31 characters, none of : \ / ? * [ ], unique.
    let sheetName = name.replace(/[:\\/?*[\]]/g, '_').slice(0, 28) || track.terminalID.slice(-28);
    while (used.has(sheetName)) sheetName = `${sheetName.slice(0, 26)}_${used.size}`;
    used.add(sheetName);
    const sheet = book.addWorksheet(sheetName);
    sheet.columns = [
      { header: labels.time, width: 21 },
      { header: labels.lat, width: 12 },
      { header: labels.lon, width: 12 },
      { header: labels.speed, width: 12 },
      { header: labels.heading, width: 12 },
      { header: labels.mileage, width: 12 },
    ];
    for (let i = 0; i < track.length; i++) {
      const heading = headingOf(track.courses[i]);
      sheet.addRow(
        neutraliseRow([
          dayjs(track.times[i]).format('YYYY-MM-DD HH:mm:ss'),
          Number(track.lats[i].toFixed(6)),
          Number(track.lons[i].toFixed(6)),
          track.speeds[i],
          heading ? labels.headingName(heading) : '-',
          formatMileage(track.distance[i]),
        ]),
      );
    }
  }
  const buffer = await book.xlsx.writeBuffer();
  return new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}
