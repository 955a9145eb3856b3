import { describe, expect, it } from 'vitest';
import {
  carNumber,
  duplicate808Imeis,
  email,
  FENCE_RADIUS_MAX_M,
  FENCE_RADIUS_MIN_M,
  fenceRadius,
  findDuplicates,
  IMEI_808_LENGTH,
  imei808,
  intervalHours,
  oilVolumeLitres,
  parseImeiLines,
  powerOnTime,
  simNumber,
  TRACK_MAX_DAYS,
  TRACK_MAX_DEVICES,
  TRACK_MAX_RANGE_MS,
  telephone,
  telephoneKind,
  timeModeMinutes,
  trackDeviceCount,
  trackRange,
} from './validation.ts';

const ok = (r: { ok: boolean }) => r.ok;

describe('form rules', () => {
  it('email', () => {
    expect(email(' a.b@example.com ')).toEqual({ ok: true, value: 'a.b@example.com' });
    for (const bad of ['a@b', 'a@@b.com', '@b.com', 'a b@c.com', 'a@b..com', '', 42, null]) {
      expect(ok(email(bad)), String(bad)).toBe(false);
    }
    expect(ok(email(`${'a'.repeat(250)}@ex.com`))).toBe(false);
  });
});

describe('SIM number: 11 or 13 letters or digits', () => {
  it('accepts exactly 11 and 13', () => {
    expect(simNumber('13800138000')).toEqual({ ok: true, value: '13800138000' });
    expect(ok(simNumber('1064812345678'))).toBe(true);
    expect(ok(simNumber('ABCdef12345'))).toBe(true);
    expect(ok(simNumber(' 13800138000 '))).toBe(true);
  });

  it('refuses 10, 12, 14 and other characters', () => {
    for (const bad of ['1380013800', '138001380001', '13800138000123', '1380013800-', '1380013800 0', '']) {
      expect(simNumber(bad), bad).toEqual({ ok: false, message: 'validation.sim' });
    }
  });
});

describe('telephone', () => {
  it('mobile, toll-free and landline', () => {
    expect(telephoneKind('13800138000')).toBe('mobile');
    expect(telephoneKind('19912345678')).toBe('mobile');
    expect(telephoneKind('400-123-4567')).toBe('tollFree');
    expect(telephoneKind('8001234567')).toBe('tollFree');
    expect(telephoneKind('010-12345678')).toBe('landline');
    expect(telephoneKind('0755-1234567')).toBe('landline');
    expect(telephoneKind('075512345678-123')).toBe('landline');
    expect(telephone(' 13800138000 ')).toEqual({ ok: true, value: '13800138000' });
  });

  it('refuses anything else', () => {
    for (const bad of ['12800138000', '1380013800', '138001380000', '400-123-456', '10-12345678', '12345', 'abc']) {
      expect(telephone(bad), bad).toEqual({ ok: false, message: 'validation.telephone' });
    }
  });
});

describe('Chinese plate', () => {
  it('province, letter, four alphanumerics, final alphanumeric or special character', () => {
    for (const good of [
      '京A12345',
      '粤B1234X',
      '沪AABCDE',
      '粤B1234挂',
      '粤B1234学',
      '京A1234警',
      '粤Z1234港',
      '沪A1234领',
    ]) {
      expect(ok(carNumber(good)), good).toBe(true);
    }
  });

  it('also new-energy plates', () => {
    expect(ok(carNumber('粤BD12345'))).toBe(true);
    expect(ok(carNumber('粤B12345F'))).toBe(true);
    expect(ok(carNumber('粤BA12345'))).toBe(false);
  });

  it('refuses wrong shapes', () => {
    for (const bad of ['A12345', '京112345', '京A1234', '京A123456', '京a12345', 'XA12345', '京A1234!', '']) {
      expect(carNumber(bad), bad).toEqual({ ok: false, message: 'validation.carNumber' });
    }
  });
});

describe('fence radius 100 to 1000000 m', () => {
  it('both sides of both bounds', () => {
    expect(FENCE_RADIUS_MIN_M).toBe(100);
    expect(FENCE_RADIUS_MAX_M).toBe(1_000_000);
    expect(fenceRadius(100)).toEqual({ ok: true, value: 100 });
    expect(fenceRadius(1_000_000)).toEqual({ ok: true, value: 1_000_000 });
    expect(ok(fenceRadius('500'))).toBe(true);
    const refused = { ok: false, message: 'validation.fenceRadius', params: { min: 100, max: 1_000_000 } };
    expect(fenceRadius(99.9)).toEqual(refused);
    expect(fenceRadius(1_000_000.1)).toEqual(refused);
    expect(fenceRadius('far')).toEqual(refused);
  });
});

