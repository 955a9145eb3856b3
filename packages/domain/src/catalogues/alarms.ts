import alarmData from './data/alarm-codes.json' with { type: 'json' };
import { translatedLabels } from './i18n/index.ts';
import { type EntrySource, type Labelled, labelIn } from './source.ts';

export type AlarmKind = 'device' | 'battery';

export interface AlarmType extends Labelled {
  readonly code: number;
  readonly kind: AlarmKind;
  readonly source: EntrySource;
}

/**
 * English names of the reference codes, whose Chinese names are read verbatim from
 * data/alarm-codes.json. (14 and 15 carry the same Chinese label in the source; after the GT06 alarm
 * byte, 15 is the protection stage, which the English name says.)
 */
const REFERENCE_EN: Readonly<Record<number, string>> = {
  0: 'Normal',
  1: 'SOS',
  2: 'Power cut',
  3: 'Vibration',
  4: 'Fence (enter)',
  5: 'Fence (exit)',
  6: 'Overspeed',
  7: 'Removal',
  9: 'Displacement',
  10: 'GPS blind area (enter)',
  11: 'GPS blind area (exit)',
  12: 'Power on',
  14: 'Low external power',
  15: 'Low external power (protection)',
  18: 'Low battery',
  19: 'Disassembly',
  20: 'Offline',
  21: 'Tyre air leak',
  22: 'Tyre fault',
  23: 'Fence',
  40: 'Harsh braking',
  41: 'Harsh acceleration',
  44: 'Collision',
  45: 'Rollover',
  46: 'Sharp turn',
  48: 'GSM jamming',
};

/** Codes the reference does not cover, named by Carhere (GT06 alarm-byte meanings where one exists). */
const CARHERE_DEVICE: Readonly<Record<number, Labelled>> = {
  8: { cn: 'ACC开启报警', en: 'ACC on' },
  13: { cn: 'GPS首次定位', en: 'First GPS fix' },
  16: { cn: 'SIM卡更换报警', en: 'SIM card changed' },
  17: { cn: '关机报警', en: 'Power off' },
  24: { cn: '胎压过高', en: 'Tyre pressure high' },
  25: { cn: '胎压过低', en: 'Tyre pressure low' },
  26: { cn: '胎温过高', en: 'Tyre temperature high' },
  27: { cn: '胎压传感器电量低', en: 'Tyre sensor battery low' },
  28: { cn: '胎压传感器失联', en: 'Tyre sensor lost' },
  29: { cn: 'ACC关闭报警', en: 'ACC off' },
  30: { cn: '疲劳驾驶', en: 'Fatigue driving' },
  31: { cn: '怠速报警', en: 'Excessive idling' },
  32: { cn: '车门打开', en: 'Door open' },
  33: { cn: '油量异常下降', en: 'Fuel drop' },
  34: { cn: '温度过高', en: 'High temperature' },
  35: { cn: '温度过低', en: 'Low temperature' },
  36: { cn: '偏离路线', en: 'Route deviation' },
  37: { cn: '超时停车', en: 'Overtime parking' },
  38: { cn: '伪基站报警', en: 'Fake base station' },
  39: { cn: '开盖报警', en: 'Cover opened' },
  42: { cn: '急左转', en: 'Sharp left turn' },
  43: { cn: '急右转', en: 'Sharp right turn' },
  47: { cn: '跌落报警', en: 'Fall' },
  201: { cn: '油量传感器报警', en: 'Fuel sensor alarm' },
};

