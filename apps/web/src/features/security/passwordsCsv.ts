// The one-time passwords of a reset, import or sale as a CSV file. Every cell is quoted and goes through the
// exports' one neutraliser (a cell a spreadsheet would run as a formula gets a leading apostrophe).
import { neutraliseCell } from '@carhere/domain';

export interface IssuedPassword {
  account: string;
  password: string;
}

const cell = (v: string) => `"${String(neutraliseCell(v)).replace(/"/g, '""')}"`;

export function passwordsCsv(rows: readonly IssuedPassword[], header: [string, string]): string {
  return [header, ...rows.map((r) => [r.account, r.password])].map((r) => r.map(cell).join(',')).join('\r\n');
}

export function downloadPasswords(rows: readonly IssuedPassword[], header: [string, string], fileName: string): void {
  const blob = new Blob([`\ufeff${passwordsCsv(rows, header)}`], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
