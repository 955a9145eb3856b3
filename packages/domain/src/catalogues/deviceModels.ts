import protocolData from './data/device-protocols.json' with { type: 'json' };
import type { EntrySource } from './source.ts';

/** A device model (location.deviceProtocol) code of spec §3: 0 to 16, 88 and 89. */
export interface DeviceModel {
  readonly code: number;
  readonly name: string;
  /** Commands to this model go through the NB-IoT platform and need the device's deviceId (spec §4). */
  readonly nbIot: boolean;
  readonly source: EntrySource;
}

/**
 * The spec lists the 18 model names without their codes. Codes 0-8 and 11 are paired as in
 * data/device-protocols.json (partial); the other pairings are Carhere's, in the spec's order, and
 * code 89, left without a name, is 'Other'.
 */
const NAMES: Readonly<Record<number, string>> = {
  0: 'K100',
  1: 'K100b',
  2: 'R001',
  3: 'R002',
  4: 'Tire',
  5: 'Obd',
  6: 'Bsj',
  7: 'Sagex',
  8: '808',
  9: 'Nbiot',
  10: 'K100b4g',
  11: 'Nb',
  12: 'Gt06',
  13: 'Y808',
  14: 'GW005808',
  15: 'A3',
  16: 'XiaoGuo',
  88: 'Hc',
  89: 'Other',
};

const NB_IOT_NAMES = new Set(['Nb', 'Nbiot']);
const REFERENCE_CODES = new Set(Object.keys(protocolData.codes).map(Number));

export const DEVICE_MODELS: readonly DeviceModel[] = Object.entries(NAMES).map(([code, name]) => ({
  code: Number(code),
  name,
  nbIot: NB_IOT_NAMES.has(name),
  source: REFERENCE_CODES.has(Number(code)) ? 'reference' : 'carhere',
}));

const BY_CODE = new Map(DEVICE_MODELS.map((model) => [model.code, model]));

export function deviceModel(code: number | null | undefined): DeviceModel | undefined {
  return code == null ? undefined : BY_CODE.get(code);
}

/** True for the NB-IoT models (codes 9 and 11). */
export function isNbIotModel(code: number | null | undefined): boolean {
  return deviceModel(code)?.nbIot ?? false;
}

/** Protocol types of a device (spec §3). Codes are Carhere's; the spec names them without numbers. */
export const PROTOCOL_TYPES = [
  { code: 0, key: 'other', cn: '其他', en: 'Other' },
  { code: 1, key: 'jt808', cn: '808', en: '808' },
  { code: 2, key: 'gt06', cn: 'GT06', en: 'GT06' },
  { code: 3, key: 'jt808LongStandby', cn: '808长待机', en: '808 long standby' },
  { code: 4, key: 'bsj11', cn: 'BSJ 11位', en: 'BSJ 11-digit' },
] as const;

/** Device icon types 1 to 12, each with its own image (spec §3). */
export const ICON_TYPES: readonly number[] = Array.from({ length: 12 }, (_, i) => i + 1);

export function isIconType(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 12;
}

/** Protocol types whose devices are identified by an 11-digit number instead of a 15-digit IMEI. */
const ELEVEN_DIGIT_PROTOCOL_TYPES: readonly number[] = [1, 3, 4];

/** True for 808, 808 long standby and BSJ 11-digit: their IMEI must be exactly 11 digits (spec §5). */
export function requiresElevenDigitImei(protocolType: number | null | undefined): boolean {
  return protocolType != null && ELEVEN_DIGIT_PROTOCOL_TYPES.includes(protocolType);
}
