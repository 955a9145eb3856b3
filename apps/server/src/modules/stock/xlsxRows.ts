// A lean reader for the first sheet of an xlsx upload (stock and SIM card imports of 100,000 rows and more):
// the zip's central directory is read by hand, the parts needed (workbook, its relations, shared strings,
// styles, the first sheet) are inflated by node:zlib, and the sheet's XML is scanned once for its rows and cells.
// No workbook model is built, which makes a 100,000-row sheet a fraction of a second's work instead of seconds.
// Cells come back as text the way the imports read them: numbers without exponent (integers without decimals),
// date-formatted numbers as YYYY-MM-DD, booleans as true/false, errors as '', formulas as their cached result.
// Files this reader does not understand (zip64, encryption, unknown compression) answer null so the caller can
// fall back to a full reader.
import { inflateRawSync } from 'node:zlib';

export interface XlsxRow {
  /** The row number in the sheet (1-based). */
  line: number;
  /** The cells' text, from column A, empty cells as ''. Trailing empty cells are dropped. */
  cells: string[];
}

interface ZipEntry {
  method: number;
  compressedSize: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** The zip's entries by name, from its central directory; null when it is not a zip this reader handles. */
function zipEntries(buf: Buffer): Map<string, ZipEntry> | null {
  if (buf.length < 22) return null;
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  if (p === 0xffffffff || count === 0xffff) return null; // zip64
  const entries = new Map<string, ZipEntry>();
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CENTRAL) return null;
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const compressedSize = buf.readUInt32LE(p + 20);
    const nameLength = buf.readUInt16LE(p + 28);
    const extraLength = buf.readUInt16LE(p + 30);
    const commentLength = buf.readUInt16LE(p + 32);
    const localOffset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLength);
    if (flags & 1) return null; // encrypted
    if (compressedSize === 0xffffffff || localOffset === 0xffffffff) return null;
    entries.set(name.replace(/^\//, ''), { method, compressedSize, localOffset });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function readEntry(buf: Buffer, entries: Map<string, ZipEntry>, name: string): string | null {
  const e = entries.get(name);
  if (!e) return null;
  const p = e.localOffset;
  if (p + 30 > buf.length || buf.readUInt32LE(p) !== LOCAL) throw new Error('bad local header');
  const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
  const data = buf.subarray(start, start + e.compressedSize);
  if (e.method === 0) return data.toString('utf8');
  if (e.method === 8) return inflateRawSync(data).toString('utf8');
  throw new Error(`compression ${e.method}`);
}

const ENTITY = /&(?:#(\d+)|#x([0-9a-fA-F]+)|(lt|gt|amp|quot|apos));/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function unescapeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY, (_, dec: string, hex: string, name: string) =>
    dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(Number.parseInt(hex, 16)) : NAMED[name],
  );
}

/** The text of a string item (<si> or <is>): its <t> runs, without phonetic guides (<rPh>). */
function itemText(xml: string): string {
  const plain = xml.includes('<rPh') ? xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '') : xml;
  let text = '';
  for (const m of plain.matchAll(/<t\b[^>]*?(?:\/>|>([\s\S]*?)<\/t>)/g)) text += m[1] ?? '';
  return unescapeXml(text);
}

function sharedStrings(xml: string | null): string[] {
  if (!xml) return [];
  const out: string[] = [];
  // Most items are one plain run (<si><t>text</t></si>): read without a second scan.
  for (const m of xml.matchAll(/<si>(?:<t(?: xml:space="preserve")?>([^<]*)<\/t><\/si>|([\s\S]*?)<\/si>)|<si\/>/g))
    out.push(m[1] !== undefined ? unescapeXml(m[1]) : itemText(m[2] ?? ''));
  return out;
}

/** Built-in number formats that show dates or times (ECMA-376 18.8.30, with the East Asian ones). */
const DATE_FORMAT_IDS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47,
]);
for (let id = 50; id <= 58; id++) DATE_FORMAT_IDS.add(id);

function isDateFormatCode(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '');
  return /[ymdhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

/** For each cell style index (the s attribute), whether it formats a number as a date. */
function dateStyles(xml: string | null): boolean[] {
  if (!xml) return [];
  const custom = new Map<number, string>();
  for (const m of xml.matchAll(/<numFmt\b([^>]*)>/g)) {
    const id = /numFmtId="(\d+)"/.exec(m[1]);
    const code = /formatCode="([^"]*)"/.exec(m[1]);
    if (id && code) custom.set(Number(id[1]), unescapeXml(code[1]));
  }
  const xfs = /<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(xml);
  if (!xfs) return [];
  const out: boolean[] = [];
  for (const m of xfs[1].matchAll(/<xf\b([^>]*)>/g)) {
    const id = Number(/numFmtId="(\d+)"/.exec(m[1])?.[1] ?? 0);
    const code = custom.get(id);
    out.push(code === undefined ? DATE_FORMAT_IDS.has(id) : isDateFormatCode(code));
  }
  return out;
}

