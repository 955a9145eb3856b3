import { describe, expect, it } from 'vitest';
import { isMaintenanceNoticeShown, OIL_VOLUME_OPTIONS_L, REQUEST_TIMEOUT_MS } from './constants.ts';

describe('constants of spec §9', () => {
  it('request timeout 300000 ms', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(300_000);
  });

  it('oil options 1.0 L to 29.9 L step 0.1', () => {
    expect(OIL_VOLUME_OPTIONS_L[0]).toBe(1);
    expect(OIL_VOLUME_OPTIONS_L[1]).toBe(1.1);
    expect(OIL_VOLUME_OPTIONS_L.at(-1)).toBe(29.9);
    expect(OIL_VOLUME_OPTIONS_L).toHaveLength(290);
  });

  it('a notice shows from its start to its end; on start (login page) only when the admin asked for it', () => {
    const n = { startsAt: '2030-01-01T00:00:00.000Z', endsAt: '2030-01-02T00:00:00.000Z' };
    const during = Date.parse('2030-01-01T12:00:00Z');
    expect(isMaintenanceNoticeShown(n, during)).toBe(true);
    expect(isMaintenanceNoticeShown(n, during, true)).toBe(false);
    expect(isMaintenanceNoticeShown({ ...n, showOnStart: true }, during, true)).toBe(true);
    expect(isMaintenanceNoticeShown({ ...n, showOnStart: false }, during, true)).toBe(false);
    expect(isMaintenanceNoticeShown(n, Date.parse('2029-12-31T23:59:59Z'))).toBe(false);
    expect(isMaintenanceNoticeShown(n, Date.parse(n.endsAt))).toBe(false);
    expect(isMaintenanceNoticeShown(null, during)).toBe(false);
  });
});
