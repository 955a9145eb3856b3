/** True if the fields name a real calendar time (year is the full year). */
export function isCalendarTime(year: number, month: number, day: number, hour: number, minute: number, second: number) {
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1-12). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/**
 * Epoch milliseconds of a wall-clock time given in a zone `offsetMinutes` east of UTC. Out-of-range
 * fields roll over (month 13 is next January) so the result is always a finite number; callers use
 * isCalendarTime to flag such times.
 */
export function wallClockToEpoch(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  offsetMinutes: number,
): number {
  if (month < 1 || month > 12) return Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60_000;
  const days = daysFromCivil(year, month, day);
  return ((days * 24 + hour) * 60 + minute - offsetMinutes) * 60_000 + second * 1000;
}

/** Value of one packed-BCD byte; nibbles above 9 count as their binary value (lenient, like most devices). */
export function bcdByte(b: number): number {
  return (b >> 4) * 10 + (b & 15);
}

/** True if both nibbles of the byte are decimal digits. */
export function isBcdByte(b: number): boolean {
  return (b & 0xf0) <= 0x90 && (b & 0x0f) <= 0x09;
}
