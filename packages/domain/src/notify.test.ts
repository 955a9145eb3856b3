import { describe, expect, it } from 'vitest';
import { eventNamesOfAlarm, inQuietHours, isNotifyEvent, lastCompletePeriod } from './notify.ts';
import { notifyEventTitle } from './notifyTexts.ts';

describe('notification rules', () => {
  it('knows the event names', () => {
    for (const name of ['alarm:*', 'alarm:1', 'alarm:80', 'fence.in', 'maintenance', 'expiry.soon']) {
      expect(isNotifyEvent(name), name).toBe(true);
    }
    for (const name of ['alarm:', 'alarm:x', 'alarm:99999', 'fence', 'teleport'])
      expect(isNotifyEvent(name)).toBe(false);
    expect(eventNamesOfAlarm(4)).toEqual(['alarm:4', 'fence.in', 'alarm:*']);
    expect(eventNamesOfAlarm(6)).toEqual(['alarm:6', 'overspeed', 'alarm:*']);
    expect(eventNamesOfAlarm(1)).toEqual(['alarm:1', 'alarm:*']);
  });

  it('quiet hours in the account zone, across midnight', () => {
    const at = Date.UTC(2026, 10, 27, 15, 30); // 23:30 in UTC+8
    expect(inQuietHours({ from: '22:00', to: '07:00' }, at, '+08:00')).toBe(true);
    expect(inQuietHours({ from: '22:00', to: '07:00' }, at, '+00:00')).toBe(false);
    expect(inQuietHours({ from: '15:00', to: '16:00' }, at, '+00:00')).toBe(true);
    expect(inQuietHours({ from: '15:30', to: '15:30' }, at, '+00:00')).toBe(false);
    expect(inQuietHours(null, at, '+00:00')).toBe(false);
  });

  it('the last complete day, week and month in a zone', () => {
    const now = Date.UTC(2026, 10, 27, 2, 0); // Fri 27 Nov 10:00 in UTC+8, Thu 26 Nov 21:00 in New York
    expect(lastCompletePeriod('daily', now, '+08:00')).toMatchObject({ firstDay: '2026-11-26', lastDay: '2026-11-26' });
    expect(lastCompletePeriod('daily', now, 'America/New_York')).toMatchObject({ firstDay: '2026-11-25' });
    const week = lastCompletePeriod('weekly', now, '+08:00');
    expect(week).toMatchObject({ firstDay: '2026-11-16', lastDay: '2026-11-22' });
    expect(week.end - week.start).toBe(7 * 86_400_000);
    expect(lastCompletePeriod('monthly', now, '+08:00')).toMatchObject({
      firstDay: '2026-10-01',
      lastDay: '2026-10-31',
    });
  });

  it('titles in the recipient language', () => {
    expect(notifyEventTitle('fence.in', 'fr')).toBe('Entrée dans une zone');
    expect(notifyEventTitle('alarm:1', 'cn', 1)).toBe('求救报警(SOS)');
    expect(notifyEventTitle('ignition.on', 'xx')).toBe('Ignition on');
  });
});
