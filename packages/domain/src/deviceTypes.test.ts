import { describe, expect, it } from 'vitest';
import {
  checkCommandFeature,
  checkCommandParameters,
  checkWorkModeSettings,
  deviceTypeListFor,
  deviceTypeMenu,
  deviceTypeOf,
  isOilControlCommand,
  SEED_DEVICE_TYPES,
  seedDeviceType,
} from './deviceTypes.ts';

describe('device types (seed, features, menus)', () => {
  it('seeds one type per model code of spec §3, NB models without oil cut or recording', () => {
    expect(SEED_DEVICE_TYPES.map((t) => t.deviceType)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 88, 89,
    ]);
    expect(deviceTypeOf(SEED_DEVICE_TYPES, 11).features).toMatchObject({ oilCut: false, recording: false });
    expect(deviceTypeOf(SEED_DEVICE_TYPES, 12).features).toMatchObject({ oilCut: true, recording: true });
    expect(deviceTypeOf(SEED_DEVICE_TYPES, 4).menu.map((g) => g.group)).toContain('tyre');
    expect(deviceTypeMenu(SEED_DEVICE_TYPES, { deviceProtocol: 4, protocolType: 4 }).map((g) => g.group)).toEqual([
      'query',
      'oil',
      'gw',
      'device',
    ]);
    expect(deviceTypeOf([], 999)).toEqual(seedDeviceType(999));
  });

  it('refuses a command whose feature the type lacks (spec §8)', () => {
    const type = { ...seedDeviceType(12), features: { ...seedDeviceType(12).features, oilCut: false } };
    expect(checkCommandFeature(type, 'RELAY,1#')).toEqual({ ok: false, message: 'device.unsupported' });
    expect(checkCommandFeature(type, 'STATUS#').ok).toBe(true);
    expect(isOilControlCommand('RELAY,0#')).toBe(true);
    expect(isOilControlCommand('BRELAY,1#')).toBe(true);
    expect(isOilControlCommand('STATUS#')).toBe(false);
  });

  it('checks ruled parameters with the spec §5 validators, in any template that uses them', () => {
    expect(checkCommandParameters('TIMEMODE,0#').ok).toBe(true);
    expect(checkCommandParameters('TIMEMODE,-1#')).toMatchObject({ message: 'validation.timeMode' });
    expect(checkCommandParameters('POWERON,1830,3#').ok).toBe(true);
    expect(checkCommandParameters('POWERON,2400,3#')).toMatchObject({ message: 'validation.powerOnTime' });
    expect(checkCommandParameters('POWERON,0800,0#')).toMatchObject({ message: 'validation.intervalHours' });
    expect(checkCommandParameters('MIXMODE,3#')).toMatchObject({ message: 'validation.mixedMode' });
    expect(
      checkCommandParameters('WAKE,{powerOn}'.replace('{powerOn}', '7:00') + '#', ['WAKE,{powerOn}#']),
    ).toMatchObject({
      message: 'validation.powerOnTime',
    });
    expect(checkCommandParameters('RELAY,1#').ok).toBe(true);
  });

  it('lets a device without mixed mode run one mode only', () => {
    expect(checkWorkModeSettings({ timeModeMinutes: 30, powerOnTime: '18:30', mixed: false })).toMatchObject({
      message: 'validation.mixedMode',
    });
    expect(checkWorkModeSettings({ timeModeMinutes: 30, powerOnTime: '18:30', mixed: true }).ok).toBe(true);
    expect(checkWorkModeSettings({ timeModeMinutes: 0, powerOnTime: '18:30' }).ok).toBe(true);
    expect(checkWorkModeSettings({ powerOnTime: '7pm' })).toMatchObject({ message: 'validation.powerOnTime' });
  });

  it('gives wanweiTest its device-type lists (spec §6)', () => {
    const server = ['Gt06', 'K100'];
    expect(deviceTypeListFor({ role: 7, username: 'named' }, server, 'named').length).toBeGreaterThan(10);
    expect(deviceTypeListFor({ role: 7, username: 'other' }, server, 'named')).toEqual(['GW005W']);
    expect(deviceTypeListFor({ role: 2, username: 'named' }, server, 'named')).toEqual(server);
  });
});
