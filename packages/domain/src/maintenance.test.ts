import { describe, expect, it } from 'vitest';
import { type MaintenanceRule, maintenanceStatus, nextMaintenanceDue } from './maintenance.ts';

const rule = (r: Partial<MaintenanceRule>): MaintenanceRule => ({
  by: 'km',
  dueKm: null,
  dueHours: null,
  dueDate: null,
  remindBefore: 0,
  completed: false,
  ...r,
});
const meters = { odometerKm: 10_000, engineHours: 500, today: '2026-11-27' };

describe('maintenanceStatus', () => {
  it('is ok before the reminder window, due inside it, overdue at and past the threshold', () => {
    expect(maintenanceStatus(rule({ dueKm: 11_000, remindBefore: 500 }), meters)).toEqual({
      status: 'ok',
      remaining: 1000,
    });
    expect(maintenanceStatus(rule({ dueKm: 10_400, remindBefore: 500 }), meters).status).toBe('due');
    expect(maintenanceStatus(rule({ dueKm: 10_000, remindBefore: 500 }), meters).status).toBe('overdue');
    expect(maintenanceStatus(rule({ dueKm: 9_000 }), meters)).toEqual({ status: 'overdue', remaining: -1000 });
  });
  it('counts engine hours and calendar days', () => {
    expect(maintenanceStatus(rule({ by: 'hours', dueHours: 510, remindBefore: 20 }), meters)).toEqual({
      status: 'due',
      remaining: 10,
    });
    expect(maintenanceStatus(rule({ by: 'date', dueDate: '2026-12-27', remindBefore: 7 }), meters)).toEqual({
      status: 'ok',
      remaining: 30,
    });
    expect(maintenanceStatus(rule({ by: 'date', dueDate: '2026-12-01', remindBefore: 7 }), meters).status).toBe('due');
    expect(maintenanceStatus(rule({ by: 'date', dueDate: '2026-11-27' }), meters).status).toBe('overdue');
  });
  it('says done for a completed item and ok for an item without its threshold', () => {
    expect(maintenanceStatus(rule({ dueKm: 1, completed: true }), meters).status).toBe('done');
    expect(maintenanceStatus(rule({ by: 'hours' }), meters)).toEqual({ status: 'ok', remaining: null });
  });
});

describe('nextMaintenanceDue', () => {
  const none = { intervalKm: null, intervalHours: null, intervalMonths: null };
  it('adds the interval to the current reading', () => {
    expect(nextMaintenanceDue('km', { ...none, intervalKm: 5000 }, meters)).toEqual({ dueKm: 15_000 });
    expect(nextMaintenanceDue('hours', { ...none, intervalHours: 250 }, meters)).toEqual({ dueHours: 750 });
  });
  it('adds months to today, clamping to the end of the month', () => {
    expect(nextMaintenanceDue('date', { ...none, intervalMonths: 12 }, meters)).toEqual({ dueDate: '2027-11-27' });
    expect(nextMaintenanceDue('date', { ...none, intervalMonths: 3 }, { ...meters, today: '2026-11-30' })).toEqual({
      dueDate: '2027-02-28',
    });
  });
  it('has no next threshold without an interval', () => {
    expect(nextMaintenanceDue('km', none, meters)).toBeNull();
  });
});
