import { describe, expect, it } from 'vitest';
import { batteryPercent, batteryState } from './battery.ts';
import protocolData from './data/device-protocols.json' with { type: 'json' };
import {
  DEVICE_MODELS,
  deviceModel,
  ICON_TYPES,
  isIconType,
  isNbIotModel,
  PROTOCOL_TYPES,
  requiresElevenDigitImei,
} from './deviceModels.ts';
import { EXPIRY_FILTERS, matchesExpiryFilter } from './expiryFilters.ts';
import { LOCATION_TYPES, parseLocationType } from './locationTypes.ts';
import { DEFAULT_MAP_CENTER } from './maps.ts';
import { isServiceTermCode, SERVICE_TERMS } from './serviceTerms.ts';
import { areValidTyreLimits, checkTyreThresholds, DEFAULT_TYRE_LIMITS, TYRE_POSITIONS, tyreStatuses } from './tyres.ts';

const DAY = 86_400_000;
const NOW = 1_700_000_000_000;

describe('device models', () => {
  it('codes 0-16, 88 and 89 with the 18 spec names', () => {
    expect(DEVICE_MODELS.map((m) => m.code)).toEqual([...Array.from({ length: 17 }, (_, i) => i), 88, 89]);
    const names = DEVICE_MODELS.map((m) => m.name);
    for (const name of ['K100', 'K100b', 'R001', 'R002', 'Tire', 'Obd', 'Bsj', 'Sagex', '808', 'Nb', 'Nbiot']) {
      expect(names).toContain(name);
    }
    for (const name of ['K100b4g', 'Gt06', 'Y808', 'GW005808', 'A3', 'XiaoGuo', 'Hc']) expect(names).toContain(name);
  });

  it('pairs reference codes as the reference does and marks them', () => {
    for (const [code, label] of Object.entries(protocolData.codes)) {
      const model = deviceModel(Number(code))!;
      expect(model.source, code).toBe('reference');
      expect(label.toLowerCase().startsWith(model.name.toLowerCase()), label).toBe(true);
    }
    expect(DEVICE_MODELS.filter((m) => m.source === 'reference').map((m) => m.code)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 11,
    ]);
  });

  it('NB-IoT models are 9 (Nbiot) and 11 (Nb)', () => {
    expect(DEVICE_MODELS.filter((m) => m.nbIot).map((m) => m.code)).toEqual([9, 11]);
    expect(isNbIotModel(11)).toBe(true);
    expect(isNbIotModel(8)).toBe(false);
    expect(isNbIotModel(null)).toBe(false);
  });

  it('protocol types and 11-digit IMEIs', () => {
    expect(PROTOCOL_TYPES.map((p) => p.en)).toEqual(['Other', '808', 'GT06', '808 long standby', 'BSJ 11-digit']);
    expect([0, 1, 2, 3, 4].filter(requiresElevenDigitImei)).toEqual([1, 3, 4]);
    expect(requiresElevenDigitImei(undefined)).toBe(false);
  });

  it('icon types 1 to 12', () => {
    expect(ICON_TYPES).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(isIconType(0)).toBe(false);
    expect(isIconType(12)).toBe(true);
    expect(isIconType(13)).toBe(false);
  });
});

describe('expiry filters', () => {
  it('all, 7 days, 60 days, expired', () => {
    expect(EXPIRY_FILTERS.map((f) => f.id)).toEqual(['all', 'within7Days', 'within60Days', 'expired']);
  });

  it('boundaries on both sides', () => {
    expect(matchesExpiryFilter(NOW + 7 * DAY, 'within7Days', NOW)).toBe(true);
    expect(matchesExpiryFilter(NOW + 7 * DAY + 1, 'within7Days', NOW)).toBe(false);
    expect(matchesExpiryFilter(NOW + 60 * DAY, 'within60Days', NOW)).toBe(true);
    expect(matchesExpiryFilter(NOW + 60 * DAY + 1, 'within60Days', NOW)).toBe(false);
    expect(matchesExpiryFilter(NOW, 'within7Days', NOW)).toBe(false);
    expect(matchesExpiryFilter(NOW, 'expired', NOW)).toBe(true);
    expect(matchesExpiryFilter(NOW + 1, 'expired', NOW)).toBe(false);
    expect(matchesExpiryFilter(null, 'expired', NOW)).toBe(false);
    expect(matchesExpiryFilter(null, 'all', NOW)).toBe(true);
  });
});

