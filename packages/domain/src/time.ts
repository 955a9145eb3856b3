// Time-zone math with the standard library only: IANA zones through Intl.DateTimeFormat (so daylight
// saving time is right), fixed offsets ('+08:00', 'UTC+8', 'GMT-05:30') by arithmetic. All instants
// are epoch milliseconds.

/** An IANA zone name ('Asia/Shanghai', 'Europe/Paris', 'UTC') or a fixed offset ('+08:00', 'UTC-5'). */
export type TimeZone = string;

/** Display zone when the user has none: UTC+8 (spec §9). */
export const DEFAULT_TIME_ZONE: TimeZone = '+08:00';

export const MS_PER_MINUTE = 60_000;
export const MS_PER_HOUR = 3_600_000;
export const MS_PER_DAY = 86_400_000;

/** Calendar fields of an instant as seen in a zone. month is 1-12. */
export interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
}

const FIXED_OFFSET = /^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/i;
const MAX_OFFSET_MINUTES = 14 * 60;

/** Offset in minutes of a fixed-offset zone name, or undefined when the name is not one. */
export function parseFixedOffset(zone: string): number | undefined {
  const text = zone.trim();
  if (/^(?:UTC|GMT|Z)$/i.test(text)) return 0;
  const match = FIXED_OFFSET.exec(text);
  if (!match) return undefined;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  if (Number(match[3] ?? 0) >= 60 || minutes > MAX_OFFSET_MINUTES) return undefined;
  return match[1] === '-' ? -minutes : minutes;
}

/** '+08:00' style name of an offset in minutes. */
export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Intl accepts zone names in any letter case, so untrusted input could grow the cache without this bound. */
const MAX_CACHED_FORMATTERS = 512;

function formatterFor(zone: string): Intl.DateTimeFormat | undefined {
  let formatter = formatters.get(zone);
  if (formatter) return formatter;
  try {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return undefined;
  }
  if (formatters.size >= MAX_CACHED_FORMATTERS) formatters.clear();
  formatters.set(zone, formatter);
  return formatter;
}

/** True for a fixed offset or an IANA zone this runtime knows. */
export function isValidTimeZone(zone: unknown): zone is TimeZone {
  if (typeof zone !== 'string' || zone.trim() === '') return false;
  return parseFixedOffset(zone) !== undefined || formatterFor(zone) !== undefined;
}

function requireZone(zone: TimeZone): { fixed: number } | { formatter: Intl.DateTimeFormat } {
  const fixed = parseFixedOffset(zone);
  if (fixed !== undefined) return { fixed };
  const formatter = formatterFor(zone);
  if (!formatter) throw new RangeError(`Unknown time zone: ${JSON.stringify(zone)}`);
  return { formatter };
}

/** Epoch ms of calendar fields read as UTC; works for years 0-99 too (Date.UTC would shift them to 19xx). */
function utcFromFields(w: WallClock): number {
  const date = new Date(0);
  date.setUTCFullYear(w.year, w.month - 1, w.day);
  date.setUTCHours(w.hour, w.minute, w.second, w.millisecond);
  return date.getTime();
}

function fieldsOfUtc(ms: number): WallClock {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
  };
}

function ianaOffsetMs(formatter: Intl.DateTimeFormat, at: number): number {
  const millisecond = ((at % 1000) + 1000) % 1000;
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(at)) parts[part.type] = part.value;
  const year = Number(parts.year);
  const wall: WallClock = {
    year: parts.era === 'BC' || parts.era === 'B' ? 1 - year : year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond,
  };
  return utcFromFields(wall) - at;
}

function assertInstant(at: number): void {
  if (!Number.isFinite(at)) throw new RangeError(`Not a valid instant: ${at}`);
}

/** Offset of the zone's wall clock from UTC at an instant, in ms (UTC+8 → 28800000). */
export function timeZoneOffsetMs(zone: TimeZone, at: number): number {
  assertInstant(at);
  const resolved = requireZone(zone);
  return 'fixed' in resolved ? resolved.fixed * MS_PER_MINUTE : ianaOffsetMs(resolved.formatter, at);
}

/** The calendar fields of an instant in a zone. */
export function toWallClock(at: number, zone: TimeZone = DEFAULT_TIME_ZONE): WallClock {
  return fieldsOfUtc(at + timeZoneOffsetMs(zone, at));
}

/**
 * The instant a wall-clock time names in a zone. Out-of-range fields roll over (day 32 → next month).
 * A time skipped by a daylight-saving jump is moved forward by the jump; a repeated time takes its
 * first occurrence (the same choices as Temporal's 'compatible' disambiguation).
 */
export function fromWallClock(
  wall: Partial<WallClock> & Pick<WallClock, 'year'>,
  zone: TimeZone = DEFAULT_TIME_ZONE,
): number {
  const fields: WallClock = {
    year: wall.year,
    month: wall.month ?? 1,
    day: wall.day ?? 1,
    hour: wall.hour ?? 0,
    minute: wall.minute ?? 0,
    second: wall.second ?? 0,
    millisecond: wall.millisecond ?? 0,
  };
  const local = utcFromFields(fields);
  assertInstant(local);
  const resolved = requireZone(zone);
  if ('fixed' in resolved) return local - resolved.fixed * MS_PER_MINUTE;
  const offsetAt = (t: number) => ianaOffsetMs(resolved.formatter, t);
  const before = offsetAt(local - MS_PER_DAY);
  const after = offsetAt(local + MS_PER_DAY);
  const candidates = [before, after]
    .map((offset) => local - offset)
    .filter((t) => offsetAt(t) === local - t)
    .sort((a, b) => a - b);
  if (candidates.length > 0) return candidates[0];
  // In a gap: read the wall time with the offset in force before the jump, which lands after it.
  return local - before;
}

