import type { Labelled } from './source.ts';

/** Battery-pack states of spec §3. */
export const BATTERY_STATES = {
  charging: { cn: '充电', en: 'Charging' },
  discharging: { cn: '放电', en: 'Discharging' },
  idle: { cn: '空闲', en: 'Idle' },
} as const satisfies Record<string, Labelled>;
export type BatteryState = keyof typeof BATTERY_STATES;

/** A battery-pack reading (spec §3). */
export interface BatteryReading {
  readonly voltage: number;
  /** Amperes; positive while charging, negative while discharging. */
  readonly current: number;
  readonly percentage: number;
  readonly temperature: number;
  readonly useCount: number;
}

/**
 * State from the current: charging above +idleBand, discharging below -idleBand, idle in between
 * (band inclusive; 0 A by default). A non-finite current reads as idle.
 */
export function batteryState(currentA: number, idleBandA = 0): BatteryState {
  if (!Number.isFinite(currentA)) return 'idle';
  const band = Math.abs(idleBandA);
  if (currentA > band) return 'charging';
  if (currentA < -band) return 'discharging';
  return 'idle';
}

/** Percentage clamped to 0-100 and rounded; undefined when unknown. */
export function batteryPercent(value: number | null | undefined): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return Math.round(Math.min(100, Math.max(0, value)));
}
