// Playback speed: at 1× a track plays in about PLAYBACK_SECONDS_AT_1X (short tracks at least
// MIN_POINTS_PER_SECOND fixes per second); the speed selector multiplies that, 1× to 32×. Playback moves
// through fixes rather than clock time, so a night parked does not play as minutes of nothing.
export const PLAYBACK_SPEEDS = [1, 2, 4, 8, 16, 32] as const;
export type PlaybackSpeed = (typeof PLAYBACK_SPEEDS)[number];

export const PLAYBACK_SECONDS_AT_1X = 180;
export const MIN_POINTS_PER_SECOND = 2;

export function pointsPerSecond(length: number, speed: PlaybackSpeed): number {
  return Math.max(MIN_POINTS_PER_SECOND, length / PLAYBACK_SECONDS_AT_1X) * speed;
}

/** The cursor (fractional fix index) after `elapsedMs` of playing; it stops at the last fix. */
export function advance(cursor: number, elapsedMs: number, length: number, speed: PlaybackSpeed): number {
  if (length <= 1) return 0;
  return Math.min(length - 1, cursor + (pointsPerSecond(length, speed) * Math.max(0, elapsedMs)) / 1000);
}
