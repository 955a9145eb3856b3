// Notification rules (issue 18): the event names a rule may name, which names an alarm answers to, quiet hours
// and the period a scheduled report covers. Pure: the server's notifier and the web's rule editor share them.
import { fromWallClock, type TimeZone, toWallClock } from './time.ts';

/** Event names besides `alarm:<code>` / `alarm:*`. */
export const NOTIFY_EVENTS = [
  'fence.in',
  'fence.out',
  'overspeed',
  'offline',
  'online',
  'ignition.on',
  'ignition.off',
  'riskpoint.stay',
  'expiry.soon',
  'command.result',
  'maintenance',
] as const;
export type NotifyEventName = (typeof NOTIFY_EVENTS)[number];

/** Alarm codes that also carry a named event (spec §9: 4 fence in, 5 fence out, 6 overspeed; 37 risk-point stay). */
const ALARM_EVENT: Record<number, NotifyEventName> = {
  4: 'fence.in',
  5: 'fence.out',
  6: 'overspeed',
  37: 'riskpoint.stay',
};

/** True for a name a rule may carry: `alarm:*`, `alarm:<code>` or one of NOTIFY_EVENTS. */
export function isNotifyEvent(name: string): boolean {
  if (name === 'alarm:*') return true;
  const m = /^alarm:(\d{1,5})$/.exec(name);
  if (m) return Number(m[1]) <= 32767;
  return (NOTIFY_EVENTS as readonly string[]).includes(name);
}

/** The names an alarm of this code answers to, most specific first. */
export function eventNamesOfAlarm(code: number): string[] {
  const named = ALARM_EVENT[code];
  return named ? [`alarm:${code}`, named, 'alarm:*'] : [`alarm:${code}`, 'alarm:*'];
}

export interface QuietHours {
  /** 'HH:mm' */
  from: string;
  to: string;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function isClockTime(text: string): boolean {
  return HHMM.test(text);
}

function minutesOf(text: string): number {
  const m = HHMM.exec(text);
  if (!m) throw new RangeError(`not HH:mm: ${text}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** True when the instant falls in the quiet hours (in the zone); from > to spans midnight; from = to is never. */
export function inQuietHours(quiet: QuietHours | null | undefined, at: number, zone: TimeZone): boolean {
  if (!quiet) return false;
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  if (from === to) return false;
  const w = toWallClock(at, zone);
  const now = w.hour * 60 + w.minute;
  return from < to ? now >= from && now < to : now >= from || now < to;
}

export const REPORT_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];

export interface ReportPeriod {
  /** First instant of the period and the first instant after it (ms). */
  start: number;
  end: number;
  /** Local dates 'YYYY-MM-DD' of the first and last day. */
  firstDay: string;
  lastDay: string;
}

const ymd = (at: number, zone: TimeZone) => {
  const w = toWallClock(at, zone);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
};

/**
 * The last complete period before `now` in the zone: yesterday; the week (Monday to Sunday) before this one;
 * the month before this one.
 */
export function lastCompletePeriod(frequency: ReportFrequency, now: number, zone: TimeZone): ReportPeriod {
  const w = toWallClock(now, zone);
  let start: number;
  let end: number;
  if (frequency === 'daily') {
    end = fromWallClock({ year: w.year, month: w.month, day: w.day }, zone);
    start = fromWallClock({ year: w.year, month: w.month, day: w.day - 1 }, zone);
  } else if (frequency === 'weekly') {
    const weekday = (new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay() + 6) % 7; // Monday 0
    end = fromWallClock({ year: w.year, month: w.month, day: w.day - weekday }, zone);
    start = fromWallClock({ year: w.year, month: w.month, day: w.day - weekday - 7 }, zone);
  } else {
    end = fromWallClock({ year: w.year, month: w.month, day: 1 }, zone);
    start = fromWallClock({ year: w.year, month: w.month - 1, day: 1 }, zone);
  }
  return { start, end, firstDay: ymd(start, zone), lastDay: ymd(end - 1, zone) };
}
