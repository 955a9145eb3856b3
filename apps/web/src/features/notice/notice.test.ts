import { describe, expect, it } from 'vitest';
import { shouldShow } from './MaintenanceNotice.tsx';

describe('maintenance notice dialog', () => {
  const notice = {
    title: 't',
    content: 'c',
    startsAt: null,
    endsAt: '2022-10-07T19:00:00.000Z',
    showOnStart: false,
    version: 'v1',
  };
  it('shows a running notice once per version and browser session, never after its end', () => {
    const before = Date.parse('2022-10-07T18:00:00Z');
    expect(shouldShow(notice, null, before)).toBe(true);
    expect(shouldShow(notice, 'v1', before)).toBe(false);
    expect(shouldShow(notice, 'v0', before)).toBe(true);
    expect(shouldShow(notice, null, Date.parse('2022-10-07T19:00:00Z'))).toBe(false);
    expect(shouldShow(null, null, before)).toBe(false);
  });

  it('shows on the login page (on start) only a notice the admin set to show on start', () => {
    const before = Date.parse('2022-10-07T18:00:00Z');
    expect(shouldShow(notice, null, before, true)).toBe(false);
    expect(shouldShow({ ...notice, showOnStart: true }, null, before, true)).toBe(true);
    expect(shouldShow({ ...notice, showOnStart: true }, 'v1', before, true)).toBe(false);
    expect(shouldShow({ ...notice, startsAt: '2022-10-07T18:30:00Z', showOnStart: true }, null, before, true)).toBe(
      false,
    );
  });
});
