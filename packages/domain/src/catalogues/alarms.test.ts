import { describe, expect, it } from 'vitest';
import { ALARM_TYPES, alarmLabel, alarmType, DEVICE_ALARM_CODES, isBatteryAlarm } from './alarms.ts';
import alarmData from './data/alarm-codes.json' with { type: 'json' };

describe('alarm catalogue', () => {
  it('has device codes 0-48 and 201, battery codes 50-80, each once', () => {
    const codes = ALARM_TYPES.map((a) => a.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(DEVICE_ALARM_CODES).toHaveLength(50);
    for (let code = 0; code <= 48; code++) expect(alarmType(code)?.kind, String(code)).toBe('device');
    expect(alarmType(201)?.kind).toBe('device');
    for (let code = 50; code <= 80; code++) expect(alarmType(code)?.kind, String(code)).toBe('battery');
    expect(alarmType(49)).toBeUndefined();
    expect(alarmType(81)).toBeUndefined();
    expect(alarmType(200)).toBeUndefined();
    expect(ALARM_TYPES).toHaveLength(81);
  });

  it('every entry has cn and en names', () => {
    for (const alarm of ALARM_TYPES) {
      expect(alarm.cn.trim(), String(alarm.code)).not.toBe('');
      expect(alarm.en.trim(), String(alarm.code)).not.toBe('');
    }
  });

  it('reference codes keep the Chinese label verbatim and are marked reference', () => {
    const reference = Object.entries(alarmData.codes);
    expect(reference.length).toBe(26);
    for (const [code, cn] of reference) {
      expect(alarmType(Number(code))).toMatchObject({ cn, source: 'reference' });
    }
  });

  it('the gaps are filled by Carhere and marked so', () => {
    const ours = ALARM_TYPES.filter((a) => a.source === 'carhere').map((a) => a.code);
    expect(ours).toEqual([8, 13, 16, 17, ...range(24, 39), 42, 43, 47, 201, ...range(50, 80)]);
    expect(alarmType(201)?.en).toBe('Fuel sensor alarm');
  });

  it('labels by language, with a readable fallback for unknown codes', () => {
    expect(alarmLabel(1, 'cn')).toBe('求救报警(SOS)');
    expect(alarmLabel(1, 'en')).toBe('SOS');
    expect(alarmLabel(6, 'vi')).toBe('Quá tốc độ');
    expect(alarmLabel(6, 'en-IN')).toBe('Overspeed');
    expect(alarmLabel(6, 'de')).toBe('Overspeed');
    expect(alarmLabel(99, 'en')).toBe('Unknown alarm (99)');
    expect(alarmLabel(99, 'cn')).toBe('未知报警(99)');
    expect(alarmLabel(99, 'vi')).toBe('Cảnh báo không xác định (99)');
    expect(alarmLabel(99, 'de')).toBe('Unknown alarm (99)');
  });

  it('battery range 50 to 80', () => {
    expect(isBatteryAlarm(49)).toBe(false);
    expect(isBatteryAlarm(50)).toBe(true);
    expect(isBatteryAlarm(80)).toBe(true);
    expect(isBatteryAlarm(81)).toBe(false);
  });
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
