import type { Labelled } from './source.ts';

/** Battery-pack states of spec §3. */
export const BATTERY_STATES = {
  charging: { cn: '充电', en: 'Charging' },
  discharging: { cn: '放电', en: 'Discharging' },
  idle: { cn: '空闲', en: 'Idle' },
} as const satisfies Record<string, Labelled>;
export type BatteryState = keyof typeof BATTERY_STATES;

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

/** Lowest battery-pack alarm code: fault bit n of a pack report is alarm BATTERY_FAULT_BASE + n (spec §9: 50–80). */
export const BATTERY_FAULT_BASE = 50;
/** Fault bits a pack report may carry (codes 50 to 80). */
export const BATTERY_FAULT_BITS = 31;

/** The battery alarm codes (50–80) of a pack report's fault bits, lowest first. */
export function batteryFaultCodes(faults: number): number[] {
  const out: number[] = [];
  if (!Number.isInteger(faults) || faults <= 0) return out;
  for (let bit = 0; bit < BATTERY_FAULT_BITS; bit++) {
    if (Math.floor(faults / 2 ** bit) % 2 === 1) out.push(BATTERY_FAULT_BASE + bit);
  }
  return out;
}
