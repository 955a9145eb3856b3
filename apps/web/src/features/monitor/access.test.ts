import { ACCESS_CHECK, LANGUAGES, MESSAGES, translate } from '@carhere/domain';
import type { TFunction } from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { sendOutcome } from '../command/sendFlow.ts';
import {
  type AccessSubject,
  accessRefusal,
  admitDevices,
  type DeviceFeature,
  expiryMs,
  FEATURE_NEEDS_USABLE_DEVICE,
  featureAccess,
} from './access.ts';
import { deviceMenuItems } from './deviceMenuItems.tsx';
import type { MonitorDevice } from './types.ts';

const NOW = Date.UTC(2025, 5, 1, 12);
const DAY = 86_400_000;
const FEATURES = Object.keys(FEATURE_NEEDS_USABLE_DEVICE) as DeviceFeature[];

const online: AccessSubject = { state: 'zx', expire: null };
const offlineValid: AccessSubject = { state: 'lx', expire: new Date(NOW + DAY).toISOString() };
const expired: AccessSubject = { state: 'zx', expire: new Date(NOW - DAY).toISOString() };
const inactive: AccessSubject = { state: 'wjh', expire: null };

describe('device access per feature (spec §4)', () => {
  it('refuses commands, track playback, fences, street view and follow for inactive and expired devices', () => {
    for (const feature of ['command', 'track', 'fence', 'streetView', 'follow'] as const) {
      expect(featureAccess(feature, expired, NOW), feature).toEqual({
        code: ACCESS_CHECK.pastDue,
        message: 'device.expired',
      });
      expect(featureAccess(feature, inactive, NOW), feature).toEqual({
        code: ACCESS_CHECK.inactive,
        message: 'device.notActivated',
      });
      expect(accessRefusal(feature, online, NOW), feature).toBeNull();
      expect(accessRefusal(feature, offlineValid, NOW), feature).toBeNull();
    }
  });

  it('keeps device info open for inactive and expired devices', () => {
    expect(featureAccess('info', expired, NOW)).toEqual({ code: ACCESS_CHECK.supported });
    expect(featureAccess('info', inactive, NOW)).toEqual({ code: ACCESS_CHECK.supported });
  });

  it('asks to select a device first when none is chosen, for every feature', () => {
    for (const feature of FEATURES) {
      expect(featureAccess(feature, null, NOW), feature).toEqual({
        code: ACCESS_CHECK.selectDevice,
        message: 'device.selectFirst',
      });
      expect(accessRefusal(feature, undefined, NOW)).toBe('device.selectFirst');
    }
  });

  it('counts the expiry moment itself as expired; an inactive device that has also expired is inactive', () => {
    expect(accessRefusal('command', { state: 'lx', expire: NOW }, NOW)).toBe('device.expired');
    expect(accessRefusal('command', { state: 'lx', expire: NOW + 1 }, NOW)).toBeNull();
    expect(accessRefusal('command', { state: 'wjh', expire: NOW - DAY }, NOW)).toBe('device.notActivated');
  });

  it('reads the expiry as the list sends it (ISO-8601) or as epoch ms; none or garbage never expires', () => {
    expect(expiryMs('2025-06-01T12:00:00.000Z')).toBe(NOW);
    expect(expiryMs(NOW)).toBe(NOW);
    expect(expiryMs(null)).toBeNull();
    expect(expiryMs(undefined)).toBeNull();
    expect(expiryMs('')).toBeNull();
    expect(expiryMs('not a date')).toBeNull();
    expect(expiryMs(Number.NaN)).toBeNull();
    expect(accessRefusal('track', { state: 'lx', expire: 'not a date' }, NOW)).toBeNull();
  });

  it('admits the usable picks and reports the first refusal; unknown devices are left to the server', () => {
    const devices = new Map<string, AccessSubject>([
      ['ok', online],
      ['old', expired],
      ['new', inactive],
    ]);
    expect(admitDevices('track', ['ok', 'old', 'new', 'unknown'], (id) => devices.get(id), NOW)).toEqual({
      allowed: ['ok', 'unknown'],
      refused: 'device.expired',
    });
    expect(admitDevices('fence', ['new', 'ok'], (id) => devices.get(id), NOW)).toEqual({
      allowed: ['ok'],
      refused: 'device.notActivated',
    });
    expect(admitDevices('info', ['old', 'new'], (id) => devices.get(id), NOW)).toEqual({
      allowed: ['old', 'new'],
      refused: null,
    });
    expect(admitDevices('command', [], (id: string) => devices.get(id), NOW)).toEqual({ allowed: [], refused: null });
  });

  it("has the spec's texts for the refusals in all 11 languages", () => {
    expect(translate('device.notActivated', 'en')).toBe('The device is not activated and cannot be used normally!');
    expect(translate('device.expired', 'en')).toBe(
      "The device has expired, please contact the device's service provider!",
    );
    for (const key of ['device.notActivated', 'device.expired', 'device.selectFirst'] as const) {
      for (const lang of LANGUAGES) {
        const text = translate(key, lang);
        expect(text.trim(), `${lang} ${key}`).not.toBe('');
        // Every language but Indian English (which shares the English text) has its own.
        if (lang !== 'en' && lang !== 'en-IN') expect(text, `${lang} ${key}`).not.toBe(MESSAGES[key].en);
      }
    }
  });

  it("shows the server's refusal of a command to an expired device as the send outcome", () => {
    const message = translate('device.expired', 'fr');
    expect(sendOutcome({ success: false, message }, null)).toEqual({ kind: 'error', message, reply: null });
  });
});

describe('context-menu items go through the access check', () => {
  const device = { deviceId: 'd1', terminalID: '868120000000001', state: 'zx', expire: NOW - DAY } as MonitorDevice;
  const t = ((key: string) => key) as unknown as TFunction<'monitor'>;

  function menu(allow: boolean, following = false) {
    const actions = {
      navigate: vi.fn(),
      follow: vi.fn(),
      info: vi.fn(),
      following,
      guard: vi.fn((_feature: DeviceFeature, _device: MonitorDevice, run: () => void) => {
        if (allow) run();
      }),
    };
    const items = deviceMenuItems(device, t, actions);
    const click = (key: string) => items.find((i) => i.key === key)?.onClick();
    return { actions, click };
  }

  it('asks the guard with the feature of each item and does nothing when it refuses', () => {
    const { actions, click } = menu(false);
    for (const key of ['track', 'command', 'fence', 'follow', 'info']) click(key);
    expect(actions.guard.mock.calls.map(([feature, d]) => [feature, d.terminalID])).toEqual(
      ['track', 'command', 'fence', 'follow', 'info'].map((f) => [f, device.terminalID]),
    );
    expect(actions.navigate).not.toHaveBeenCalled();
    expect(actions.follow).not.toHaveBeenCalled();
    expect(actions.info).not.toHaveBeenCalled();
  });

  it('opens the feature when the guard allows it', () => {
    const { actions, click } = menu(true);
    click('command');
    click('track');
    click('fence');
    click('info');
    expect(actions.navigate.mock.calls.map(([path]) => path)).toEqual([
      `/index/directive?terminalID=${device.terminalID}`,
      `/index/track?terminalID=${device.terminalID}`,
      `/index/fence?terminalID=${device.terminalID}`,
    ]);
    expect(actions.info).toHaveBeenCalledTimes(1);
  });

  it('always lets the user stop following', () => {
    const { actions, click } = menu(false, true);
    click('follow');
    expect(actions.follow).toHaveBeenCalledTimes(1);
    expect(actions.guard).not.toHaveBeenCalled();
  });
});
