// Business constants of spec §9 that are not rules of their own.

/** Every API call times out after 5 minutes. */
export const REQUEST_TIMEOUT_MS = 300_000;

export const CAR_ICON_SIZE_PX = 40;
export const MARKER_ICON_SIZE_PX = 32;

/** Distance-measuring tool. */
export const DISTANCE_TOOL = { units: ['metric', 'us'], minSegmentClickPx: 5, strokeWidth: 2 } as const;

/** Oil (fuel tank) volume options: 1.0 L to 29.9 L in steps of 0.1 L, as numbers with one decimal. */
export const OIL_VOLUME_OPTIONS_L: readonly number[] = Array.from({ length: 290 }, (_, i) => (10 + i) / 10);

/** Browser storage keys (spec §9). */
export const SESSION_KEYS = ['userInfo', 'selectedTid', 'selectAgentId', 'nis'] as const;

/** Fences (spec §3, §9). */
export const FENCE_SHAPES = ['circle', 'rectangle', 'polygon'] as const;
export const FENCE_STATES = ['opened', 'closed'] as const;
export const FENCE_ALARM_TYPES = ['in', 'out', 'inOut'] as const;
export type FenceShape = (typeof FENCE_SHAPES)[number];
export type FenceState = (typeof FENCE_STATES)[number];
export type FenceAlarmType = (typeof FENCE_ALARM_TYPES)[number];

/** When a maintenance notice set by the admin runs, and whether it also shows on start (the login page). */
export interface MaintenanceNoticeWindow {
  readonly startsAt: string | null;
  readonly endsAt: string;
  /** Spec §1 "on start": also shown on the login page, before anyone signs in. */
  readonly showOnStart?: boolean;
}

/**
 * Spec §1: whether a maintenance notice shows at `now`: from its start (if any) until its end (the spec's own
 * notice ran until MAINTENANCE_NOTICE.showUntil). `onStart` asks about the login page, where only a notice the
 * admin set to show on start appears; signed-in pages show every running notice.
 */
export function isMaintenanceNoticeShown(
  notice: MaintenanceNoticeWindow | null | undefined,
  now: number,
  onStart = false,
): boolean {
  if (!notice) return false;
  if (onStart && notice.showOnStart !== true) return false;
  if (notice.startsAt && Date.parse(notice.startsAt) > now) return false;
  return Date.parse(notice.endsAt) > now;
}
