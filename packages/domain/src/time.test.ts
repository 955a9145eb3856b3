import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  DEFAULT_TIME_ZONE,
  dayKey,
  endOfDay,
  formatDateTime,
  formatOffset,
  fromWallClock,
  isValidTimeZone,
  parseDateTime,
  parseFixedOffset,
  parseInstant,
  startOfDay,
  timeZoneOffsetMs,
  toWallClock,
} from './time.ts';

const utc = (iso: string) => Date.parse(iso);

describe('zones', () => {
  it('default is UTC+8; the spec fixed offset is -8 h as getTimezoneOffset gives it', () => {
    expect(DEFAULT_TIME_ZONE).toBe('+08:00');
  });

  it('parses fixed offsets', () => {
    expect(parseFixedOffset('+08:00')).toBe(480);
    expect(parseFixedOffset('UTC+8')).toBe(480);
    expect(parseFixedOffset('GMT-05:30')).toBe(-330);
    expect(parseFixedOffset('-0930')).toBe(-570);
    expect(parseFixedOffset('UTC')).toBe(0);
    expect(parseFixedOffset('Z')).toBe(0);
    expect(parseFixedOffset('+14:00')).toBe(840);
    expect(parseFixedOffset('+14:01')).toBeUndefined();
    expect(parseFixedOffset('+08:60')).toBeUndefined();
    expect(parseFixedOffset('Asia/Shanghai')).toBeUndefined();
    expect(formatOffset(-330)).toBe('-05:30');
    expect(formatOffset(480)).toBe('+08:00');
  });

  it('validates zones', () => {
    for (const zone of ['Asia/Shanghai', 'Europe/Paris', 'America/New_York', 'UTC', '+08:00']) {
      expect(isValidTimeZone(zone), zone).toBe(true);
    }
    for (const zone of ['Mars/Olympus', '', '  ', 42, null]) expect(isValidTimeZone(zone)).toBe(false);
  });

  it('throws a clear error for an unknown zone or instant', () => {
    expect(() => timeZoneOffsetMs('Mars/Olympus', 0)).toThrow(/Unknown time zone/);
    expect(() => formatDateTime(Number.NaN)).toThrow(RangeError);
  });
});

