// Maintenance reminders (issue 18): an item falls due by odometer (km), engine hours or a date. Its status against
// the device's current meters: 'ok', 'due' (inside the reminder window before the threshold) or 'overdue' (the
// threshold reached or passed); 'done' once completed without a next interval. The `maintenance` event is sent when
// an item leaves 'ok'.

export type MaintenanceBy = 'km' | 'hours' | 'date';
export type MaintenanceStatus = 'ok' | 'due' | 'overdue' | 'done';

export interface MaintenanceRule {
  by: MaintenanceBy;
  /** Odometer reading (km) at which it is due (by 'km'). */
  dueKm: number | null;
  /** Engine hours at which it is due (by 'hours'). */
  dueHours: number | null;
  /** 'YYYY-MM-DD' on which it is due (by 'date'). */
  dueDate: string | null;
  /** The reminder window before the threshold: km, hours or days after `by`. */
  remindBefore: number;
  /** Completed without a next interval. */
  completed: boolean;
}

export interface MaintenanceMeters {
  odometerKm: number;
  engineHours: number;
  /** 'YYYY-MM-DD' of today. */
  today: string;
}

const DAY_MS = 86_400_000;

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** What is left before the threshold (km, hours or days after `by`; negative once passed), and the status. */
export function maintenanceStatus(
  rule: MaintenanceRule,
  meters: MaintenanceMeters,
): { status: MaintenanceStatus; remaining: number | null } {
  let remaining: number | null = null;
  if (rule.by === 'km' && rule.dueKm !== null) remaining = rule.dueKm - meters.odometerKm;
  else if (rule.by === 'hours' && rule.dueHours !== null) remaining = rule.dueHours - meters.engineHours;
  else if (rule.by === 'date' && rule.dueDate !== null) remaining = daysBetween(meters.today, rule.dueDate);
  if (remaining !== null) remaining = Math.round(remaining * 10) / 10;
  if (rule.completed) return { status: 'done', remaining };
  if (remaining === null) return { status: 'ok', remaining };
  if (remaining <= 0) return { status: 'overdue', remaining };
  return { status: remaining <= Math.max(0, rule.remindBefore) ? 'due' : 'ok', remaining };
}

export interface MaintenanceInterval {
  intervalKm: number | null;
  intervalHours: number | null;
  intervalMonths: number | null;
}

/**
 * The next threshold after the item was done at these meters: the interval added to the current reading (km,
 * hours) or to the done date (months, the day clamped to the month's end); null without an interval.
 */
export function nextMaintenanceDue(
  by: MaintenanceBy,
  interval: MaintenanceInterval,
  meters: MaintenanceMeters,
): { dueKm?: number; dueHours?: number; dueDate?: string } | null {
  if (by === 'km' && interval.intervalKm)
    return { dueKm: Math.round((meters.odometerKm + interval.intervalKm) * 10) / 10 };
  if (by === 'hours' && interval.intervalHours)
    return { dueHours: Math.round((meters.engineHours + interval.intervalHours) * 10) / 10 };
  if (by === 'date' && interval.intervalMonths) {
    const [y, m, d] = meters.today.split('-').map(Number);
    const months = m - 1 + interval.intervalMonths;
    const year = y + Math.floor(months / 12);
    const month = months % 12;
    const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    const day = Math.min(d, last);
    return { dueDate: `${year}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}` };
  }
  return null;
}
