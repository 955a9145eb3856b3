import { OIL_VOLUME_OPTIONS_L } from './constants.ts';
import { accept, refuse, type Validated } from './result.ts';

// Form rules and field formats of spec §5. Every validator takes `unknown` (a form value or a request
// body field), never throws, and returns the normalised value or a message key with its parameters.
// Identifiers (SIM, phone, plate, IMEI) are trimmed of surrounding whitespace before they are checked.

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Plain decimal notation only: no hex, binary, 'Infinity' or blank strings. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && DECIMAL.test(value.trim())) {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
export const EMAIL_MAX_LENGTH = 254;

export function email(value: unknown): Validated<string> {
  const text = asText(value)?.trim();
  if (!text || text.length > EMAIL_MAX_LENGTH || !EMAIL.test(text)) return refuse('validation.email');
  return accept(text);
}

const SIM_NUMBER = /^(?:[A-Za-z0-9]{11}|[A-Za-z0-9]{13})$/;

export function simNumber(value: unknown): Validated<string> {
  const text = asText(value)?.trim();
  return text && SIM_NUMBER.test(text) ? accept(text) : refuse('validation.sim');
}

/** Mainland mobile: 1, then 3-9, then 9 digits. */
const MOBILE = /^1[3-9]\d{9}$/;
/** Toll-free 400 / 800: ten digits, optional dashes 400-123-4567. */
const TOLL_FREE = /^(?:400|800)-?\d{3}-?\d{4}$/;
/** Landline: area code 0 + 2-3 digits, 7-8 digit number, optional extension: 010-12345678-123. */
const LANDLINE = /^0\d{2,3}-?\d{7,8}(?:-\d{1,6})?$/;

export type TelephoneKind = 'mobile' | 'tollFree' | 'landline';

export function telephoneKind(value: unknown): TelephoneKind | undefined {
  const text = asText(value)?.trim();
  if (!text) return undefined;
  if (MOBILE.test(text)) return 'mobile';
  if (TOLL_FREE.test(text)) return 'tollFree';
  if (LANDLINE.test(text)) return 'landline';
  return undefined;
}

export function telephone(value: unknown): Validated<string> {
  return telephoneKind(value) ? accept((asText(value) as string).trim()) : refuse('validation.telephone');
}

/** Province (and embassy/consulate) characters that open a Chinese plate. */
export const PLATE_PROVINCES = '京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼使领';
/** Spec §5: province, letter, four letters or digits, a final letter, digit or special character. */
const PLATE = new RegExp(`^[${PLATE_PROVINCES}][A-Z][A-Z0-9]{4}[A-Z0-9挂学警港澳使领]$`);
/** New-energy (green) plates carry 6 characters after the letter: D/F + 5, or 5 digits + D/F. */
const NEW_ENERGY_PLATE = new RegExp(`^[${PLATE_PROVINCES}][A-Z](?:[DF][A-Z0-9]{5}|\\d{5}[DF])$`);

export function carNumber(value: unknown): Validated<string> {
  const text = asText(value)?.trim();
  return text && (PLATE.test(text) || NEW_ENERGY_PLATE.test(text)) ? accept(text) : refuse('validation.carNumber');
}

/** Fence radius bounds in metres (spec §5, §9). */
export const FENCE_RADIUS_MIN_M = 100;
export const FENCE_RADIUS_MAX_M = 1_000_000;

export function fenceRadius(value: unknown): Validated<number> {
  const n = asNumber(value);
  if (n === undefined || n < FENCE_RADIUS_MIN_M || n > FENCE_RADIUS_MAX_M) {
    return refuse('validation.fenceRadius', { min: FENCE_RADIUS_MIN_M, max: FENCE_RADIUS_MAX_M });
  }
  return accept(n);
}

/** Track playback limits (spec §5, §9). */
export const TRACK_MAX_DAYS = 90;
export const TRACK_MAX_RANGE_MS = TRACK_MAX_DAYS * 86_400_000;
export const TRACK_MAX_DEVICES = 5;

/** A track query range: begin ≤ end and at most 90 days (exactly 90 days is allowed). */
export function trackRange(begin: unknown, end: unknown): Validated<{ begin: number; end: number }> {
  const b = asNumber(begin);
  const e = asNumber(end);
  if (b === undefined || e === undefined) return refuse('validation.rangeRequired');
  if (b > e) return refuse('validation.rangeOrder');
  if (e - b > TRACK_MAX_RANGE_MS) return refuse('validation.trackDays', { days: TRACK_MAX_DAYS });
  return accept({ begin: b, end: e });
}

/** How many devices a track query shows at once: 1 to 5. */
export function trackDeviceCount(count: number): Validated<number> {
  if (!Number.isInteger(count) || count < 1) return refuse('common.selectFirst');
  if (count > TRACK_MAX_DEVICES) return refuse('validation.trackDevices', { max: TRACK_MAX_DEVICES });
  return accept(count);
}

/** An 808-protocol IMEI is exactly 11 digits (spec §5, §9). */
export const IMEI_808_LENGTH = 11;

export function imei808(value: unknown): Validated<string> {
  const text = asText(value)?.trim();
  return text && /^\d{11}$/.test(text) ? accept(text) : refuse('validation.imei808');
}

/** Values that occur more than once, each listed once, in order of first repeat. */
export function findDuplicates(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) repeated.add(value);
    else seen.add(value);
  }
  return [...repeated];
}

