// The four wheels of spec §3 in their places on the car, worst status first.
import { TYRE_POSITIONS, type TyrePosition } from '@carhere/domain';
import type { Wheel } from './api.ts';

/** The wheel reported for each position (by its position name, else by its index). */
export function wheelsByPosition(wheels: readonly Wheel[]): Record<TyrePosition, Wheel | null> {
  const out = Object.fromEntries(TYRE_POSITIONS.map((p) => [p, null])) as Record<TyrePosition, Wheel | null>;
  for (const w of wheels) {
    const position = (TYRE_POSITIONS as readonly string[]).includes(w.position ?? '')
      ? (w.position as TyrePosition)
      : TYRE_POSITIONS[w.index];
    if (position && !out[position]) out[position] = w;
  }
  return out;
}

/** Green for normal, orange for pressure or sensor trouble, red for a leak or heat. */
export function wheelColor(wheel: Wheel | null): string {
  if (!wheel || wheel.statuses.length === 0) return '#d9d9d9';
  const worst = wheel.statuses[0];
  if (worst === 'normal') return '#52c41a';
  if (worst === 'airLeak' || worst === 'highTemperature') return '#ff4d4f';
  return '#fa8c16';
}
