import { type RuleResult, refuse } from '../result.ts';
import type { Labelled } from './source.ts';

/** The four wheels of spec §3. */
export const TYRE_POSITIONS = ['leftFront', 'rightFront', 'leftRear', 'rightRear'] as const;
export type TyrePosition = (typeof TYRE_POSITIONS)[number];

/** Tyre statuses of spec §3, most urgent first. */
export const TYRE_STATUSES = {
  airLeak: { cn: '漏气', en: 'Air leakage' },
  highTemperature: { cn: '高温', en: 'High temperature' },
  highPressure: { cn: '气压过高', en: 'High air pressure' },
  lowPressure: { cn: '气压过低', en: 'Low air pressure' },
  lowPower: { cn: '传感器电量低', en: 'Low power' },
  normal: { cn: '正常', en: 'Normal' },
} as const satisfies Record<string, Labelled>;
export type TyreStatus = keyof typeof TYRE_STATUSES;

/** Limits of one wheel: pressure in kPa, temperature in °C. */
export interface TyreLimits {
  readonly pressureMinKpa: number;
  readonly pressureMaxKpa: number;
  readonly temperatureMaxC: number;
}

/** Defaults for a passenger car (the spec gives no values): 180–320 kPa, 80 °C. */
export const DEFAULT_TYRE_LIMITS: TyreLimits = { pressureMinKpa: 180, pressureMaxKpa: 320, temperatureMaxC: 80 };

/** Sane limits: finite, pressure 0 ≤ min < max, temperature above 0 °C. */
export function areValidTyreLimits(limits: TyreLimits): boolean {
  const { pressureMinKpa, pressureMaxKpa, temperatureMaxC } = limits;
  return (
    [pressureMinKpa, pressureMaxKpa, temperatureMaxC].every(Number.isFinite) &&
    pressureMinKpa >= 0 &&
    pressureMinKpa < pressureMaxKpa &&
    temperatureMaxC > 0
  );
}

/**
 * The tyre thresholds of the device settings drawer (/order/save: tyreLowKpa, tyreHighKpa, tyreHighTempC): the
 * values given, completed with the defaults, must be sane limits (areValidTyreLimits). One rule for the drawer
 * and the server.
 */
export function checkTyreThresholds(v: {
  tyreLowKpa?: unknown;
  tyreHighKpa?: unknown;
  tyreHighTempC?: unknown;
}): RuleResult {
  const given = (x: unknown, fallback: number) =>
    x === null || x === undefined || x === '' ? fallback : typeof x === 'number' ? x : Number(x);
  const limits = {
    pressureMinKpa: given(v.tyreLowKpa, DEFAULT_TYRE_LIMITS.pressureMinKpa),
    pressureMaxKpa: given(v.tyreHighKpa, DEFAULT_TYRE_LIMITS.pressureMaxKpa),
    temperatureMaxC: given(v.tyreHighTempC, DEFAULT_TYRE_LIMITS.temperatureMaxC),
  };
  return areValidTyreLimits(limits) ? { ok: true } : refuse('validation.tyreThresholds');
}

export interface TyreReading {
  readonly pressureKpa: number;
  readonly temperatureC: number;
  /** The sensor reports a leak. */
  readonly leaking?: boolean;
  /** The sensor reports a low battery. */
  readonly lowPower?: boolean;
}

/**
 * Statuses of one wheel, most urgent first; ['normal'] when nothing is wrong. Limits are inclusive:
 * exactly the minimum or maximum is still normal. Non-finite readings are ignored.
 */
export function tyreStatuses(reading: TyreReading, limits: TyreLimits = DEFAULT_TYRE_LIMITS): TyreStatus[] {
  const statuses: TyreStatus[] = [];
  if (reading.leaking) statuses.push('airLeak');
  if (Number.isFinite(reading.temperatureC) && reading.temperatureC > limits.temperatureMaxC) {
    statuses.push('highTemperature');
  }
  if (Number.isFinite(reading.pressureKpa)) {
    if (reading.pressureKpa > limits.pressureMaxKpa) statuses.push('highPressure');
    else if (reading.pressureKpa < limits.pressureMinKpa) statuses.push('lowPressure');
  }
  if (reading.lowPower) statuses.push('lowPower');
  return statuses.length > 0 ? statuses : ['normal'];
}