/** The path of the workbook's first sheet (the first <sheet> of workbook.xml, through its relationship). */
function firstSheetPath(workbook: string | null, rels: string | null): string {
  const fallback = 'xl/worksheets/sheet1.xml';
  if (!workbook || !rels) return fallback;
  const sheet = /<sheet\b[^>]*?\br:id="([^"]+)"/.exec(workbook) ?? /<sheet\b[^>]*?\bid="([^"]+)"/.exec(workbook);
  if (!sheet) return fallback;
  for (const m of rels.matchAll(/<Relationship\b([^>]*)>/g)) {
    if (/\bId="([^"]+)"/.exec(m[1])?.[1] !== sheet[1]) continue;
    const target = /\bTarget="([^"]+)"/.exec(m[1])?.[1];
    if (!target) return fallback;
    return target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
  }
  return fallback;
}

/** Column index (0-based) of a cell reference such as "AB12"; -1 without one. */
function columnOf(ref: string | undefined): number {
  if (!ref) return -1;
  let col = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    col = col * 26 + (c - 64);
  }
  return col - 1;
}

function numberText(v: string): string {
  const n = Number(v);
  if (!Number.isFinite(n)) return v;
  return Number.isInteger(n) ? n.toFixed(0) : String(n);
}

/** An Excel serial day number as YYYY-MM-DD (1900 system, or 1904). */
function serialDate(v: string, date1904: boolean): string {
  const n = Number(v);
  if (!Number.isFinite(n)) return v;
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  return new Date(epoch + Math.round(n * 86_400_000)).toISOString().slice(0, 10);
}

const ROW = /<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g;
const CELL = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;
const VALUE = /<v\b[^>]*>([\s\S]*?)<\/v>/;

/** The rows of the first sheet; null when the file is not a workbook this reader handles. */
export function leanXlsxRows(buf: Buffer): XlsxRow[] | null {
  const entries = zipEntries(buf);
  if (!entries) return null;
  try {
    const workbook = readEntry(buf, entries, 'xl/workbook.xml');
    const path = firstSheetPath(workbook, readEntry(buf, entries, 'xl/_rels/workbook.xml.rels'));
    const sheet = readEntry(buf, entries, path);
    if (sheet === null) return null;
    const strings = sharedStrings(readEntry(buf, entries, 'xl/sharedStrings.xml'));
    const dates = dateStyles(readEntry(buf, entries, 'xl/styles.xml'));
    const date1904 = workbook !== null && /<workbookPr\b[^>]*\bdate1904="(?:1|true)"/.test(workbook);
    const rows: XlsxRow[] = [];
    const seenDates = new Map<string, string>();
    let line = 0;
    for (const r of sheet.matchAll(ROW)) {
      const rowNumber = /\br="(\d+)"/.exec(r[1]);
      line = rowNumber ? Number(rowNumber[1]) : line + 1;
      const cells: string[] = [];
      let col = -1;
      for (const c of (r[2] ?? '').matchAll(CELL)) {
        const attrs = c[1];
        const at = columnOf(/\br="([A-Z]+)/.exec(attrs)?.[1]);
        col = at >= 0 ? at : col + 1;
        const type = /\bt="(\w+)"/.exec(attrs)?.[1] ?? 'n';
        const inner = c[2] ?? '';
        let text = '';
        if (type === 'inlineStr') text = itemText(/<is>([\s\S]*?)<\/is>/.exec(inner)?.[1] ?? '');
        else {
          const raw = VALUE.exec(inner)?.[1];
          if (raw === undefined) text = '';
          else if (type === 's') text = strings[Number(raw)] ?? '';
          else if (type === 'str') text = unescapeXml(raw);
          else if (type === 'e') text = '';
          else if (type === 'b') text = raw === '1' ? 'true' : 'false';
          else if (type === 'd') text = raw.slice(0, 10);
          else {
            const style = Number(/\bs="(\d+)"/.exec(attrs)?.[1] ?? 0);
            if (!dates[style]) text = numberText(raw);
            else {
              // A file's dates repeat (production and activation days): convert each serial once.
              text = seenDates.get(raw) ?? serialDate(raw, date1904);
              seenDates.set(raw, text);
            }
          }
        }
        while (cells.length < col) cells.push('');
        cells[col] = text.trim();
      }
      while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
      if (cells.length > 0) rows.push({ line, cells });
    }
    return rows;
  } catch {
    return null;
  }
}
