// Stock (spec §7 "stock", §8 import result counts): one meaning of "in stock" for the factory and the customer
// side, and the verdict of an import line against the factory checks.
//
// The one meaning, used by both sides:
// - An IMEI is *stocked* once it has a row in `devices` (it has entered the platform). Importing it again is
//   "already stocked", whether the factory's importDevice or a customer's deviceImport tries.
// - A stocked device with no owner is *in stock* (the factory holds it); with an owner it is *out* (delivered
//   to an agent by Removal, or imported straight into an account by a customer).
// - An IMEI on the factory's preset list with no device row yet is *unused* (allocated, not produced).
// The stock state is derived from the device row, never stored beside it, so the two sides cannot disagree.

export type StockState = 'unused' | 'in' | 'out';
export const STOCK_STATES: readonly StockState[] = ['unused', 'in', 'out'];

/** Why an import line was refused; `ok` lines are imported. */
export type StockVerdict =
  | 'ok'
  | 'invalid'
  | 'duplicate'
  | 'alreadyStocked'
  | 'notPreset'
  | 'noFactoryTest'
  | 'qcFailed';

/** Spec §8's import result counts. */
export type ImportCount = 'success' | 'failure' | 'unqualified' | 'noFactoryTest' | 'notPreset' | 'alreadyStocked';

export interface StockLineFacts {
  /** The IMEI passes the format rule. */
  valid: boolean;
  /** Listed earlier in the same import. */
  repeated: boolean;
  /** Already has a device row. */
  stocked: boolean;
  /** On the factory's preset IMEI list. */
  preset: boolean;
  /** The latest QC result: true pass, false fail, null none. */
  qcPass: boolean | null;
}

/**
 * The factory checks, in order: a malformed line, a repeat, an IMEI already stocked, one not on the preset list,
 * one without a factory test record, one whose latest test failed. Without the factory checks only the first
 * three apply.
 */
export function stockVerdict(facts: StockLineFacts, factoryChecks: boolean): StockVerdict {
  if (!facts.valid) return 'invalid';
  if (facts.repeated) return 'duplicate';
  if (facts.stocked) return 'alreadyStocked';
  if (!factoryChecks) return 'ok';
  if (!facts.preset) return 'notPreset';
  if (facts.qcPass === null) return 'noFactoryTest';
  if (!facts.qcPass) return 'qcFailed';
  return 'ok';
}

/** The result count a verdict adds to: malformed and failed-QC lines are both "unqualified". */
export function countOf(verdict: StockVerdict): ImportCount {
  switch (verdict) {
    case 'ok':
      return 'success';
    case 'invalid':
    case 'qcFailed':
      return 'unqualified';
    case 'duplicate':
      return 'failure';
    default:
      return verdict;
  }
}

export type ImportCounts = Record<ImportCount, number>;

export function emptyCounts(): ImportCounts {
  return { success: 0, failure: 0, unqualified: 0, noFactoryTest: 0, notPreset: 0, alreadyStocked: 0 };
}

/** One line of a stock or card import file: its cells, trimmed. Separators: tab, comma, semicolon, spaces. */
export function splitCells(line: string): string[] {
  const trimmed = line.trim();
  if (trimmed === '') return [];
  const sep = /[\t,;]/.test(trimmed) ? / *[\t,;] */ : /\s+/;
  return trimmed.split(sep).map((c) => c.trim());
}

/** A line whose first cell is not an IMEI-like value but a column title ("IMEI", "imei号"…). */
export function isHeaderRow(cells: readonly string[]): boolean {
  return cells.length > 0 && !/\d{6}/.test(cells[0]);
}

const IMEI = /^[A-Za-z0-9]{10,15}$/;
const ICCID = /^[0-9]{19}[0-9Ff]?$/;

export function isImeiLike(value: string): boolean {
  return IMEI.test(value);
}

/** An ICCID: 19 or 20 digits (the last may be the letter F some SIMs report). */
export function isIccid(value: string): boolean {
  return ICCID.test(value);
}

/** ICCIDs as devices report them: upper case, no padding 'F'. Cards and devices compare in this form. */
export function normalizeIccid(value: string): string {
  return value.trim().toUpperCase().replace(/F$/, '');
}