/** Battery-pack alarms 50 to 80 (the spec names none; all Carhere's). */
const CARHERE_BATTERY: readonly Labelled[] = [
  { cn: '电池总压过高', en: 'Pack over-voltage' },
  { cn: '电池总压过低', en: 'Pack under-voltage' },
  { cn: '单体电压过高', en: 'Cell over-voltage' },
  { cn: '单体电压过低', en: 'Cell under-voltage' },
  { cn: '单体压差过大', en: 'Cell voltage imbalance' },
  { cn: '充电过流', en: 'Charge over-current' },
  { cn: '放电过流', en: 'Discharge over-current' },
  { cn: '短路保护', en: 'Short-circuit protection' },
  { cn: '充电温度过高', en: 'Charge over-temperature' },
  { cn: '充电温度过低', en: 'Charge under-temperature' },
  { cn: '放电温度过高', en: 'Discharge over-temperature' },
  { cn: '放电温度过低', en: 'Discharge under-temperature' },
  { cn: '电芯温差过大', en: 'Temperature imbalance' },
  { cn: 'MOS管温度过高', en: 'MOSFET over-temperature' },
  { cn: '电量过低', en: 'Low charge' },
  { cn: '电量严重不足', en: 'Critically low charge' },
  { cn: '充电MOS故障', en: 'Charge MOSFET fault' },
  { cn: '放电MOS故障', en: 'Discharge MOSFET fault' },
  { cn: '温度传感器故障', en: 'Temperature sensor fault' },
  { cn: '电压采集故障', en: 'Voltage sensing fault' },
  { cn: '电流采集故障', en: 'Current sensing fault' },
  { cn: 'BMS通信故障', en: 'BMS communication fault' },
  { cn: '绝缘电阻过低', en: 'Low insulation resistance' },
  { cn: '电池包开盖', en: 'Battery pack opened' },
  { cn: '电池包移除', en: 'Battery pack removed' },
  { cn: '充电器不匹配', en: 'Incompatible charger' },
  { cn: '循环次数超限', en: 'Cycle count exceeded' },
  { cn: '电池健康度低', en: 'Low state of health' },
  { cn: '加热故障', en: 'Heater fault' },
  { cn: '均衡故障', en: 'Balancing fault' },
  { cn: '电池其他故障', en: 'Other battery fault' },
];

export const DEVICE_ALARM_CODES: readonly number[] = [...Array.from({ length: 49 }, (_, i) => i), 201];
export const BATTERY_ALARM_MIN = 50;
export const BATTERY_ALARM_MAX = 80;

const referenceCodes = alarmData.codes as Readonly<Record<string, string>>;

/** The names of an alarm code in the languages beyond cn and en (./i18n). */
function alarmTranslations(code: number) {
  return translatedLabels((translation) => translation.alarms[code]);
}

function deviceAlarm(code: number): AlarmType {
  const referenceCn = referenceCodes[String(code)];
  if (referenceCn !== undefined) {
    return {
      code,
      kind: 'device',
      cn: referenceCn,
      en: REFERENCE_EN[code],
      ...alarmTranslations(code),
      source: 'reference',
    };
  }
  return { code, kind: 'device', ...CARHERE_DEVICE[code], ...alarmTranslations(code), source: 'carhere' };
}

/** Every alarm type: device codes 0-48 and 201, then battery codes 50-80. */
export const ALARM_TYPES: readonly AlarmType[] = [
  ...DEVICE_ALARM_CODES.map(deviceAlarm),
  ...CARHERE_BATTERY.map((label, i) => ({
    code: BATTERY_ALARM_MIN + i,
    kind: 'battery' as const,
    ...label,
    ...alarmTranslations(BATTERY_ALARM_MIN + i),
    source: 'carhere' as const,
  })),
];

const BY_CODE = new Map(ALARM_TYPES.map((alarm) => [alarm.code, alarm]));

export function alarmType(code: number | null | undefined): AlarmType | undefined {
  return code == null ? undefined : BY_CODE.get(code);
}

/** True for the battery-pack alarm codes 50 to 80. */
export function isBatteryAlarm(code: number): boolean {
  return Number.isInteger(code) && code >= BATTERY_ALARM_MIN && code <= BATTERY_ALARM_MAX;
}

/** Name of a code outside the catalogue; `{code}` stands for the code. */
const UNKNOWN_ALARM: Labelled = {
  cn: '未知报警({code})',
  en: 'Unknown alarm ({code})',
  ...translatedLabels((translation) => translation.unknownAlarm),
};

/** Name of an alarm code in a language; an unknown code reads 'Unknown alarm (99)' / '未知报警(99)' / …. */
export function alarmLabel(code: number, lang: string): string {
  const alarm = alarmType(code);
  if (alarm) return labelIn(alarm, lang);
  return labelIn(UNKNOWN_ALARM, lang).replace('{code}', String(code));
}