/** Start (00:00:00.000) of the calendar day of an instant in a zone. */
export function startOfDay(at: number, zone: TimeZone = DEFAULT_TIME_ZONE): number {
  const w = toWallClock(at, zone);
  return fromWallClock({ year: w.year, month: w.month, day: w.day }, zone);
}

/** Last millisecond (23:59:59.999) of the calendar day of an instant in a zone. */
export function endOfDay(at: number, zone: TimeZone = DEFAULT_TIME_ZONE): number {
  const w = toWallClock(at, zone);
  return fromWallClock({ year: w.year, month: w.month, day: w.day + 1 }, zone) - 1;
}

/** Same wall-clock time `days` calendar days later (or earlier) in a zone; days are 23-25 h across DST. */
export function addCalendarDays(at: number, days: number, zone: TimeZone = DEFAULT_TIME_ZONE): number {
  const w = toWallClock(at, zone);
  return fromWallClock({ ...w, day: w.day + days }, zone);
}

function daysInMonth(year: number, month: number): number {
  return fieldsOfUtc(utcFromFields({ year, month: month + 1, day: 0, hour: 0, minute: 0, second: 0, millisecond: 0 }))
    .day;
}

function pad(n: number, width: number): string {
  const text = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${text}` : text;
}

const TOKENS = /YYYY|MM|DD|HH|mm|ss|SSS|Z/g;

/**
 * Formats an instant in a zone. Tokens: YYYY MM DD HH mm ss SSS, and Z for the offset (+08:00).
 * Default pattern 'YYYY-MM-DD HH:mm:ss', default zone UTC+8.
 */
export function formatDateTime(
  at: number,
  zone: TimeZone = DEFAULT_TIME_ZONE,
  pattern = 'YYYY-MM-DD HH:mm:ss',
): string {
  const offset = timeZoneOffsetMs(zone, at);
  const w = fieldsOfUtc(at + offset);
  return pattern.replace(TOKENS, (token) => {
    switch (token) {
      case 'YYYY':
        return pad(w.year, 4);
      case 'MM':
        return pad(w.month, 2);
      case 'DD':
        return pad(w.day, 2);
      case 'HH':
        return pad(w.hour, 2);
      case 'mm':
        return pad(w.minute, 2);
      case 'ss':
        return pad(w.second, 2);
      case 'SSS':
        return pad(w.millisecond, 3);
      default:
        return formatOffset(Math.round(offset / MS_PER_MINUTE));
    }
  });
}

/** 'YYYY-MM-DD' of an instant in a zone. */
export function dayKey(at: number, zone: TimeZone = DEFAULT_TIME_ZONE): string {
  return formatDateTime(at, zone, 'YYYY-MM-DD');
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;

/**
 * Reads 'YYYY-MM-DD', 'YYYY-MM-DD HH:mm' or 'YYYY-MM-DD HH:mm:ss(.SSS)' as a wall-clock time in a
 * zone. Undefined for text that is not such a date or names an impossible one (2024-02-30).
 */
export function parseDateTime(text: string, zone: TimeZone = DEFAULT_TIME_ZONE): number | undefined {
  const match = LOCAL_DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((v) => Number(v ?? 0));
  const millisecond = Number((match[7] ?? '0').padEnd(3, '0'));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  return fromWallClock({ year, month, day, hour, minute, second, millisecond }, zone);
}

const ZONED_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
/** Instants accepted: 1900-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z. */
const MIN_INSTANT = -2_208_988_800_000;
const MAX_INSTANT = 253_402_300_799_999;

/**
 * An instant from API input, the same on every host whatever its TZ: epoch milliseconds (digits), ISO-8601
 * with a zone ('…Z', '…+08:00'), or a date / date-time without a zone ('2026-11-22', '2026-11-22 08:00:00',
 * '2026-11-22T08:00') read as a wall-clock time in `zone` — the platform's zone, UTC+8 (spec §9), unless the
 * caller names another. JavaScript's Date.parse would read a zone-less date-time in the host's zone and a
 * date in UTC. Undefined for anything else, impossible dates, and instants outside 1900–9999.
 */
export function parseInstant(value: string | number, zone: TimeZone = DEFAULT_TIME_ZONE): number | undefined {
  let ms: number | undefined;
  if (typeof value === 'number') ms = value;
  else {
    const text = value.trim();
    if (/^\d{1,16}$/.test(text)) ms = Number(text);
    else if (ZONED_ISO.test(text)) ms = Date.parse(text);
    else ms = parseDateTime(text.replace(/(\.\d{3})\d+$/, '$1'), zone);
  }
  if (ms === undefined || !Number.isFinite(ms) || ms < MIN_INSTANT || ms > MAX_INSTANT) return undefined;
  return ms;
}