describe('real time-zone math', () => {
  it('follows daylight saving time in IANA zones', () => {
    expect(timeZoneOffsetMs('Europe/Paris', utc('2024-01-15T12:00:00Z'))).toBe(3_600_000);
    expect(timeZoneOffsetMs('Europe/Paris', utc('2024-07-15T12:00:00Z'))).toBe(7_200_000);
    expect(timeZoneOffsetMs('America/New_York', utc('2024-07-15T12:00:00Z'))).toBe(-4 * 3_600_000);
    expect(timeZoneOffsetMs('Asia/Kolkata', utc('2024-07-15T12:00:00Z'))).toBe(5.5 * 3_600_000);
    // Paris switches to summer time at 01:00 UTC on 31 March 2024.
    expect(timeZoneOffsetMs('Europe/Paris', utc('2024-03-31T00:59:59Z'))).toBe(3_600_000);
    expect(timeZoneOffsetMs('Europe/Paris', utc('2024-03-31T01:00:00Z'))).toBe(7_200_000);
  });

  it('formats in the zone', () => {
    const at = utc('2024-07-01T16:30:05.123Z');
    expect(formatDateTime(at)).toBe('2024-07-02 00:30:05');
    expect(formatDateTime(at, 'Asia/Shanghai')).toBe('2024-07-02 00:30:05');
    expect(formatDateTime(at, 'Europe/Paris', 'YYYY-MM-DD HH:mm:ss.SSS Z')).toBe('2024-07-01 18:30:05.123 +02:00');
    expect(formatDateTime(at, 'America/New_York', 'DD/MM HH:mm')).toBe('01/07 12:30');
    expect(formatDateTime(at, 'UTC')).toBe('2024-07-01 16:30:05');
    expect(dayKey(at)).toBe('2024-07-02');
    expect(dayKey(at, '-05:00')).toBe('2024-07-01');
  });

  it('round-trips wall clocks', () => {
    for (const zone of ['+08:00', 'Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu']) {
      for (const iso of [
        '2024-01-01T00:00:00Z',
        '2024-03-31T01:30:00Z',
        '2024-11-03T04:30:00Z',
        '1999-12-31T23:59:59Z',
      ]) {
        const at = utc(iso);
        expect(fromWallClock(toWallClock(at, zone), zone), `${zone} ${iso}`).toBe(at);
      }
    }
  });

  it('moves a skipped wall time forward and takes the first of a repeated one', () => {
    // 2024-03-10 02:30 does not exist in New York: read as 03:30 EDT.
    expect(fromWallClock({ year: 2024, month: 3, day: 10, hour: 2, minute: 30 }, 'America/New_York')).toBe(
      utc('2024-03-10T07:30:00Z'),
    );
    // 2024-11-03 01:30 happens twice in New York: the first one is EDT.
    expect(fromWallClock({ year: 2024, month: 11, day: 3, hour: 1, minute: 30 }, 'America/New_York')).toBe(
      utc('2024-11-03T05:30:00Z'),
    );
    // …so the second 01:30 (EST) formats the same but does not round-trip.
    expect(formatDateTime(utc('2024-11-03T06:30:00Z'), 'America/New_York', 'HH:mm Z')).toBe('01:30 -05:00');
  });

  it('days and months in the zone', () => {
    const at = utc('2024-03-30T12:00:00Z'); // 13:00 in Paris, the day before summer time
    expect(formatDateTime(startOfDay(at, 'Europe/Paris'), 'UTC')).toBe('2024-03-29 23:00:00');
    expect(endOfDay(at, '+08:00')).toBe(utc('2024-03-30T15:59:59.999Z'));
    // The 31st of March in Paris has 23 hours.
    const next = addCalendarDays(at, 1, 'Europe/Paris');
    expect(next - at).toBe(23 * 3_600_000);
    expect(formatDateTime(next, 'Europe/Paris')).toBe('2024-03-31 13:00:00');
    expect(formatDateTime(addCalendarDays(at, -30, '+08:00'), '+08:00')).toBe('2024-02-29 20:00:00');
    const _jan31 = utc('2024-01-31T02:00:00Z');
  });

  it('parses local date-times', () => {
    expect(parseDateTime('2024-07-02 00:30:05')).toBe(utc('2024-07-01T16:30:05Z'));
    expect(parseDateTime('2024-07-02T00:30', 'UTC')).toBe(utc('2024-07-02T00:30:00Z'));
    expect(parseDateTime('2024-07-02', 'Europe/Paris')).toBe(utc('2024-07-01T22:00:00Z'));
    expect(parseDateTime('2024-07-02 00:30:05.5', 'UTC')).toBe(utc('2024-07-02T00:30:05.500Z'));
    for (const bad of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-07-02 24:00', '2024-7-2', 'yesterday']) {
      expect(parseDateTime(bad), bad).toBeUndefined();
    }
    expect(parseDateTime('2024-02-29')).toBeDefined();
  });
});

describe('parseInstant', () => {
  it('reads zone-less dates and date-times in the platform zone (UTC+8), never the host zone', () => {
    expect(parseInstant('2026-11-22 08:00:00')).toBe(Date.UTC(2026, 10, 22, 0));
    expect(parseInstant('2026-11-22T08:00')).toBe(Date.UTC(2026, 10, 22, 0));
    expect(parseInstant('2026-11-22')).toBe(Date.UTC(2026, 10, 21, 16));
    expect(parseInstant('2026-11-22 08:00:00', 'UTC')).toBe(Date.UTC(2026, 10, 22, 8));
  });

  it('keeps explicit zones and epoch milliseconds', () => {
    expect(parseInstant('2026-11-22T08:00:00Z')).toBe(Date.UTC(2026, 10, 22, 8));
    expect(parseInstant('2026-11-22T08:00:00.250+02:00')).toBe(Date.UTC(2026, 10, 22, 6, 0, 0, 250));
    expect(parseInstant('1795334400000')).toBe(1795334400000);
    expect(parseInstant(1795334400000)).toBe(1795334400000);
  });

  it('refuses host-dependent forms, impossible dates and out-of-range instants', () => {
    for (const bad of ['Nov 22 2026', '2026-02-30', '2026-11-22 25:00', '+275760-09-13T00:00:00Z', 'x']) {
      expect(parseInstant(bad), bad).toBeUndefined();
    }
    expect(parseInstant(9e15)).toBeUndefined();
    expect(parseInstant(Number.NaN)).toBeUndefined();
  });
});
