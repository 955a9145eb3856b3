// Production test results as test stations upload them (spec §7 "serials", "test serial result").
//
// v1 — one result per line of text, as a station's serial-port logger writes it:
//   IMEI,MODEL,FIRMWARE,GSM,SATELLITES,CN0,RESULT[,BATCH[,TTFF]]
//   e.g. 868120301234567,Gt06,GT06_V2.1.3,24,9,43,PASS,B2026-11,32
// Fields are separated by commas, tabs or semicolons; empty numeric fields mean "not measured"; RESULT is
// PASS/OK/1 or FAIL/NG/0; lines starting with '#' and blank lines are skipped.
//
// v2 — JSON (see the server's OpenAPI): a station, a batch and a list of results with nested GSM and GPS
// measurements. Both are normalised into the same SerialResult here.
import { isImeiLike, splitCells } from './stock.ts';

export type SerialKind = 'v1' | 'v2' | 'gps';

export interface SerialResult {
  imei: string;
  model: string;
  firmware: string | null;
  batch: string;
  station: string;
  gsm: number | null;
  satellites: number | null;
  cn0: number | null;
  ttff: number | null;
  stationPass: boolean | null;
  /** Milliseconds since the epoch; null: when received. */
  testedAt: number | null;
}

export interface SerialLineError {
  line: number;
  text: string;
  /** What is wrong: 'imei', 'fields', 'number', 'result'. */
  problem: 'imei' | 'fields' | 'number' | 'result';
}

function parseVerdict(value: string): boolean | null | undefined {
  const v = value.trim().toUpperCase();
  if (v === '') return null;
  if (v === 'PASS' || v === 'OK' || v === '1' || v === 'TRUE') return true;
  if (v === 'FAIL' || v === 'NG' || v === '0' || v === 'FALSE') return false;
  return undefined;
}

function parseMeasure(value: string | undefined): number | null | undefined {
  const v = (value ?? '').trim();
  if (v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 && n < 100_000 ? n : undefined;
}

/** Parses v1 text; good lines become results, bad ones are reported with their line number. */
export function parseSerialV1(text: string, station = ''): { results: SerialResult[]; errors: SerialLineError[] } {
  const results: SerialResult[] = [];
  const errors: SerialLineError[] = [];
  String(text ?? '')
    .split(/\r\n|\r|\n/)
    .forEach((raw, index) => {
      const line = index + 1;
      const trimmed = raw.trim();
      if (trimmed === '' || trimmed.startsWith('#')) return;
      const cells = splitCells(trimmed);
      const fail = (problem: SerialLineError['problem']) => errors.push({ line, text: trimmed, problem });
      if (cells.length < 7) {
        fail('fields');
        return;
      }
      const [imei, model, firmware, gsm, sats, cn0, verdict, batch, ttff] = cells;
      if (!isImeiLike(imei)) {
        fail('imei');
        return;
      }
      const measures = [parseMeasure(gsm), parseMeasure(sats), parseMeasure(cn0), parseMeasure(ttff)];
      if (measures.some((m) => m === undefined)) {
        fail('number');
        return;
      }
      const pass = parseVerdict(verdict);
      if (pass === undefined) {
        fail('result');
        return;
      }
      const [g, s, c, t] = measures as (number | null)[];
      results.push({
        imei,
        model: model ?? '',
        firmware: firmware ? firmware : null,
        batch: batch ?? '',
        station,
        gsm: g,
        satellites: s,
        cn0: c,
        ttff: t,
        stationPass: pass,
        testedAt: null,
      });
    });
  return { results, errors };
}