describe('track limits', () => {
  const day = 86_400_000;
  it('at most 90 days (7776000000 ms)', () => {
    expect(TRACK_MAX_DAYS).toBe(90);
    expect(TRACK_MAX_RANGE_MS).toBe(7_776_000_000);
    expect(trackRange(0, 90 * day)).toEqual({ ok: true, value: { begin: 0, end: 90 * day } });
    expect(trackRange(0, 90 * day + 1)).toEqual({ ok: false, message: 'validation.trackDays', params: { days: 90 } });
    expect(trackRange(5, 5).ok).toBe(true);
  });

  it('begin before end, both given', () => {
    expect(trackRange(10, 9)).toEqual({ ok: false, message: 'validation.rangeOrder' });
    expect(trackRange(undefined, 9)).toEqual({ ok: false, message: 'validation.rangeRequired' });
  });

  it('1 to 5 devices at once', () => {
    expect(TRACK_MAX_DEVICES).toBe(5);
    expect(trackDeviceCount(1).ok).toBe(true);
    expect(trackDeviceCount(5).ok).toBe(true);
    expect(trackDeviceCount(6)).toEqual({ ok: false, message: 'validation.trackDevices', params: { max: 5 } });
    expect(trackDeviceCount(0)).toEqual({ ok: false, message: 'common.selectFirst' });
  });
});

describe('IMEIs', () => {
  it('808 IMEI: exactly 11 digits', () => {
    expect(IMEI_808_LENGTH).toBe(11);
    expect(imei808('12345678901')).toEqual({ ok: true, value: '12345678901' });
    for (const bad of ['1234567890', '123456789012', '1234567890a', '']) {
      expect(imei808(bad), bad).toEqual({ ok: false, message: 'validation.imei808' });
    }
  });

  it('duplicate 808 IMEIs: repeated in the import or already present', () => {
    expect(findDuplicates(['a', 'b', 'a', 'a', 'c', 'b'])).toEqual(['a', 'b']);
    expect(duplicate808Imeis(['11111111111', '22222222222', '11111111111'], new Set(['22222222222']))).toEqual([
      '11111111111',
      '22222222222',
    ]);
    expect(duplicate808Imeis(['11111111111'], new Set())).toEqual([]);
  });

  it('lines: trimmed, blanks skipped, 10 to 15 characters', () => {
    const text = [
      ' 123456789012345 ',
      '',
      '1234567890',
      '123456789',
      '1234567890123456',
      '12345678901',
      'abc def ghij',
    ].join('\r\n');
    const parsed = parseImeiLines(text);
    expect(parsed.imeis).toEqual(['123456789012345', '1234567890', '12345678901']);
    expect(parsed.invalid).toEqual([
      { line: 4, value: '123456789' },
      { line: 5, value: '1234567890123456' },
      { line: 7, value: 'abc def ghij' },
    ]);
    expect(parsed.notFifteen).toEqual(['1234567890', '12345678901']);
    expect(parsed.duplicates).toEqual([]);
  });

  it('lines: exactly 15 in the strict variant, repeats reported once', () => {
    const parsed = parseImeiLines('123456789012345\n12345678901234\n123456789012345\n', { exactly15: true });
    expect(parsed.imeis).toEqual(['123456789012345']);
    expect(parsed.invalid).toEqual([{ line: 2, value: '12345678901234' }]);
    expect(parsed.duplicates).toEqual(['123456789012345']);
    expect(parsed.notFifteen).toEqual([]);
  });
});

describe('device settings', () => {
  it('time mode: whole minutes, 0 is off', () => {
    expect(timeModeMinutes(0)).toEqual({ ok: true, value: { minutes: 0, off: true } });
    expect(timeModeMinutes('30')).toEqual({ ok: true, value: { minutes: 30, off: false } });
    for (const bad of [-1, 1.5, 'x', null]) {
      expect(timeModeMinutes(bad), String(bad)).toEqual({ ok: false, message: 'validation.timeMode' });
    }
  });

  it('timed power-on HH:mm', () => {
    expect(powerOnTime('18:30')).toEqual({ ok: true, value: { hour: 18, minute: 30, text: '18:30' } });
    expect(powerOnTime('00:00').ok).toBe(true);
    expect(powerOnTime('23:59').ok).toBe(true);
    for (const bad of ['24:00', '23:60', '8:30', '18:3', '1830', '18:30:00', '']) {
      expect(powerOnTime(bad), bad).toEqual({ ok: false, message: 'validation.powerOnTime' });
    }
  });

  it('interval: whole hours from 1', () => {
    expect(intervalHours('1')).toEqual({ ok: true, value: 1 });
    expect(intervalHours(24)).toEqual({ ok: true, value: 24 });
    for (const bad of [0, -2, 1.5, 'two']) {
      expect(intervalHours(bad), String(bad)).toEqual({ ok: false, message: 'validation.intervalHours' });
    }
  });

  it('oil volume: one of the options 1.0–29.9 L in steps of 0.1 L', () => {
    expect(oilVolumeLitres('12.5')).toEqual({ ok: true, value: 12.5 });
    expect(oilVolumeLitres(1)).toEqual({ ok: true, value: 1 });
    expect(oilVolumeLitres(29.9)).toEqual({ ok: true, value: 29.9 });
    for (const bad of [0.9, 30, 12.55, 'full', null]) {
      expect(oilVolumeLitres(bad), String(bad)).toEqual({ ok: false, message: 'validation.oilVolume' });
    }
  });
});