describe('service terms', () => {
  it('half year, one year, two years, lifelong, one month, three years', () => {
    expect(SERVICE_TERMS.map((t) => [t.code, t.months])).toEqual([
      [0, 6],
      [1, 12],
      [2, 24],
      [3, null],
      [4, 1],
      [5, 36],
    ]);
    expect(isServiceTermCode(5)).toBe(true);
    expect(isServiceTermCode(6)).toBe(false);
  });
});

describe('location, tyre, battery, maps', () => {
  it('location type tags', () => {
    expect(LOCATION_TYPES.map((t) => t.en)).toEqual(['BeiDou', 'GPS', 'LBS', 'WiFi']);
    expect(parseLocationType('BD')).toBe('beidou');
    expect(parseLocationType(' WIFI ')).toBe('wifi');
    expect(parseLocationType('Wi-Fi')).toBe('wifi');
    expect(parseLocationType('lbs')).toBe('lbs');
    expect(parseLocationType('radar')).toBeUndefined();
    expect(parseLocationType(3)).toBeUndefined();
  });

  it('tyre statuses against inclusive limits', () => {
    expect(TYRE_POSITIONS).toHaveLength(4);
    const { pressureMinKpa: min, pressureMaxKpa: max, temperatureMaxC: hot } = DEFAULT_TYRE_LIMITS;
    const ok = { pressureKpa: 250, temperatureC: 30 };
    expect(tyreStatuses(ok)).toEqual(['normal']);
    expect(tyreStatuses({ ...ok, pressureKpa: min })).toEqual(['normal']);
    expect(tyreStatuses({ ...ok, pressureKpa: min - 1 })).toEqual(['lowPressure']);
    expect(tyreStatuses({ ...ok, pressureKpa: max })).toEqual(['normal']);
    expect(tyreStatuses({ ...ok, pressureKpa: max + 1 })).toEqual(['highPressure']);
    expect(tyreStatuses({ ...ok, temperatureC: hot })).toEqual(['normal']);
    expect(tyreStatuses({ ...ok, temperatureC: hot + 1 })).toEqual(['highTemperature']);
    expect(tyreStatuses({ pressureKpa: 10, temperatureC: 99, leaking: true, lowPower: true })).toEqual([
      'airLeak',
      'highTemperature',
      'lowPressure',
      'lowPower',
    ]);
    expect(tyreStatuses({ pressureKpa: Number.NaN, temperatureC: Number.NaN })).toEqual(['normal']);
    expect(areValidTyreLimits(DEFAULT_TYRE_LIMITS)).toBe(true);
    expect(areValidTyreLimits({ pressureMinKpa: 300, pressureMaxKpa: 300, temperatureMaxC: 80 })).toBe(false);
    expect(areValidTyreLimits({ pressureMinKpa: 100, pressureMaxKpa: 300, temperatureMaxC: Number.NaN })).toBe(false);
  });

  it('checks the settings drawer’s tyre thresholds, completed with the defaults', () => {
    expect(checkTyreThresholds({})).toEqual({ ok: true });
    expect(checkTyreThresholds({ tyreLowKpa: 200, tyreHighKpa: '300', tyreHighTempC: null })).toEqual({ ok: true });
    const refused = { ok: false, message: 'validation.tyreThresholds' };
    expect(checkTyreThresholds({ tyreLowKpa: 300, tyreHighKpa: 200 })).toEqual(refused);
    expect(checkTyreThresholds({ tyreLowKpa: 400 })).toEqual(refused); // above the default high 320
    expect(checkTyreThresholds({ tyreHighTempC: -5 })).toEqual(refused);
    expect(checkTyreThresholds({ tyreHighKpa: 'lots' })).toEqual(refused);
  });

  it('battery state from current', () => {
    expect(batteryState(1.2)).toBe('charging');
    expect(batteryState(-0.3)).toBe('discharging');
    expect(batteryState(0)).toBe('idle');
    expect(batteryState(0.05, 0.05)).toBe('idle');
    expect(batteryState(0.06, 0.05)).toBe('charging');
    expect(batteryState(-0.06, 0.05)).toBe('discharging');
    expect(batteryState(Number.NaN)).toBe('idle');
    expect(batteryPercent(101)).toBe(100);
    expect(batteryPercent(-3)).toBe(0);
    expect(batteryPercent(55.4)).toBe(55);
    expect(batteryPercent(null)).toBeUndefined();
  });

  it('map types fall back to Baidu', () => {
    expect(DEFAULT_MAP_CENTER).toEqual({ lon: 116.404, lat: 39.915 });
  });
});
