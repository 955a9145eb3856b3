// The result of a factory import or stock-out: spec §8's counts and the refused lines with their reason in
// the caller's language (downloadable as CSV).
import {
  countOf,
  emptyCounts,
  type FactoryTextKey,
  factoryText,
  type ImportCounts,
  neutraliseCell,
  type StockVerdict,
} from '@carhere/domain';

export type RefusalReason =
  | Exclude<StockVerdict, 'ok'>
  | 'alreadyPreset'
  | 'notInStock'
  | 'alreadyOut'
  | 'writeFailed'
  | 'notFound';

export interface RefusedLine {
  line: number;
  value: string;
  reason: RefusalReason;
  message: string;
}

export interface ImportOutcome extends ImportCounts {
  rejected: RefusedLine[];
}

export function newOutcome(): ImportOutcome {
  return { ...emptyCounts(), rejected: [] };
}

const REASON_TEXT: Record<RefusalReason, FactoryTextKey> = {
  invalid: 'stock.invalid',
  duplicate: 'stock.duplicate',
  alreadyStocked: 'stock.alreadyStocked',
  notPreset: 'stock.notPreset',
  noFactoryTest: 'stock.noFactoryTest',
  qcFailed: 'stock.qcFailed',
  alreadyPreset: 'stock.alreadyPreset',
  notInStock: 'stock.notInStock',
  alreadyOut: 'stock.alreadyOut',
  writeFailed: 'stock.writeFailed',
  notFound: 'card.deviceNotFound',
};

/** Records a refused line under its count; `detail` replaces the reason's standard text. */
export function refuse(
  out: ImportOutcome,
  lang: string,
  line: number,
  value: string,
  reason: RefusalReason,
  detail?: string,
): void {
  const verdictReasons: readonly string[] = [
    'invalid',
    'duplicate',
    'alreadyStocked',
    'notPreset',
    'noFactoryTest',
    'qcFailed',
  ];
  const count = verdictReasons.includes(reason) ? countOf(reason as StockVerdict) : 'failure';
  out[count]++;
  out.rejected.push({ line, value, reason, message: detail ?? factoryText(REASON_TEXT[reason], lang) });
}

/**
 * CSV of the refused lines (UTF-8 with BOM so spreadsheet programs read Chinese correctly). The value is the
 * uploaded line as it came, so cells a spreadsheet would run as a formula are neutralised like every export.
 */
export function rejectedCsv(rejected: readonly RefusedLine[]): string {
  const esc = (v: string | number) => {
    const s = String(neutraliseCell(v));
    return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  const lines = [
    'line,value,reason,message',
    ...rejected.map((r) => [r.line, r.value, r.reason, r.message].map(esc).join(',')),
  ];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