/** 808 IMEIs that are already taken or repeated in the import: the import is rejected (spec §5). */
export function duplicate808Imeis(imports: readonly string[], existing: ReadonlySet<string>): string[] {
  const inImport = new Set(findDuplicates(imports));
  for (const imei of imports) if (existing.has(imei)) inImport.add(imei);
  return [...inImport];
}

export const IMEI_MIN_LENGTH = 10;
export const IMEI_MAX_LENGTH = 15;
export const IMEI_STANDARD_LENGTH = 15;

export interface ImeiLines {
  /** Accepted IMEIs in input order, without repeats. */
  readonly imeis: string[];
  /** Lines refused, with their 1-based line number. */
  readonly invalid: { readonly line: number; readonly value: string }[];
  /** Accepted IMEIs whose length is not 15 (worth a second look). */
  readonly notFifteen: string[];
  /** Accepted IMEIs given more than once (kept once in `imeis`). */
  readonly duplicates: string[];
}

/**
 * IMEIs pasted one per line (spec §5): each line trimmed, blank lines skipped, 10 to 15 letters or
 * digits accepted — or exactly 15 when `exactly15` is set.
 */
export function parseImeiLines(text: string, options: { exactly15?: boolean } = {}): ImeiLines {
  const min = options.exactly15 ? IMEI_STANDARD_LENGTH : IMEI_MIN_LENGTH;
  const pattern = new RegExp(`^[A-Za-z0-9]{${min},${IMEI_MAX_LENGTH}}$`);
  const accepted: string[] = [];
  const invalid: { line: number; value: string }[] = [];
  String(text ?? '')
    .split(/\r\n|\r|\n/)
    .forEach((raw, index) => {
      const value = raw.trim();
      if (value === '') return;
      if (pattern.test(value)) accepted.push(value);
      else invalid.push({ line: index + 1, value });
    });
  const imeis = [...new Set(accepted)];
  return {
    imeis,
    invalid,
    notFifteen: imeis.filter((imei) => imei.length !== IMEI_STANDARD_LENGTH),
    duplicates: findDuplicates(accepted),
  };
}

/** Time-mode interval in whole minutes; 0 turns the mode off (spec §5). */
export function timeModeMinutes(value: unknown): Validated<{ minutes: number; off: boolean }> {
  const n = asNumber(value);
  if (n === undefined || !Number.isSafeInteger(n) || n < 0) return refuse('validation.timeMode');
  return accept({ minutes: n, off: n === 0 });
}

const CLOCK_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Timed power-on 'HH:mm', 00:00 to 23:59 (spec §5: 'like 18:30'). */
export function powerOnTime(value: unknown): Validated<{ hour: number; minute: number; text: string }> {
  const text = asText(value)?.trim() ?? '';
  const match = CLOCK_TIME.exec(text);
  if (!match) return refuse('validation.powerOnTime');
  return accept({ hour: Number(match[1]), minute: Number(match[2]), text });
}

/** A tank volume among OIL_VOLUME_OPTIONS_L (1.0–29.9 L in steps of 0.1 L, spec §9), as that option. */
export function oilVolumeLitres(value: unknown): Validated<number> {
  const n = asNumber(value);
  const option = n === undefined ? undefined : OIL_VOLUME_OPTIONS_L.find((o) => Math.abs(o - n) < 1e-9);
  return option === undefined ? refuse('validation.oilVolume') : accept(option);
}

/** Interval as a whole number of hours, at least 1 (spec §5). */
export function intervalHours(value: unknown): Validated<number> {
  const n = asNumber(value);
  if (n === undefined || !Number.isSafeInteger(n) || n < 1) return refuse('validation.intervalHours');
  return accept(n);
}
